package boot

import (
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/budget"
	"github.com/wakeproto/wake/internal/coldtree"
	"github.com/wakeproto/wake/internal/demo"
	"github.com/wakeproto/wake/internal/golden"
	"github.com/wakeproto/wake/tiers"
)

// demoTime is the demo root's clock: its files' modification time and the
// time the ledger digest is measured from.
var demoTime = demo.Time

func demoFS(t *testing.T) afero.Fs { return demo.FS(t) }

// tocT0 is the clock of the digest and table-of-contents tests.
var tocT0 = coldtree.T0

// sharedEncoder is the cl100k_base encoder the tests share. Building one
// costs about 75 ms and a collection of its tables; forty tests each
// building their own made the package seconds slower. An Encoder is safe
// for concurrent use, and once built it holds no state a test can change.
var sharedEncoder = sync.OnceValues(func() (*budget.Encoder, error) {
	return budget.NewEncoder(tiers.EncodingCL100K)
})

// encoder returns the shared encoder. A test that checks whether an
// encoder was built takes a [freshEncoder] instead.
func encoder(t *testing.T) *budget.Encoder {
	t.Helper()
	e, err := sharedEncoder()
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// freshEncoder returns an encoder of its own, not built yet, for a test
// that checks Built.
func freshEncoder(t *testing.T) *budget.Encoder {
	t.Helper()
	e, err := budget.NewEncoder(tiers.EncodingCL100K)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func build(t *testing.T, fsys afero.Fs, cfg tiers.Config, c budget.Counter) (*Context, string) {
	t.Helper()
	ctx, err := Build(Options{FS: fsys, Root: "/demo", Config: cfg, Counter: c, Now: func() time.Time { return demoTime }})
	if err != nil {
		t.Fatal(err)
	}
	return ctx, ctx.Measure(c)
}

func TestLoadDemoGolden(t *testing.T) {
	t.Parallel()
	fsys := demoFS(t)
	cfg := demo.Config(t, fsys)
	enc := encoder(t)
	ctx, md := build(t, fsys, cfg, enc)
	golden.Check(t, "demo.load.md", md)
	if ctx.Totals.Output != enc.Count(md) {
		t.Fatalf("footer says %d tokens, the output has %d", ctx.Totals.Output, enc.Count(md))
	}
	if !strings.Contains(md, fmt.Sprintf("This context: %s tokens.", budget.Thousands(enc.Count(md)))) {
		t.Fatal("footer does not state the output's exact count")
	}
}

// bigDecisions is a deterministic decision log of roughly n entries.
func bigDecisions(n int) string {
	var b strings.Builder
	b.WriteString("---\nsummary: a long log\n---\n# Decisions\n\n")
	for i := range n {
		fmt.Fprintf(&b, "[2026-01-%02d] DECISION: Adopt practice number %d for the build BECAUSE: experiment %d showed it saves time\nSTATUS: active\n\n", i%28+1, i, i)
	}
	return b.String()
}

// distinctDecisions is a log as long as bigDecisions(n) whose titles are
// two words apart: titles one word apart are all candidates of the
// contradiction check, n² pairs a real log does not have, which a test
// about something else need not pay for.
func distinctDecisions(n int) string {
	var b strings.Builder
	b.WriteString("---\nsummary: a long log\n---\n# Decisions\n\n")
	for i := range n {
		fmt.Fprintf(&b, "[2026-01-%02d] DECISION: Adopt practice %d for stage %d BECAUSE: experiment %d showed it saves time\nSTATUS: active\n\n", i%28+1, i, 7*i+3, i)
	}
	return b.String()
}

func TestLoadCompressesOversizedFile(t *testing.T) {
	t.Parallel()
	fsys := demoFS(t)
	afero.WriteFile(fsys, "/demo/warm/decisions.md", []byte(bigDecisions(1200)), 0o644)
	cfg := tiers.DefaultConfig()
	enc := encoder(t)
	full := enc.Count(bigDecisions(1200))
	ctx, md := build(t, fsys, cfg, enc)

	var dec *File
	for _, f := range ctx.Files() {
		if f.Path == tiers.DecisionsPath {
			dec = f
		}
	}
	others := 117 + 46 // the demo's other warm files; checked below
	if dec.Tokens != full || !dec.Truncated || dec.ShownTokens > dec.Budget || dec.Budget > cfg.Budget.Warm-others+1000 {
		t.Fatalf("decisions: %+v", *dec)
	}
	want := fmt.Sprintf("First task: warm/decisions.md (%s tokens; budget %s): run `wake compact`, then compress what is left by hand.", budget.Thousands(full), budget.Thousands(dec.Budget))
	// The announcement of the coherence checks comes first, then the directive.
	if !strings.HasPrefix(md, ctx.Announcement+"\n\n"+want+"\n") {
		t.Fatalf("output does not start with %q:\n%.300s", want, md)
	}
	// The log is a view of what is in force: the newest whole, first; then
	// the older ones one line each: all 1,200 appear.
	newest := strings.Index(dec.Content, "DECISION: Adopt practice number 1199 ")
	index := strings.Index(dec.Content, "In force, one line each")
	if newest < 0 || index < newest || enc.Count(dec.Content) != dec.ShownTokens {
		t.Fatalf("not a view of what is in force, or shown count is not exact:\n%.600s", dec.Content)
	}
	for i := range 1200 {
		if !strings.Contains(dec.Content, fmt.Sprintf("Adopt practice number %d for the build", i)) {
			t.Fatalf("decision %d in force does not appear", i+1)
		}
	}
	if enc.Count(md) > cfg.Budget.MemoryMax {
		t.Fatalf("output %d tokens over memory_max", enc.Count(md))
	}
	golden.Check(t, "big-decisions.head.md", md[:strings.Index(md, "## Phase 2")])
}

func TestLoadNeverDropsHandoff(t *testing.T) {
	t.Parallel()
	fsys := demoFS(t)
	main, _ := afero.ReadFile(fsys, "/demo/main.md")
	bloated := strings.Replace(string(main), "## HANDOFF", "## Notes\n"+strings.Repeat("- a long standing note that keeps going on and on\n", 400)+"\n## HANDOFF", 1)
	afero.WriteFile(fsys, "/demo/main.md", []byte(bloated), 0o644)
	ctx, md := build(t, fsys, tiers.DefaultConfig(), encoder(t))
	m := ctx.Phases[0].Files[0]
	if !m.Truncated || m.ShownTokens > 2000 {
		t.Fatalf("main.md not fitted: %+v", m.ShownTokens)
	}
	for _, line := range []string{"## HANDOFF", "next_priority: as announced", "open_risk: The October report", "emotional_register: Owner is relieved"} {
		if !strings.Contains(m.Content, line) {
			t.Errorf("HANDOFF line %q dropped", line)
		}
	}
	if !strings.Contains(ctx.Announcement, "Current focus: Fix VAT rounding") {
		t.Errorf("the announcement lacks the next priority the HANDOFF view leaves to it: %q", ctx.Announcement)
	}
	if !strings.Contains(md, "First task: compress main.md") {
		t.Error("no directive for main.md")
	}
}

func TestLoadStaysUnderMemoryMax(t *testing.T) {
	t.Parallel()
	fsys := demoFS(t)
	afero.WriteFile(fsys, "/demo/warm/decisions.md", []byte(bigDecisions(600)), 0o644)
	afero.WriteFile(fsys, "/demo/recent/latest.md", []byte(bigDecisions(300)), 0o644)
	cfg := tiers.DefaultConfig()
	// Tier budgets that add up to far more than the maximum.
	cfg.Budget.Recent, cfg.Budget.Warm, cfg.Budget.MemoryMax, cfg.Budget.MemoryTarget = 50000, 50000, 9000, 8000
	enc := encoder(t)
	ctx, md := build(t, fsys, cfg, enc)
	if n := enc.Count(md); n > 9000 || n != ctx.Totals.Output {
		t.Fatalf("output is %d tokens (footer %d), max 9000", n, ctx.Totals.Output)
	}
	// The work reserve caps memory too.
	cfg = tiers.DefaultConfig()
	cfg.ContextWindow, cfg.Budget.WorkMin = 150000, 145000
	_, md = build(t, fsys, cfg, enc)
	if n := enc.Count(md); n > 5000 {
		t.Fatalf("output is %d tokens, leaving less than work_min", n)
	}
}

func TestLoadBadFiles(t *testing.T) {
	t.Parallel()
	fsys := demoFS(t)
	fsys.Remove("/demo/recent/previous.md")
	afero.WriteFile(fsys, "/demo/warm/open_questions.md", []byte("bin\x00ary"), 0o644)
	afero.WriteFile(fsys, "/demo/warm/active_tasks.md", []byte("- [ ] caf\xe9\n"), 0o644)
	huge := strings.Repeat("- a line of a runaway file\n", tiers.MaxDocBytes/26+100)
	afero.WriteFile(fsys, "/demo/warm/decisions.md", []byte(huge), 0o644)
	ctx, md := build(t, fsys, tiers.DefaultConfig(), encoder(t))
	for _, want := range []string{
		"### recent/previous.md (missing)",
		"### warm/open_questions.md (not shown: binary file (NUL byte at offset 3))",
		"- [ ] caf\xe9\n",
		"First task: warm/decisions.md (" + budget.Thousands(len(huge)) + " bytes, over the 4 MiB read limit; only its head is shown): run `wake compact`, then compress what is left by hand.",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	if got := ctx.OverShare(); len(got) != 1 || got[0] != tiers.DecisionsPath {
		t.Errorf("over their share: %q, want the huge decision log alone", got)
	}
	joined := strings.Join(ctx.Warnings, "\n")
	for _, want := range []string{"warm/open_questions.md: skipped: binary", "warm/active_tasks.md:1: invalid UTF-8"} {
		if !strings.Contains(joined, want) {
			t.Errorf("warnings lack %q: %q", want, joined)
		}
	}
}

func TestWarmLoadNeedsNoEncoder(t *testing.T) {
	t.Parallel()
	fsys := demoFS(t)
	afero.WriteFile(fsys, "/demo/warm/decisions.md", []byte(distinctDecisions(1200)), 0o644)
	cfg := tiers.DefaultConfig()
	first := freshEncoder(t)
	c := OpenCache(fsys, "/demo", first)
	_, md1 := build(t, fsys, cfg, c)
	if err := SaveCache(fsys, "/demo", c); err != nil {
		t.Fatal(err)
	}
	if !first.Built() {
		t.Fatal("cold load did not build the encoder")
	}
	second := freshEncoder(t)
	c2 := OpenCache(fsys, "/demo", second)
	_, md2 := build(t, fsys, cfg, c2)
	if second.Built() {
		t.Fatal("a load of unchanged files built the encoder")
	}
	if md1 != md2 {
		t.Fatal("warm load output differs from cold load output")
	}
	// A corrupt cache costs a recount, never an error.
	afero.WriteFile(fsys, filepath.Join("/demo", tiers.StateDir, budget.CacheFile), []byte("{garbage"), 0o644)
	third := freshEncoder(t)
	_, md3 := build(t, fsys, cfg, OpenCache(fsys, "/demo", third))
	if md3 != md1 || !third.Built() {
		t.Fatal("corrupt cache changed the output or was trusted")
	}
}

func tocOptions(fsys afero.Fs, c budget.Counter) Options {
	return Options{FS: fsys, Root: "/r", Config: tiers.DefaultConfig(), Counter: c, Now: func() time.Time { return tocT0 }}
}
