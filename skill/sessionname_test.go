package skill

import (
	"testing"
	"time"

	"github.com/wakeproto/wake/cold"
)

// TestSessionNameWithWriter: a record's time and "-N" are read from its
// name with or without the writer id.
func TestSessionNameWithWriter(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 11, 22, 3, 24, 20, 0, time.UTC)
	for name, n := range map[string]int{
		"cold/sessions/2026-11-22T03-24-20Z.md":          1,
		"cold/sessions/2026-11-22T03-24-20Z-2.md":        2,
		"cold/sessions/2026-11-22T03-24-20Z-k3f9qa.md":   1,
		"cold/sessions/2026-11-22T03-24-20Z-k3f9qa-3.md": 3,
	} {
		se := newSessionEntry(name, &cold.Entry{})
		if !se.at.Equal(at) || se.n != n {
			t.Errorf("%s: at %v, n %d; want %v, %d", name, se.at, se.n, at, n)
		}
	}
}
