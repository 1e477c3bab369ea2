package capsule

import (
	"strings"
	"testing"
)

func miniSources() Sources {
	return Sources{
		Handoff: Handoff{Summary: "the loader half done", Next: "Finish the config loader"},
		Decisions: []Decision{
			{Date: "2026-01-01", What: "Use TOML for the config files", Why: "comments", Ref: "warm/decisions.md#1"},
			{Date: "2026-01-02", What: "Indent with tabs", Why: "gofmt", Ref: "warm/decisions.md#2"},
			{Date: "2026-01-03", What: "Ship on Fridays", Why: "habit", Contested: true, Objection: "risky", Ref: "warm/decisions.md#3"},
		},
		Tasks:     []Task{{Text: "Parse the TOML config loader's tables"}, {Text: "Wait for the schema", Blocked: true}},
		Questions: []string{"Is YAML still read anywhere?"},
		Threads:   []string{"the long thread about nothing in particular"},
		Files:     []string{"loader.go (modified, uncommitted)"},
	}
}

// TestMiniKeepsMissionActionsAndBearingDecisions: the mini capsule holds
// the mission, the pending actions and the decisions that bear on them
// (the TOML one, by a shared word; the contested one), not the others nor
// any other section, within its budget counted exactly.
func TestMiniKeepsMissionActionsAndBearingDecisions(t *testing.T) {
	o := opts(t, 1200)
	o.Front.PrimaryObjective = "Finish the config loader"
	full := Build(miniSources(), o).Capsule
	mb := Mini(full, 300, o.Counter, "cold/capsules/main/x.md")
	if len(mb.Capsule.Sections) != len(MiniOutline) {
		t.Fatalf("sections %+v, want %v", mb.Capsule.Sections, MiniOutline)
	}
	var body strings.Builder
	for i, s := range mb.Capsule.Sections {
		if i > 0 {
			body.WriteString("\n")
		}
		body.WriteString(RenderSection(s))
	}
	text := body.String()
	if got := o.Counter.Count(text); got != mb.Tokens || got > 300 {
		t.Errorf("tokens %d, counted %d, budget 300", mb.Tokens, got)
	}
	for _, want := range []string{"Finish the config loader", "Use TOML for the config files", "Ship on Fridays", "Parse the TOML config", "**Blocked:** Wait for the schema"} {
		if !strings.Contains(text, want) {
			t.Errorf("the mini capsule lacks %q:\n%s", want, text)
		}
	}
	for _, not := range []string{"Indent with tabs", "YAML", "long thread", "loader.go"} {
		if strings.Contains(text, not) {
			t.Errorf("the mini capsule holds %q:\n%s", not, text)
		}
	}
	if mb.Unrelated != 1 {
		t.Errorf("unrelated decisions %d, want 1", mb.Unrelated)
	}
	// A tight budget cuts the decisions first and keeps the objective.
	tight := Mini(full, 60, o.Counter, "x")
	if d := tight.Capsule.Section(KeyDecisions); d != "" && tight.Capsule.Section(PendingActions) == "" {
		t.Errorf("a tight budget cut actions before decisions: %+v", tight.Capsule.Sections)
	}
	if !strings.Contains(tight.Capsule.Section(MissionSnapshot), "Finish the config loader") || len(tight.Cuts) == 0 {
		t.Errorf("a tight budget: %+v, cuts %d", tight.Capsule.Sections, len(tight.Cuts))
	}
}
