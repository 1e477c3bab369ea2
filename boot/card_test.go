package boot

import (
	"strings"
	"testing"
	"time"

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
