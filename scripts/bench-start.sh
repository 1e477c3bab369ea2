#!/usr/bin/env bash
# Times a session start against its floors and peers, as whole processes,
# each pair in one hyperfine run (the same conditions for both), and prints
# one table of ratios: wall time, and CPU time (user + system), which a
# busy machine disturbs less. Needs hyperfine and jq.
#
#   warm load, 36k root            vs  cat of the six tier files    (issue 15, target 1: CPU <= 5x)
#   the same, wake built with cgo  vs  cat (go's default build where a C compiler is found)
#   warm load, 200k decisions      vs  warm load, 36k root          (target 2: <= 1.5x)
#   first load, 36k / 200k root    vs  encoder build + counting each file once (target 3: <= 1.5x)
#   load after a hand-off, 36k     vs  the same floor (every session's start but the first)
#   Claude Code hook (warm)        vs  warm load                    (target 7: <= 1.2x)
#   wake wakeup (warm)             vs  warm load
#   wake check, 200k root          vs  warm load, 200k root
#   warm load, 1,000 decisions     vs  warm load, 50 decisions      (target 4: <= 1.5x)
#   first wake check, 1,000 decisions                               (target 4: < 200 ms)
#   ctx agent (ActiveMemory/ctx)   vs  warm load, when ctx is on PATH
#
#   scripts/bench-start.sh [RUNS]      RUNS of each warm command (default 30)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-30}
for tool in hyperfine jq; do
	command -v "$tool" >/dev/null || {
		echo "bench-start: $tool is needed (apt-get install $tool)" >&2
		exit 2
	}
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# wake and the floor as the README installs wake: static (CGO_ENABLED=0).
# wake-cgo is go's default build where a C compiler is found (the standard
# net package, which afero and pflag import, then links libc), timed in a
# row of its own.
CGO_ENABLED=0 go build -o "$work/wake" ./cmd/wake
CGO_ENABLED=0 go build -o "$work/countfloor" ./internal/countfloor
CGO_ENABLED=1 go build -o "$work/wake-cgo" ./cmd/wake 2>/dev/null ||
	echo "bench-start: no cgo build (no C compiler?): its row is left out" >&2
go build -o "$work/memgen" ./internal/memgen/cmd/memgen
# wake writes skill.md under $HOME: keep it in the scratch directory (set
# only now, so that go above still finds its module cache).
export HOME="$work/home"
mkdir -p "$HOME"
wake=$work/wake
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(go version | cut -d' ' -f3), load average $(cut -d' ' -f1-3 /proc/loadavg)"

# Two roots, each the .wake of a project directory (the hook finds it from
# the directory it runs in): full tiers of about 36,000 tokens, and the
# same with a decision log of about 200,000 tokens.
"$work/memgen" "$work/p36/.wake" 0 1
"$work/memgen" -decisions 3750 "$work/p200/.wake" 0 1
tierfiles() {
	local r=$1
	echo "$r/main.md $r/recent/latest.md $r/recent/previous.md $r/warm/active_tasks.md $r/warm/decisions.md $r/warm/open_questions.md"
}
r36=$work/p36/.wake
r200=$work/p200/.wake
for p in p36 p200; do
	printf '{"session_id":"bench","hook_event_name":"SessionStart","source":"startup","cwd":"%s"}\n' "$work/$p" >"$work/$p.hook.json"
	# Two starts: the first writes the boot files, the second keeps its
	# output in the start cache.
	for _ in 1 2 3; do
		"$wake" load --root "$work/$p/.wake" >/dev/null 2>&1
		"$wake" load --hook claude <"$work/$p.hook.json" >/dev/null 2>&1
	done
done

rows=()
# pair LABEL TARGET A B [hyperfine options...]: times A and B in one
# hyperfine run and adds a row with both and the ratios A/B.
pair() {
	local label=$1 target=$2 a=$3 b=$4
	shift 4
	hyperfine -N --style none --export-json "$work/h.json" "$@" -n A "$a" -n B "$b" >/dev/null 2>&1 || {
		rows+=("$label|failed|||||$target")
		return
	}
	rows+=("$(jq -r --arg name "$label" --arg target "$target" '
		def ms: . * 1000 | . * 10 | round / 10;
		.results as [$a, $b] |
		[$name,
		 "\($a.mean | ms) / \($b.mean | ms)",
		 "\(($a.user + $a.system) | ms) / \(($b.user + $b.system) | ms)",
		 "\($a.mean / $b.mean * 100 | round / 100)x",
		 "\((($a.user + $a.system) / ($b.user + $b.system)) * 100 | round / 100)x",
		 $target] | join("|")' "$work/h.json")")
}
warm=(--warmup 3 --runs "$runs")

pair "warm load 36k vs cat of the 6 files" "CPU <= 5x" \
	"$wake load --root $r36" "cat $(tierfiles "$r36")" "${warm[@]}"
if [ -x "$work/wake-cgo" ]; then
	pair "warm load 36k, cgo build, vs cat of the 6 files" "" \
		"$work/wake-cgo load --root $r36" "cat $(tierfiles "$r36")" "${warm[@]}"
fi
pair "warm load 200k decisions vs 36k" "<= 1.5x" \
	"$wake load --root $r200" "$wake load --root $r36" "${warm[@]}"
pair "first load 36k vs floor" "<= 1.5x" \
	"$wake load --root $r36" "$work/countfloor $(tierfiles "$r36")" --runs 5 --prepare "rm -rf $r36/.state"
pair "first load 200k vs floor" "<= 1.5x" \
	"$wake load --root $r200" "$work/countfloor $(tierfiles "$r200")" --runs 5 --prepare "rm -rf $r200/.state"
# Settle the caches the first loads removed.
for _ in 1 2 3; do
	"$wake" load --root "$r36" >/dev/null 2>&1
	"$wake" load --hook claude <"$work/p36.hook.json" >/dev/null 2>&1
done
# The start of every session but the first: a load after a hand-off
# (run as hyperfine's --prepare, untimed), on a copy of the 36k root.
cp -a "$work/p36" "$work/ph"
"$wake" load --root "$work/ph/.wake" >/dev/null 2>&1
pair "load after a hand-off vs floor" "" \
	"$wake load --root $work/ph/.wake" "$work/countfloor $(tierfiles "$work/ph/.wake")" --runs 10 \
	--prepare "$wake handoff --root $work/ph/.wake --summary 'Measured the start' --next 'Measure it again'"
# hyperfine 1.15 cannot feed stdin: both sides of this pair run through
# the shell, so that its cost is on both.
pair "Claude Code hook vs warm load (both via sh)" "<= 1.2x" \
	"sh -c '$wake load --hook claude <$work/p36.hook.json'" "sh -c '$wake load --root $r36'" "${warm[@]}"
pair "wake wakeup vs warm load" "" \
	"$wake wakeup --root $r36" "$wake load --root $r36" "${warm[@]}"
pair "wake check 200k vs warm load 200k" "" \
	"$wake check --root $r200" "$wake load --root $r200" "${warm[@]}" -i
# Target 4: a warm load with 1,000 varied active decisions against the
# same root with 50, and a first wake check of the 1,000 (no .state/).
"$work/memgen" -decisions 1000 -varied "$work/d1000/.wake" 0 1
"$work/memgen" -decisions 50 -varied "$work/d50/.wake" 0 1
for _ in 1 2 3; do
	"$wake" load --root "$work/d1000/.wake" >/dev/null 2>&1
	"$wake" load --root "$work/d50/.wake" >/dev/null 2>&1
done
pair "warm load 1,000 decisions vs 50" "<= 1.5x" \
	"$wake load --root $work/d1000/.wake" "$wake load --root $work/d50/.wake" "${warm[@]}"
pair "first wake check 1,000 decisions vs warm load" "< 200 ms" \
	"$wake check --root $work/d1000/.wake" "$wake load --root $work/d50/.wake" --runs 10 --prepare "rm -rf $work/d1000/.wake/.state" -i

# ActiveMemory/ctx, when on PATH: `ctx agent` in a git project whose
# .context/ files hold the 36k root's text (tasks, decisions, learnings
# from the last sessions, conventions from main.md), budget 40,000 tokens
# like wake's memory_target.
if command -v ctx >/dev/null 2>&1; then
	cx=$work/pctx
	mkdir -p "$cx"
	(cd "$cx" && git init -q && ctx init >/dev/null 2>&1) || true
	if [ -d "$cx/.context" ]; then
		cat "$r36/warm/active_tasks.md" >>"$cx/.context/TASKS.md"
		cat "$r36/warm/decisions.md" >>"$cx/.context/DECISIONS.md"
		cat "$r36/recent/latest.md" "$r36/recent/previous.md" "$r36/warm/open_questions.md" >>"$cx/.context/LEARNINGS.md"
		cat "$r36/main.md" >>"$cx/.context/CONVENTIONS.md"
		(cd "$cx" && ctx agent --budget 40000 >/dev/null 2>&1) || true
		pair "ctx agent vs warm load 36k" "" \
			"sh -c 'cd $cx && ctx agent --budget 40000'" "sh -c 'cd $work/p36 && $wake load'" "${warm[@]}" -i
	else
		rows+=("ctx agent (ActiveMemory/ctx)|ctx init failed: skipped|||||")
	fi
else
	rows+=("ctx agent (ActiveMemory/ctx)|not on PATH: skipped|||||")
fi

{
	echo "case|wall ms A / B|CPU ms A / B|wall A/B|CPU A/B|target"
	printf '%s\n' "${rows[@]}"
} | column -t -s '|'
