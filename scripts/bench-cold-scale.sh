#!/usr/bin/env bash
# Times a warm `wake load` as a whole process on generated memory roots with
# full tiers and 1,000, 10,000 and 100,000 cold documents (or the counts
# given), to show that a warm start grows no faster than the cold tier: the
# cold index answers for every document, none is opened. Uses hyperfine
# when installed (apt-get install hyperfine), else a plain loop.
#
#   scripts/bench-cold-scale.sh [COLD_FILES...]
set -euo pipefail
cd "$(dirname "$0")/.."
counts=("$@")
[ ${#counts[@]} -gt 0 ] || counts=(1000 10000 100000)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

go build -o "$work/wake" ./cmd/wake
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(go version | cut -d' ' -f3), load average $(cut -d' ' -f1-3 /proc/loadavg)"
for n in "${counts[@]}"; do
	root="$work/mem-$n"
	go run ./internal/memgen/cmd/memgen "$root" "$n" 1
	# As on any root not written in the last seconds: the cold index does
	# not keep documents modified within two seconds of being read.
	find "$root" -type f -exec touch -d '1 hour ago' {} +
	start=$(date +%s%N)
	"$work/wake" load --root "$root" >/dev/null 2>&1
	echo "cold documents: $n; first (cold) load: $(( ($(date +%s%N) - start) / 1000000 )) ms"
	load=("$work/wake" load --root "$root")
	if command -v hyperfine >/dev/null 2>&1; then
		hyperfine -N --warmup 3 --runs 30 --style basic -n "warm load, $n cold documents" "${load[*]}" 2>/dev/null
	else
		start=$(date +%s%N)
		for _ in $(seq 30); do "${load[@]}" >/dev/null 2>&1; done
		echo "warm load, $n cold documents: $(( ($(date +%s%N) - start) / 30000000 )) ms mean over 30 runs"
	fi
	rm -rf "$root"
done
