package boot

import (
	"strings"
	"testing"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/tiers"
)

// TestMarkersAreTruthful is the reviewer's case: a HANDOFF block bigger
// than main.md's whole budget, with sections dropped above and below it.
// The markers must not claim main.md was cut to fit its budget, and there
// must be one in each place content was left out.
func TestMarkersAreTruthful(t *testing.T) {
	t.Parallel()
	fsys := demoFS(t)
	main, _ := afero.ReadFile(fsys, "/demo/main.md")
	text := string(main)
	notes := "## Notes\n" + strings.Repeat("- a long standing note that keeps going on and on\n", 300) + "\n"
	later := "\n## Later\n" + strings.Repeat("- something for after the hand-off, at some length\n", 300)
	handoff := strings.Repeat("open_thread: a long hand-off line that the block carries whole\n", 400)
	text = strings.Replace(text, "## HANDOFF\n", notes+"## HANDOFF\n"+handoff, 1) + later
	afero.WriteFile(fsys, "/demo/main.md", []byte(text), 0o644)

	ctx, _ := build(t, fsys, tiers.DefaultConfig(), encoder(t))
	m := ctx.Phases[0].Files[0]
	if m.ShownTokens <= 2000 || !m.Truncated {
		t.Fatalf("main.md shown %d tokens; the test needs it over its budget", m.ShownTokens)
	}
	if strings.Contains(m.Content, "cut to fit") {
		t.Errorf("a marker claims main.md was cut to fit while %d tokens are shown:\n%s", m.ShownTokens, m.Content)
	}
	const over = "[wake: main.md cut, but still over its 2,000-token budget (the HANDOFF section is never cut): "
	if n := strings.Count(m.Content, over); n != 2 {
		t.Errorf("%d markers, want one above and one below the HANDOFF block:\n%s", n, m.Content)
	}
	h := strings.Index(m.Content, "## HANDOFF")
	if h < 0 || !strings.Contains(m.Content[:h], over) || !strings.Contains(m.Content[h:], over) {
		t.Errorf("markers not on both sides of the HANDOFF block")
	}
	if strings.Contains(m.Content, "something for after") || strings.Contains(m.Content, "a long standing note") {
		t.Errorf("dropped content shown")
	}
}
