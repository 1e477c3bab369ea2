package boot

import (
	"fmt"
	"strings"
	"testing"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/tiers"
)

// TestUnclosedFenceKeepsHandoff is the reviewer's case: a stray ``` in
// main.md's Goals made every heading below it code, so the HANDOFF block
// was not found and compression could drop it. A fence never closed is not
// a fence (tiers.HeadingLines): the block is found and kept whole, and a
// warning names main.md and the fence's line.
func TestUnclosedFenceKeepsHandoff(t *testing.T) {
	t.Parallel()
	fsys := demoFS(t)
	main, _ := afero.ReadFile(fsys, "/demo/main.md")
	text := string(main)
	goals := strings.Index(text, "## Goals")
	if goals < 0 || !strings.Contains(text, "## HANDOFF") {
		t.Fatal("the demo's main.md has no Goals or HANDOFF section")
	}
	fenceLine := strings.Count(text[:goals], "\n") + 2
	bloated := text[:goals] + "## Goals\n```\n" + strings.Repeat("- a long goal that keeps going on and on and on\n", 400) + text[goals+len("## Goals\n"):]
	afero.WriteFile(fsys, "/demo/main.md", []byte(bloated), 0o644)

	if !tiers.ParseMain([]byte(bloated)).Handoff.Present {
		t.Fatal("HANDOFF block not found below an unclosed fence")
	}
	ctx, md := build(t, fsys, tiers.DefaultConfig(), encoder(t))
	m := ctx.Phases[0].Files[0]
	if !m.Truncated {
		t.Fatalf("main.md not compressed: %d tokens", m.ShownTokens)
	}
	for _, line := range []string{"## HANDOFF", "next_priority: as announced", "open_risk: The October report", "emotional_register: Owner is relieved"} {
		if !strings.Contains(m.Content, line) {
			t.Errorf("HANDOFF line %q dropped:\n%s", line, m.Content)
		}
	}
	want := fmt.Sprintf("main.md:%d: code fence opened here is never closed", fenceLine)
	if !strings.Contains(md, want) {
		t.Errorf("no warning %q in:\n%s", want, md)
	}
	if strings.Contains(md, "no HANDOFF block") {
		t.Error("the checks still say there is no HANDOFF block")
	}
}
