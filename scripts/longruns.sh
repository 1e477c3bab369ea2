#!/usr/bin/env bash
# Regenerates budget/testdata/longruns.jsonl: the token counts OpenAI's
# tiktoken gives long unbroken runs, which TestLongRunsMatchTiktoken checks
# the counter against. Needs node and npm; installs the pinned npm package
# tiktoken (OpenAI's Rust tiktoken compiled to WebAssembly) into a temp
# dir, never into the repository. Takes a few minutes: the reference merge
# is quadratic on a long run.
#
#   scripts/longruns.sh
set -euo pipefail
cd "$(dirname "$0")/.."
version=1.0.22
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
npm install --prefix "$work" --no-audit --no-fund --ignore-scripts --save-exact "tiktoken@$version" >/dev/null
NODE_PATH="$work/node_modules" node scripts/longruns.cjs >"$work/longruns.jsonl"
mv "$work/longruns.jsonl" budget/testdata/longruns.jsonl
echo "wrote budget/testdata/longruns.jsonl ($(wc -l <budget/testdata/longruns.jsonl) runs, tiktoken $version)"
