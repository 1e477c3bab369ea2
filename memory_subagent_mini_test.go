package wake_test

import (
	"context"
	"strings"
	"testing"

	"github.com/wakeproto/wake"
	"github.com/wakeproto/wake/capsule"
)

// TestSubagentStartMini: an Explore agent (mini by default) and a type
// named in [capsule] mini_agents get the capsule's miniature — the
// mission, the pending actions and the decisions bearing on them, within
// mini_tokens counted exactly — and the registry says so; another type
// gets the whole capsule, the same one.
func TestSubagentStartMini(t *testing.T) {
	now := capsuleClock
	fsys, m, _ := capsuleRoot(t, "\n[capsule]\nmini_agents = [\"Explore\", \"quick\"]\nmini_tokens = 150\n", &now)
	ctx := context.Background()
	whole, err := m.SubagentStart(ctx, wake.SubagentStartInput{Client: "claude", AgentID: "g1", AgentType: "general-purpose"})
	if err != nil {
		t.Fatal(err)
	}
	if whole.Mini || !strings.Contains(whole.Text, "### "+capsule.KnowledgeBase) {
		t.Fatalf("general-purpose got the mini capsule:\n%s", whole.Text)
	}
	for i, typ := range []string{"Explore", "Quick"} {
		mini, err := m.SubagentStart(ctx, wake.SubagentStartInput{Client: "claude", AgentID: "m" + typ, AgentType: typ})
		if err != nil {
			t.Fatal(err)
		}
		if !mini.Mini || mini.Tokens == 0 || mini.Tokens > 150 || mini.Capsule.ID != whole.Capsule.ID {
			t.Fatalf("%s: mini %v, %d tokens, capsule %s (whole %s)", typ, mini.Mini, mini.Tokens, mini.Capsule.ID, whole.Capsule.ID)
		}
		for _, want := range []string{"### " + capsule.MissionSnapshot, "### " + capsule.PendingActions, "miniature"} {
			if !strings.Contains(mini.Text, want) {
				t.Errorf("%s: the mini capsule lacks %q:\n%s", typ, want, mini.Text)
			}
		}
		for _, not := range []string{capsule.KnowledgeBase, capsule.Risks, capsule.ActiveWorkstreams, capsule.TranscriptHighlights, capsule.ExploratoryThreads} {
			if strings.Contains(mini.Text, "### "+not) {
				t.Errorf("%s: the mini capsule has the section %s:\n%s", typ, not, mini.Text)
			}
		}
		if len(mini.Text) >= len(whole.Text) {
			t.Errorf("%s: the mini capsule is %d bytes, the whole %d", typ, len(mini.Text), len(whole.Text))
		}
		rs := subagents(t, fsys)
		if r := rs[len(rs)-1]; !r.Mini || r.Tokens != mini.Tokens || r.AgentType != typ || i == 0 && rs[0].Mini {
			t.Errorf("registry %+v", rs)
		}
	}
}
