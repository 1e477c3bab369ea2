package checks

import (
	"testing"

	"github.com/wakeproto/wake/tiers"
)

// TestAgainstRecent: a cold text's statements that contradict an active
// decision or a decision of the last session are found, with their lines;
// reversed decisions, code, long prose and agreeing lines are not.
func TestAgainstRecent(t *testing.T) {
	t.Parallel()
	log := tiers.ParseDecisions([]byte("[2026-02-01] DECISION: Use TOML for config BECAUSE: YAML broke\nSTATUS: active\n\n" +
		"[2026-02-02] DECISION: Use cgo BECAUSE: driver\nSTATUS: reversed\nREVERSED_BY: [2026-02-03] x\n"))
	r := Recent{Log: log, Session: []string{"Store money in cents because floats round badly"}}
	cold := "# Notes from March\n\n" +
		"- Use YAML for config.\n" + // line 3: against decision 1
		"- Do not use cgo\n" + // reversed: not in force
		"[2026-01-10] DECISION: Store money in floats BECAUSE: simpler\n" + // line 5: against the last session
		"```\nUse JSON for config\n```\n" + // code: not a statement
		"- Use TOML for config\n" + // agrees
		"We argued for a long time about whether to use YAML for config or something else entirely, and nobody could agree on what the accountant wanted to see in the end.\n"
	got := AgainstRecent(cold, r)
	if len(got) != 2 {
		t.Fatalf("found %+v, want 2", got)
	}
	if g := got[0]; g.Line != 3 || g.Text != "Use YAML for config" || g.With != "decision 1" || g.WithText != "Use TOML for config" || g.Why == "" {
		t.Errorf("first: %+v", g)
	}
	if g := got[1]; g.Line != 5 || g.Text != "Store money in floats" || g.With != "the last session" || g.WithText != "Store money in cents" {
		t.Errorf("second: %+v", g)
	}
	if got := AgainstRecent(cold, Recent{}); len(got) != 0 {
		t.Errorf("nothing in force, yet %+v", got)
	}
}

// TestAgainstRecentOtherWords: rule 3 holds for statements that name
// another choice for the decision's subject in other words than the
// decision's, deterministically; statements that agree, negate, or name
// something that is no choice are not flagged.
func TestAgainstRecentOtherWords(t *testing.T) {
	t.Parallel()
	log := tiers.ParseDecisions([]byte("[2026-02-01] DECISION: Use TOML for config BECAUSE: YAML broke\nSTATUS: active\n\n" +
		"[2026-02-02] DECISION: Store journal entries in SQLite BECAUSE: one file\nSTATUS: active\n"))
	cold := "# Notes from March\n\n" +
		"We use YAML for config.\n" + // line 3
		"Config is written in YAML.\n" + // line 4
		"- Journal entries live in Postgres\n" + // line 5
		"We no longer use YAML for config.\n" + // negated: agrees
		"Config moved from YAML to TOML.\n" + // names the decision's choice
		"Config is loaded in main.go\n" + // not a name
		"Ask Ben about the config\n" + // Ben is no choice
		"The config parser is fast\n" // names nothing
	got := AgainstRecent(cold, Recent{Log: log})
	var lines []int
	for _, g := range got {
		lines = append(lines, g.Line)
		if g.Why == "" || g.With == "" {
			t.Errorf("no reason: %+v", g)
		}
	}
	if len(lines) != 3 || lines[0] != 3 || lines[1] != 4 || lines[2] != 5 {
		t.Fatalf("flagged lines %v, want 3, 4 and 5: %+v", lines, got)
	}
	if got[1].With != "decision 1" || got[2].With != "decision 2" {
		t.Errorf("%+v", got)
	}
}
