#!/usr/bin/env bash
# Times `wake load` as a whole process on a generated memory root with full
# tiers (about 36,000 tokens) and COLD_FILES cold documents (default 10,000),
# cache warm and cache cold. Uses hyperfine when installed
# (apt-get install hyperfine), else a plain loop.
#
#   scripts/bench-load.sh [COLD_FILES]
set -euo pipefail
cd "$(dirname "$0")/.."
cold=${1:-10000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

go build -o "$work/wake" ./cmd/wake
go run ./internal/memgen/cmd/memgen "$work/mem" "$cold" 1
load=("$work/wake" load --root "$work/mem")
"${load[@]}" >/dev/null   # fill the count cache

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(go version | cut -d' ' -f3)"
echo "root: full tiers, $cold cold files"
if command -v hyperfine >/dev/null 2>&1; then
	hyperfine -N --warmup 5 --runs 50 -n "warm load" "${load[*]}"
	hyperfine -N --warmup 1 --runs 10 -n "cold load" --prepare "rm -rf $work/mem/.state" "${load[*]}"
else
	for kind in warm cold; do
		start=$(date +%s%N)
		for _ in $(seq 20); do
			[ "$kind" = cold ] && rm -rf "$work/mem/.state"
			"${load[@]}" >/dev/null
		done
		echo "$kind load: $(( ($(date +%s%N) - start) / 20000000 )) ms mean over 20 runs"
	done
fi
