package wake

import "testing"

// TestKnownLine: a capsule's line is left out for a subagent whose boot
// context says it already, whatever its list marker or bold label; a
// short line, or one the context does not hold, stays.
func TestKnownLine(t *testing.T) {
	known := "## HANDOFF\nnext_priority: Ship the end-to-end test\nsession_summary: Wired wake into Claude Code\n- Do not deploy the bakery app on Fridays\n"
	for l, want := range map[string]bool{
		"- **Objective:** Ship the end-to-end test":                                   true,
		"- **Status** (handed off 2026-11-28T13:50:20Z): Wired wake into Claude Code": true,
		"- [ ] Ship the end-to-end test":                                              true,
		"- 2026-11-28 13:50:22Z · user: hand the invoice count to a subagent":         false,
		"- None.":                            false,
		"Ship the end":                       false, // too short to tell
		"- **Objective:** Ship it.":          false,
		"- deploy the bakery app on Fridays": false, // words of a line that says otherwise
	} {
		if got := knownLine(l, knownFacts(known)); got != want {
			t.Errorf("knownLine(%q) = %v, want %v", l, got, want)
		}
	}
	// The HANDOFF view leaves the summary and next priority to the
	// announcement: its sentences are facts too.
	announced := knownFacts("Resumed. Last session: Wired wake into Claude Code. Current focus: Ship the end-to-end test.\n\nsession_summary: as announced\n")
	for _, l := range []string{"- **Objective:** Ship the end-to-end test", "- **Status** (handed off 2026-11-28T13:50:20Z): Wired wake into Claude Code"} {
		if !knownLine(l, announced) {
			t.Errorf("knownLine(%q) with the announcement = false", l)
		}
	}
	if knownLine("- **Objective:** Ship the end-to-end test", nil) {
		t.Error("with no boot context, a line is known")
	}
}
