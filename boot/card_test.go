package boot

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/spf13/afero"
	"github.com/wakeproto/wake/internal/demo"
	"github.com/wakeproto/wake/protocol"
	"github.com/wakeproto/wake/tiers"
)

// TestProtocolCard: the boot context and the hook carry the card wake.toml
// chooses, counted in the context's own size; off leaves it out.
func TestProtocolCard(t *testing.T) {
	t.Parallel()
	fsys, enc := demo.FS(t), encoder(t)
	sizes := map[string]int{}
	for _, mode := range []string{tiers.CardFull, tiers.CardShort, tiers.CardOff} {
		cfg := demo.Config(t, fsys)
		cfg.Protocol.Card = mode
		c, err := Build(Options{FS: fsys, Root: "/demo", Config: cfg, Counter: enc, Now: func() time.Time { return demo.Time }})
		if err != nil {
			t.Fatal(err)
		}
		md := c.Measure(enc)
		hook := Hook(c, HookTarget{BootPath: "/demo/boot.md"}, HookLimit)
		card := protocol.Card(mode)
		for name, out := range map[string]string{"load": md, "hook": hook} {
			if has := strings.Contains(out, "wake handoff --summary"); has != (card != "") {
				t.Errorf("%s card in %s: %v", mode, name, has)
			}
		}
		if card != "" && !strings.Contains(md, protocol.Title+"\n\n"+card) {
			t.Errorf("%s: the context lacks the card as written", mode)
		}
		if enc.Count(md) != c.Totals.Output {
			t.Errorf("%s: the footer's count %d is not the output's %d", mode, c.Totals.Output, enc.Count(md))
		}
		sizes[mode] = c.Totals.Output
	}
	if !(sizes[tiers.CardOff] < sizes[tiers.CardShort] && sizes[tiers.CardShort] < sizes[tiers.CardFull]) {
		t.Errorf("sizes %v: the card is not counted", sizes)
	}
}

// TestFooterWarnsOverTarget: a context whose memory passes
// budget.memory_target says so in its footer; one under it does not.
func TestFooterWarnsOverTarget(t *testing.T) {
	t.Parallel()
	fsys, enc := demo.FS(t), encoder(t)
	for _, target := range []int{40000, 500} {
		cfg := demo.Config(t, fsys)
		cfg.Budget.MemoryTarget = target
		c, err := Build(Options{FS: fsys, Root: "/demo", Config: cfg, Counter: enc, Now: func() time.Time { return demo.Time }})
		if err != nil {
			t.Fatal(err)
		}
		md := c.Measure(enc)
		warned := strings.Contains(md, "over budget.memory_target (500)")
		if warned != (target == 500) || enc.Count(md) != c.Totals.Output {
			t.Errorf("target %d: warned %v, counts %d/%d", target, warned, enc.Count(md), c.Totals.Output)
		}
	}
}

// TestSqueezeIsFair: when the memory maximum forces cuts, no tier file is
// dropped whole while another could still give way: each is cut as far as
// fitting goes first (seen before: warm/decisions.md withheld whole while
// warm/open_questions.md kept all of itself).
func TestSqueezeIsFair(t *testing.T) {
	t.Parallel()
	fsys, enc := demo.FS(t), encoder(t)
	var b strings.Builder
	b.WriteString("# Decisions\n\n")
	for i := range 120 {
		fmt.Fprintf(&b, "[2026-01-%02d] DECISION: Adopt practice number %d for the build BECAUSE: experiment %d showed it saves time\nSTATUS: active\n\n", i%28+1, i, i)
	}
	afero.WriteFile(fsys, "/demo/warm/decisions.md", []byte(b.String()), 0o644)
	var q strings.Builder
	q.WriteString("# Open questions\n\n")
	for i := range 60 {
		fmt.Fprintf(&q, "- Question %d: should the importer accept the bank's format variant %d?\n", i, i)
	}
	afero.WriteFile(fsys, "/demo/warm/open_questions.md", []byte(q.String()), 0o644)
	build := func(max int) *Context {
		cfg := demo.Config(t, fsys)
		cfg.Budget.MemoryMax, cfg.Budget.MemoryTarget = max, max
		c, err := Build(Options{FS: fsys, Root: "/demo", Config: cfg, Counter: enc, Now: func() time.Time { return demo.Time }})
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	roomy := build(60000)
	var dec *File
	for _, f := range roomy.Files() {
		if f.Path == tiers.DecisionsPath {
			dec = f
		}
	}
	// An excess larger than all decisions.md can give: it is cut as far as
	// it goes, and open_questions.md gives the rest.
	for _, extra := range []int{100, 400} {
		max := roomy.Totals.Output - dec.ShownTokens - extra
		c := build(max)
		for _, f := range c.Files() {
			if f.withheld {
				t.Errorf("max %d: %s withheld whole while others could be cut", max, f.Path)
			}
			if f.Path == tiers.QuestionsPath && !f.Truncated {
				t.Errorf("max %d: %s not cut", max, f.Path)
			}
		}
		if c.Totals.Output > max {
			t.Errorf("max %d: the context is %d tokens", max, c.Totals.Output)
		}
	}
}
