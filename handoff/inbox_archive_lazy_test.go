package handoff

import (
	"context"
	"errors"
	"testing"

	"github.com/spf13/afero"
)

// TestCloseReadsTheArchiveOnlyForANumberNotInTheInbox: closing a
// reminder of the inbox does not read the archive (here one wake cannot
// read), so its cost is the inbox's; a number the inbox does not hold is
// looked up there, and numbering still goes on past the archive.
func TestCloseReadsTheArchiveOnlyForANumberNotInTheInbox(t *testing.T) {
	t.Parallel()
	s, _ := newHandoffStore(t, afero.NewMemMapFs())
	ctx := context.Background()
	for _, text := range []string{"one", "two"} {
		if _, err := s.Remember(ctx, NewReminder{Text: text}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.CloseReminder(ctx, 1, "done"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Compact(ctx, false); err != nil {
		t.Fatal(err)
	}
	// Reminder 1 is archived; 2 is open in the inbox.
	var closed *ReminderClosedError
	if _, err := s.CloseReminder(ctx, 1, "again"); !errors.As(err, &closed) || !closed.Archived {
		t.Fatalf("closing the archived reminder: %v", err)
	}
	if r, err := s.Remember(ctx, NewReminder{Text: "three"}); err != nil || r.N != 3 {
		t.Fatalf("numbering after the archive: %+v, %v", r, err)
	}
	// An archive wake cannot read stops what needs it, not the rest.
	if err := s.FS.Remove(s.Path(InboxArchive)); err != nil {
		t.Fatal(err)
	}
	if err := s.FS.MkdirAll(s.Path(InboxArchive), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := s.CloseReminder(ctx, 2, "shipped"); err != nil {
		t.Fatalf("closing a reminder of the inbox read the archive: %v", err)
	}
	if _, err := s.CloseReminder(ctx, 1, "again"); err == nil {
		t.Fatal("closing a number not in the inbox did not look in the archive")
	}
	if _, err := s.Remember(ctx, NewReminder{Text: "four"}); err == nil {
		t.Fatal("numbering did not look in the archive")
	}
}
