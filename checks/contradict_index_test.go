package checks

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/spf13/afero"
	"github.com/wakeproto/wake/internal/memgen"
	"github.com/wakeproto/wake/store"
	"github.com/wakeproto/wake/tiers"
)

// flagged compares phrases pairwise, every pair or only the candidates,
// and returns each flagged pair with its reason.
func flagged(ps []phrase, c *comparer, all bool) map[[2]int]string {
	out := map[[2]int]string{}
	var pairs [][2]int
	if all {
		for i := range ps {
			for j := i + 1; j < len(ps); j++ {
				pairs = append(pairs, [2]int{i, j})
			}
		}
	} else {
		pairs = candidates(ps)
	}
	for _, p := range pairs {
		if why, ok := c.contradicts(ps[p[0]], ps[p[1]]); ok {
			out[p] = why
		}
	}
	return out
}

// Words of the random logs: few enough that texts meet, with the words
// each reason turns on.
var (
	genWords = []string{
		"use", "store", "keep", "run", "write", "yaml", "toml", "sqlite", "postgres", "config", "tests", "ci",
		"the", "a", "for", "in", "as", "with", "of", "to", "entries", "journal", "money", "cents", "int64",
		"float64", "cache", "tokens", "sessions", "lint", "docs", "markdown", "3", "5", "7", "number", "step",
		"tabs", "spaces", "indentation", "cgo", "main", "commit", "merges", "squash", "uploads", "retry",
	}
	genNegations = []string{"not", "do not", "we must not", "never", "don't", "cannot", "should not", "will never", "no"}
)

// randomLog makes n decision texts: some new, most made from an earlier
// one by a change each reason looks for (a negation added or removed, a
// word for its opposite, a word or two for others), or by one it does not.
func randomLog(r *rand.Rand, n int) []string {
	var out []string
	fresh := func() string {
		ws := make([]string, 2+r.IntN(9))
		for i := range ws {
			ws[i] = genWords[r.IntN(len(genWords))]
		}
		return strings.Join(ws, " ")
	}
	for len(out) < n {
		if len(out) == 0 || r.IntN(4) == 0 {
			out = append(out, fresh())
			continue
		}
		ws := strings.Fields(out[r.IntN(len(out))])
		at := r.IntN(len(ws) + 1)
		switch r.IntN(6) {
		case 0: // a negation
			ws = append(ws[:at:at], append(strings.Fields(genNegations[r.IntN(len(genNegations))]), ws[at:]...)...)
		case 1: // an opposite
			p := antonymPairs[r.IntN(len(antonymPairs))]
			if at == len(ws) {
				ws = append(ws, p[r.IntN(2)])
			} else {
				ws[at] = p[r.IntN(2)]
			}
		case 2, 3: // a word or two for others
			drop := min(1+r.IntN(2), len(ws)-min(at, len(ws)))
			var put []string
			for range 1 + r.IntN(2) {
				put = append(put, genWords[r.IntN(len(genWords))])
			}
			ws = append(ws[:at:at], append(put, ws[at+drop:]...)...)
		case 4: // a word less
			if at < len(ws) && len(ws) > 1 {
				ws = append(ws[:at:at], ws[at+1:]...)
			}
		case 5: // its opposite after a negation removed
			ws = append(ws[:at:at], append([]string{"always"}, ws[at:]...)...)
		}
		out = append(out, strings.Join(ws, " "))
	}
	return out
}

// TestCandidatesKeepEveryFlaggedPair holds the index to its promise: on
// many random logs, every pair the comparison of every pair flags is a
// candidate, so the check's findings are the same.
func TestCandidatesKeepEveryFlaggedPair(t *testing.T) {
	t.Parallel()
	reasons := map[string]int{}
	logs := [][]string{realDecisions}
	logs = append(logs, flaggedExamples)
	// 120 logs of 80 entries: 380,000 pairs, each reason flagged at least
	// 20 times (opposite, the rarest, 26); 400 took five times as long and
	// adds no kind of pair these lack.
	seeds := 120
	if testing.Short() {
		seeds = 50
	}
	for seed := range seeds {
		logs = append(logs, randomLog(rand.New(rand.NewPCG(uint64(seed), 15)), 80))
	}
	compared, candidatePairs := 0, 0
	for n, texts := range logs {
		c := newComparer()
		ps := make([]phrase, len(texts))
		for i, s := range texts {
			ps[i] = c.phrase(s)
		}
		all, some := flagged(ps, c, true), flagged(ps, c, false)
		for p, why := range all {
			reasons[reasonKind(why)]++
			if some[p] != why {
				t.Errorf("log %d: %q against %q (%s) is not a candidate", n, texts[p[0]], texts[p[1]], why)
			}
		}
		if len(some) != len(all) {
			t.Errorf("log %d: %d pairs flagged among the candidates, %d among all", n, len(some), len(all))
		}
		compared += len(texts) * (len(texts) - 1) / 2
		candidatePairs += len(candidates(ps))
	}
	// Each reason must have come up often, or the logs test nothing.
	for _, r := range []string{"negation", "opposite", "choice"} {
		if reasons[r] < 20 && !testing.Short() {
			t.Errorf("only %d flagged pairs start %q: %v", reasons[r], r, reasons)
		}
	}
	t.Logf("flagged pairs by reason: %v; candidates %d of %d pairs", reasons, candidatePairs, compared)
}

// flaggedExamples are the pairs TestContradicts has contradict, one text
// after the other.
var flaggedExamples = []string{
	"Use YAML for config", "Use TOML for config", "Use cgo", "Do not use cgo", "Don't use cgo",
	"We can vendor dependencies", "We cannot vendor dependencies", "Never commit to main", "Commit to main",
	"Enable telemetry", "Disable telemetry", "Always squash merges", "Never squash merges",
	"Retry failed uploads 3 times", "Retry failed uploads 5 times", "Store journal entries in SQLite",
	"Store journal entries in Postgres", "Use tabs for indentation", "Use spaces for indentation",
	"Represent money as int64 cents", "Represent money as float64 cents", "Config lives in YAML files",
	"Config lives in TOML files", "Postgres stores the invoices", "SQLite stores the invoices",
}

func reasonKind(why string) string {
	switch {
	case strings.HasPrefix(why, "one negates"):
		return "negation"
	case strings.Contains(why, "is the opposite of"):
		return "opposite"
	case strings.HasPrefix(why, "the same subject"):
		return "choice"
	}
	return why
}

// TestCandidatesOrder: the candidates come in the order of a loop over
// every pair, each once.
func TestCandidatesOrder(t *testing.T) {
	t.Parallel()
	c := newComparer()
	texts := randomLog(rand.New(rand.NewPCG(7, 7)), 200)
	ps := make([]phrase, len(texts))
	for i, s := range texts {
		ps[i] = c.phrase(s)
	}
	got := candidates(ps)
	if len(got) == 0 {
		t.Fatal("no candidates")
	}
	for k := 1; k < len(got); k++ {
		a, b := got[k-1], got[k]
		if a[0] > b[0] || a[0] == b[0] && a[1] >= b[1] {
			t.Fatalf("candidates %v then %v", a, b)
		}
	}
	for _, p := range got {
		if p[0] >= p[1] {
			t.Fatalf("pair %v", p)
		}
	}
}

// variedLog is n active, varied decisions as a project's log holds them:
// the texts of realDecisions and of the random logs, a TOPIC on some.
func variedLog(n int) []byte {
	r := rand.New(rand.NewPCG(uint64(n), 3))
	texts := randomLog(r, n)
	var b strings.Builder
	for i, s := range texts {
		fmt.Fprintf(&b, "[2026-01-%02d] DECISION: %s BECAUSE: reason %d\nSTATUS: active\n", 1+i%28, s, i)
		if i%4 == 0 {
			fmt.Fprintf(&b, "TOPIC: topic-%d\n", i)
		}
		b.WriteString("\n")
	}
	return []byte(b.String())
}

// BenchmarkContradictions is the contradiction check alone on logs of 50,
// 250 and 1,000 active decisions (300 of them compared, the check's
// bound): "varied" are memgen's realistic ones, "derived" the random logs
// above, most texts made from another so that many pairs are candidates
// and contradict; "index" compares the candidates, "all" every pair as
// the check did before the index.
func BenchmarkContradictions(b *testing.B) {
	for _, kind := range []string{"varied", "derived"} {
		for _, n := range []int{50, 250, 1000} {
			data := variedLog(n)
			if kind == "varied" {
				data = memgenLog(b, n)
			}
			log := tiers.ParseDecisions(data)
			b.Run(fmt.Sprintf("index/%s-%d", kind, n), func(b *testing.B) {
				for b.Loop() {
					contradictions(log)
				}
			})
			b.Run(fmt.Sprintf("all/%s-%d", kind, n), func(b *testing.B) {
				for b.Loop() {
					contradictionsEveryPair(log)
				}
			})
		}
	}
}

// memgenLog is memgen's log of n varied active decisions.
func memgenLog(tb testing.TB, n int) []byte {
	fsys := afero.NewMemMapFs()
	if err := memgen.Generate(fsys, "/r", memgen.Options{TierScale: 1, Decisions: n, VariedDecisions: true}); err != nil {
		tb.Fatal(err)
	}
	data, err := afero.ReadFile(fsys, "/r/warm/decisions.md")
	if err != nil {
		tb.Fatal(err)
	}
	return data
}

// contradictionsEveryPair is [contradictions] as it was before the index:
// every pair compared.
func contradictionsEveryPair(log tiers.DecisionLog) (out []string) {
	act := active(log)
	c := newComparer()
	ps := make([]phrase, len(act))
	topics := make([]string, len(act))
	for i, e := range act {
		ps[i], topics[i] = c.phrase(e.What), tiers.OneLine(e.Topic())
	}
	found := 0
	for i := range act {
		for j := i + 1; j < len(act); j++ {
			if topics[i] != "" && topics[j] != "" {
				continue
			}
			why, ok := c.contradicts(ps[i], ps[j])
			if !ok {
				continue
			}
			if found++; found <= maxListed {
				a, b := act[i], act[j]
				out = append(out, fmt.Sprintf("entries %s and %s contradict: %q against %q (%s)", a.Name(), b.Name(), tiers.OneLine(a.What), tiers.OneLine(b.What), why))
			}
		}
	}
	if found > maxListed {
		out = append(out, fmt.Sprintf("and %d more contradicting pairs", found-maxListed))
	}
	return out
}

// TestContradictionsAsEveryPair: the check's findings are those of every
// pair compared, on logs with many contradictions (listed up to the bound,
// then counted) and over the bound of compared entries.
func TestContradictionsAsEveryPair(t *testing.T) {
	t.Parallel()
	for _, n := range []int{2, 10, 60, 320, -320} {
		// memgen's realistic log (n < 0) contradicts nowhere: the
		// same findings are then none.
		realistic := n < 0
		data := variedLog(max(n, -n))
		if realistic {
			data, n = memgenLog(t, -n), -n
		}
		log := tiers.ParseDecisions(data)
		got := contradictions(log)
		want := contradictionsEveryPair(log)
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("%d decisions: the index gives\n%s\nevery pair\n%s", n, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		if n >= 60 && len(want) == 0 && !realistic {
			t.Errorf("%d decisions: no contradiction to find", n)
		}
	}
}

// conflictsEveryEntry is [Conflicts] as it was before the index: each new
// decision compared with every active entry.
func conflictsEveryEntry(log tiers.DecisionLog, ds []store.NewDecision) []store.Conflict {
	act := active(log)
	c := newComparer()
	ps := make([]phrase, len(act))
	for i, e := range act {
		ps[i] = c.phrase(e.What)
	}
	var out []store.Conflict
	for i, d := range ds {
		topic := strings.ToLower(tiers.OneLine(d.Topic))
		p := c.phrase(d.What)
		for j, e := range act {
			other := strings.ToLower(tiers.OneLine(e.Topic()))
			switch {
			case topic != "" && topic == other:
				out = append(out, store.Conflict{New: i, With: e, Why: fmt.Sprintf("both have TOPIC %q", tiers.OneLine(e.Topic()))})
			case topic != "" && other != "":
			default:
				if why, ok := c.contradicts(p, ps[j]); ok {
					out = append(out, store.Conflict{New: i, With: e, Why: why})
				}
			}
		}
	}
	return out
}

// TestConflictsAsEveryEntry: the guard of rule 1 finds, through the index,
// what comparing each new decision with every entry finds.
func TestConflictsAsEveryEntry(t *testing.T) {
	t.Parallel()
	found := 0
	for seed := range 60 {
		r := rand.New(rand.NewPCG(uint64(seed), 99))
		texts := randomLog(r, 120)
		var b strings.Builder
		for i, s := range texts[:100] {
			fmt.Fprintf(&b, "[2026-01-01] DECISION: %s BECAUSE: r\nSTATUS: active\n", s)
			if i%5 == 0 {
				fmt.Fprintf(&b, "TOPIC: t%d\n", i%15)
			}
			b.WriteString("\n")
		}
		log := tiers.ParseDecisions([]byte(b.String()))
		var ds []store.NewDecision
		for i, s := range texts[100:] {
			d := store.NewDecision{What: s, Why: "w"}
			if i%4 == 0 {
				d.Topic = fmt.Sprintf("t%d", i%15)
			}
			ds = append(ds, d)
		}
		got, want := Conflicts(log, ds), conflictsEveryEntry(log, ds)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("seed %d: the index finds %d conflicts, every entry %d", seed, len(got), len(want))
		}
		found += len(want)
	}
	if found < 50 {
		t.Errorf("only %d conflicts in all: the logs test nothing", found)
	}
	t.Logf("%d conflicts", found)
}

// TestConflictsWithTheOldest: the guard of rule 1 compares a new decision
// with every active entry, so a decision that contradicts the oldest of a
// long log is refused (it compared the 300 newest once).
func TestConflictsWithTheOldest(t *testing.T) {
	t.Parallel()
	oldest := "[2026-01-01] DECISION: Store invoices in SQLite BECAUSE: one file\nSTATUS: active\n\n"
	log := tiers.ParseDecisions(append([]byte(oldest), memgenLog(t, 400)...))
	if n := len(active(log)); n < 400 {
		t.Fatalf("%d active entries", n)
	}
	got := Conflicts(log, []store.NewDecision{{What: "Store invoices in Postgres", Why: "replicas"}})
	if len(got) != 1 || got[0].With.Number != 1 {
		t.Fatalf("conflicts %+v", got)
	}
}
