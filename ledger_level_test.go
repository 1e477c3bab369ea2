package wake_test

import (
	"strings"
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake"
	"github.com/wakeproto/wake/store"
)

// TestLedgerRecordedLevel proves the level an entry recorded for its
// documents holds it back, or masks it, even when the document is gone
// and its head can no longer say so; a stricter level read now wins
// over a laxer one recorded.
func TestLedgerRecordedLevel(t *testing.T) {
	t.Parallel()
	fsys := afero.NewMemMapFs()
	now := time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)
	afero.WriteFile(fsys, "/r/cold/keys.md", []byte("---\nsensitivity: secret\n---\nsk-live-1\n"), 0o644)
	for _, e := range []store.Entry{
		{At: now, Op: "edit", Paths: []string{"cold/gone-keys.md"}, ChangeSummary: "deleted by hand", Sensitivity: "secret"},
		{At: now, Op: "edit", Paths: []string{"cold/gone-pay.md"}, ChangeSummary: "deleted by hand: 3 lines", Sensitivity: "confidential"},
		{At: now, Op: "edit", Paths: []string{"cold/keys.md"}, ChangeSummary: "edited by hand", Sensitivity: "confidential"},
		{At: now, Op: "edit", Paths: []string{"cold/notes.md"}, ChangeSummary: "added by hand: 2 lines"},
	} {
		if err := store.AppendLedger(fsys, "/r", e); err != nil {
			t.Fatal(err)
		}
	}
	l, err := wake.ReadLedger("/r", wake.Options{FS: fsys, Now: func() time.Time { return now }}, wake.LogFilter{})
	if err != nil {
		t.Fatal(err)
	}
	var shown []string
	for _, e := range l.Entries {
		shown = append(shown, strings.Join(e.Paths, ",")+": "+e.ChangeSummary)
	}
	got := strings.Join(shown, "\n")
	want := "cold/notes.md: added by hand: 2 lines\n(confidential): changed a confidential document"
	if l.HeldBack != 2 || got != want {
		t.Errorf("held back %d, shown:\n%s\nwant 2 held back and:\n%s", l.HeldBack, got, want)
	}
}
