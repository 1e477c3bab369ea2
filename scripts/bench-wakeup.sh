#!/usr/bin/env bash
# Times a warm `wake wakeup` (caches and cold index built) as a whole
# process on a generated memory root with full tiers (about 36,000 tokens)
# and 10,000 cold documents, one in twenty with memory_type front matter;
# `wake load` on the same root for comparison. (The task has no spaces:
# hyperfine -N splits the command on them.) Uses hyperfine when
# installed, else a plain loop.
#
#   scripts/bench-wakeup.sh [COLD_FILES]
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-10000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# wake as the README installs it: static (CGO_ENABLED=0).
CGO_ENABLED=0 go build -o "$work/wake" ./cmd/wake
go build -o "$work/memgen" ./internal/memgen/cmd/memgen
export HOME="$work/home"
mkdir -p "$HOME"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(go version | cut -d' ' -f3), load average $(cut -d' ' -f1-3 /proc/loadavg)"
root="$work/mem"
"$work/memgen" "$root" "$n" 1 20
wakeup=("$work/wake" wakeup --root "$root" --task rework-component-42-batch --files src/component42.go)
"${wakeup[@]}" >/dev/null # the first run builds the caches
echo "== full tiers, $n cold documents"
if command -v hyperfine >/dev/null 2>&1; then
	hyperfine -N --style basic --warmup 3 --runs 30 -n "warm wakeup (json)" "${wakeup[*]}" \
		-n "warm wakeup (prompt)" "${wakeup[*]} --format prompt" -n "warm load" "$work/wake load --root $root" 2>/dev/null
else
	for kind in json prompt; do
		start=$(date +%s%N)
		for _ in $(seq 20); do "${wakeup[@]}" --format "$kind" >/dev/null; done
		echo "warm wakeup ($kind): $(( ($(date +%s%N) - start) / 20000000 )) ms mean over 20 runs"
	done
fi
