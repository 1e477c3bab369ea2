#!/usr/bin/env bash
# Measures what `wake mcp` holds when a client sends many large calls at
# once (issue 23: 20 pending 15 MB calls held 604 MB): builds wake as the
# README installs it (static), lays out a scratch memory root, sends
# initialize and N tools/call requests of SIZE bytes (a call of the tool
# $TOOL, default wake_log, with a "text" argument that long, which the
# tool refuses once read: the calls pile up behind one another as they
# are decoded), and prints the wall time and maximum resident set size of
# the server. HOLD=SECONDS holds the memory root's lock that long first
# (with flock(1)), so that the calls are pending as they arrive, as
# behind a long hand-off. Needs GNU time.
#
#   [TOOL=NAME] [WAKE=BINARY] [HOLD=SECONDS] scripts/bench-mcp-held.sh [N [SIZE]]     default 20 calls of 15,000,000 bytes
#
# WAKE names a wake binary to measure instead of this tree's.
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-20}
size=${2:-15000000}
tool=${TOOL:-wake_log}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ -n "${WAKE:-}" ]; then cp "$WAKE" "$work/wake"; else CGO_ENABLED=0 go build -o "$work/wake" ./cmd/wake; fi
mkdir -p "$work/home" "$work/p"
export HOME=$work/home
(cd "$work/p" && "$work/wake" init >/dev/null 2>&1)
pad=$(head -c "$size" /dev/zero | tr '\0' 'x')
{
  printf '%s\n' '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}'
  printf '%s\n' '{"jsonrpc":"2.0","method":"notifications/initialized"}'
  for i in $(seq 1 "$n"); do
    printf '{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"%s","arguments":{"text":"%s"}}}\n' "$i" "$tool" "$pad"
  done
} >"$work/in.jsonl"
unset pad
cd "$work/p"
if [ -n "${HOLD:-}" ]; then
  flock .wake/.state/lock sleep "$HOLD" &
  sleep 0.5
fi
timeout 300 /usr/bin/time -f "wake mcp: $n calls of $size bytes: %e s, max RSS %M KB" "$work/wake" mcp <"$work/in.jsonl" 2>"$work/err" | wc -l | sed 's/^/answers: /'
grep 'max RSS' "$work/err"
