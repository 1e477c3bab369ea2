#!/usr/bin/env bash
# Times `wake load` as a whole process on generated memory roots with full
# tiers (about 36,000 tokens) and the given numbers of cold documents
# (default 10,000), cache warm (the normal session start) and cache cold
# (the first start). Uses hyperfine when installed (apt-get install
# hyperfine), else a plain loop.
#
#   scripts/bench-load.sh [COLD_FILES...]      e.g. 1000 10000 100000
set -euo pipefail
cd "$(dirname "$0")/.."
counts=("$@")
[ ${#counts[@]} -gt 0 ] || counts=(10000)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# wake as the README installs it: static (CGO_ENABLED=0).
CGO_ENABLED=0 go build -o "$work/wake" ./cmd/wake
go build -o "$work/memgen" ./internal/memgen/cmd/memgen
# wake load writes skill.md under $HOME: keep it in the scratch directory
# (set only now, so that go above still finds its module cache).
export HOME="$work/home"
mkdir -p "$HOME"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(go version | cut -d' ' -f3), load average $(cut -d' ' -f1-3 /proc/loadavg)"
for n in "${counts[@]}"; do
	root="$work/mem-$n"
	"$work/memgen" "$root" "$n" 1
	load=("$work/wake" load --root "$root")
	echo "== full tiers, $n cold documents"
	if command -v hyperfine >/dev/null 2>&1; then
		hyperfine -N --style basic --warmup 3 --runs 30 -n "warm load" "${load[*]}" 2>/dev/null
		hyperfine -N --style basic --runs 5 -n "cold load" --prepare "rm -rf $root/.state" "${load[*]}" 2>/dev/null
	else
		"${load[@]}" >/dev/null 2>&1
		for kind in warm cold; do
			start=$(date +%s%N)
			for _ in $(seq 10); do
				[ "$kind" = cold ] && rm -rf "$root/.state"
				"${load[@]}" >/dev/null 2>&1
			done
			echo "$kind load: $(( ($(date +%s%N) - start) / 10000000 )) ms mean over 10 runs"
		done
	fi
	rm -rf "$root"
done
