package cold

import "testing"

// TestSessionRecordNames: a record named with its writer id, as wake
// names them now, and one named by time alone, as older wakes did, are
// both records grouped by month and ordered newest first.
func TestSessionRecordNames(t *testing.T) {
	t.Parallel()
	for _, name := range []string{
		"cold/sessions/2026-11-22T03-24-20Z.md",
		"cold/sessions/2026-11-22T03-24-20Z-3.md",
		"cold/sessions/2026-11-22T03-24-20Z-k3f9qa.md",
		"cold/sessions/2026-11-22T03-24-20Z-k3f9qa-2.md",
	} {
		if got := sessionMonth(name); got != "2026-11" {
			t.Errorf("sessionMonth(%q) = %q", name, got)
		}
	}
	if got := sessionMonth("cold/sessions/2026-11-22T03-24-20Z-K3F9QA.md"); got != "" {
		t.Errorf("a name that is no record's has month %q", got)
	}
	for _, tc := range []struct{ newer, older string }{
		{"2026-11-22T03-24-21Z-aaaaaa.md", "2026-11-22T03-24-20Z-zzzzzz.md"},
		{"2026-11-22T03-24-20Z-k3f9qa-2.md", "2026-11-22T03-24-20Z-k3f9qa.md"},
		{"2026-11-22T03-24-20Z-k3f9qa.md", "2026-11-22T03-24-19Z.md"},
	} {
		if c, ok := compareRecords(tc.newer, tc.older); !ok || c >= 0 {
			t.Errorf("compareRecords(%q, %q) = %d, %v: want the first first", tc.newer, tc.older, c, ok)
		}
	}
}
