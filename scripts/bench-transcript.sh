#!/usr/bin/env bash
# Times the hooks that read a session's transcript on a long one (default
# 1 GiB), and on transcripts that must not stall them: a named pipe, a
# device, a directory. Each must answer within its client's timeout
# (Codex's SessionEnd: 3 s). The transcript is a Claude Code session's
# lines, with large tool results, repeated to the size; the Codex one is
# written with spaces after colons, as some writers do.
#
#   scripts/bench-transcript.sh [MIB]      e.g. 1024 (the default)
#
# WAKE=path/to/wake times that build instead (an older one, to compare).
set -euo pipefail
cd "$(dirname "$0")/.."
mib=${1:-1024}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ -n "${WAKE:-}" ]; then cp "$WAKE" "$work/wake"; else CGO_ENABLED=0 go build -o "$work/wake" ./cmd/wake; fi
export HOME="$work/home"
mkdir -p "$HOME" "$work/proj"
cd "$work/proj"
git init -q . && "$work/wake" init --agent Bench >/dev/null
echo "machine: $(nproc) cores, $(go version | cut -d' ' -f3), load average $(cut -d' ' -f1-3 /proc/loadavg)"

# One MiB of a session's turns: a prompt, an edit, a large tool result.
result=$(printf 'file contents line, long enough to matter\\n%.0s' $(seq 6000))
for i in $(seq 4); do
	printf '{"type":"user","message":{"role":"user","content":"prompt %d: keep going"},"timestamp":"2026-11-22T10:00:%02dZ","cwd":"%s","sessionId":"s"}\n' "$i" "$i" "$PWD"
	printf '{"type":"assistant","message":{"role":"assistant","content":[{"type":"tool_use","id":"w%d","name":"Write","input":{"file_path":"%s/f%d.go","content":"package main"}}]},"timestamp":"2026-11-22T10:00:%02dZ"}\n' "$i" "$PWD" "$i" "$i"
	printf '{"type":"user","message":{"role":"user","content":[{"tool_use_id":"w%d","type":"tool_result","content":"%s"}]},"timestamp":"2026-11-22T10:00:%02dZ"}\n' "$i" "$result" "$i"
done >"$work/chunk"
chunk_kib=$(( $(stat -c %s "$work/chunk") / 1024 ))
n=$(( mib * 1024 / chunk_kib ))
for _ in $(seq "$n"); do cat "$work/chunk"; done >"$work/claude.jsonl"
echo "transcript: $(( $(stat -c %s "$work/claude.jsonl") >> 20 )) MiB"

hook() { # NAME PATH ARGS...
	local name=$1 path=$2
	shift 2
	local in start ms
	in=$(printf '{"session_id":"s","transcript_path":"%s","cwd":"%s","hook_event_name":"x","agent_id":"a","agent_type":"general-purpose"}' "$path" "$PWD")
	start=$(date +%s%N)
	timeout 30 "$work/wake" "$@" <<<"$in" >/dev/null 2>"$work/err" || true
	ms=$(( ($(date +%s%N) - start) / 1000000 ))
	printf '%-28s %-22s %6d ms  %s\n' "$name" "$(basename "$path")" "$ms" "$(head -c 110 "$work/err" | tr '\n' ' ')"
}
mkfifo "$work/pipe.jsonl"
mkdir "$work/dir.jsonl"
for path in "$work/claude.jsonl" "$work/pipe.jsonl" /dev/zero "$work/dir.jsonl"; do
	hook "hook stop claude" "$path" hook stop claude
	hook "hook end claude" "$path" hook end claude
	hook "hook end codex" "$path" hook end codex
	hook "capsule --hook claude" "$path" capsule --hook claude
	rm -rf .wake/cold/capsules
done
