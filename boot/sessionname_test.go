package boot

import "testing"

// TestNameNumber: the "-N" of a taken name is read with or without the
// writer id in the name, and a writer id is never read as one.
func TestNameNumber(t *testing.T) {
	t.Parallel()
	for name, want := range map[string]int{
		"cold/sessions/2026-11-22T03-24-20Z.md":          1,
		"cold/sessions/2026-11-22T03-24-20Z-3.md":        3,
		"cold/sessions/2026-11-22T03-24-20Z-k3f9qa.md":   1,
		"cold/sessions/2026-11-22T03-24-20Z-k3f9qa-4.md": 4,
		"cold/sessions/2026-11-22T03-24-20Z-abc234.md":   1,
	} {
		if got := nameNumber(name); got != want {
			t.Errorf("nameNumber(%q) = %d, want %d", name, got, want)
		}
	}
}
