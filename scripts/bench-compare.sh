#!/usr/bin/env bash
# Times the wake of an older revision against this tree's, each on its own
# copy of the same generated roots, in paired hyperfine runs: wall and CPU
# (user + system). Needs hyperfine and jq.
#
#   scripts/bench-compare.sh [REV]     default 0636e6f, before issue 15
set -euo pipefail
cd "$(dirname "$0")/.."
rev=${1:-0636e6f}
work=$(mktemp -d)
trap 'git worktree remove --force "$work/old" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
mkdir -p "$work/home"
git worktree add -q --detach "$work/old" "$rev"
# Both built as the README installs wake: static (CGO_ENABLED=0).
(cd "$work/old" && CGO_ENABLED=0 go build -o "$work/wake-old" ./cmd/wake)
CGO_ENABLED=0 go build -o "$work/wake-new" ./cmd/wake
go build -o "$work/memgen" ./internal/memgen/cmd/memgen
# wake writes skill.md under $HOME: keep it in the scratch directory.
export HOME=$work/home
for v in old new; do
  $work/memgen $work/r-$v/p36/.wake 0 1
  $work/memgen -decisions 3750 $work/r-$v/p200/.wake 0 1
  $work/memgen -decisions 1000 -varied $work/r-$v/d1000/.wake 0 1
  $work/memgen -decisions 50 -varied $work/r-$v/d50/.wake 0 1
done
row() { # label cmd-old cmd-new [opts]
  local label=$1 a=$2 b=$3; shift 3
  hyperfine -N --style none --export-json $work/h.json "$@" -n old "$a" -n new "$b" >/dev/null 2>&1 || { echo "$label|failed"; return; }
  jq -r --arg l "$label" '.results as [$a,$b] | def ms: .*1000*10|round/10; [$l, "\($a.mean|ms) / \($b.mean|ms)", "\(($a.user+$a.system)|ms) / \(($b.user+$b.system)|ms)", "\((($a.user+$a.system)/($b.user+$b.system))*10|round/10)x"] | join("|")' $work/h.json
}
warm() { for v in old new; do for _ in 1 2 3; do $work/wake-$v load --root $work/r-$v/$1/.wake >/dev/null 2>&1; done; done; }
echo "old: $rev; machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), load $(cut -d' ' -f1-3 /proc/loadavg)"
{
echo "case|wall ms old / new|CPU ms old / new|CPU old/new"
warm p36; row "warm load, 36k root" "$work/wake-old load --root $work/r-old/p36/.wake" "$work/wake-new load --root $work/r-new/p36/.wake" --warmup 3 --runs 40
warm p200; row "warm load, 200k-token decision log" "$work/wake-old load --root $work/r-old/p200/.wake" "$work/wake-new load --root $work/r-new/p200/.wake" --warmup 3 --runs 20
warm d1000; row "warm load, 1,000 varied decisions" "$work/wake-old load --root $work/r-old/d1000/.wake" "$work/wake-new load --root $work/r-new/d1000/.wake" --warmup 3 --runs 20
row "first load, 36k root" "$work/wake-old load --root $work/r-old/p36/.wake" "$work/wake-new load --root $work/r-new/p36/.wake" --runs 10 --prepare "rm -rf $work/r-old/p36/.wake/.state $work/r-new/p36/.wake/.state"
row "first load, 200k decisions" "$work/wake-old load --root $work/r-old/p200/.wake" "$work/wake-new load --root $work/r-new/p200/.wake" --runs 5 --prepare "rm -rf $work/r-old/p200/.wake/.state $work/r-new/p200/.wake/.state"
row "first wake check, 1,000 decisions" "$work/wake-old check --root $work/r-old/d1000/.wake" "$work/wake-new check --root $work/r-new/d1000/.wake" --runs 10 -i --prepare "rm -rf $work/r-old/d1000/.wake/.state $work/r-new/d1000/.wake/.state"
warm p200; row "wake check, 200k decisions" "$work/wake-old check --root $work/r-old/p200/.wake" "$work/wake-new check --root $work/r-new/p200/.wake" --warmup 2 --runs 20 -i
} | column -t -s '|'
