package store

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/tiers"
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

// TestRememberNumbersPastAnArchiveEditedByHand: the record of the
// archive's last number holds only while the archive is as it was read;
// an entry added to it by hand, even in the same second and at the same
// size, has the next number go past it; a damaged record is ignored.
func TestRememberNumbersPastAnArchiveEditedByHand(t *testing.T) {
	t.Parallel()
	s, _ := newHandoffStore(t, afero.NewMemMapFs())
	ctx := context.Background()
	for _, text := range []string{"one", "two"} {
		if _, err := s.Remember(ctx, NewReminder{Text: text}); err != nil {
			t.Fatal(err)
		}
	}
	for n := 1; n <= 2; n++ {
		if _, err := s.CloseReminder(ctx, n, "done"); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.Compact(ctx, false); err != nil {
		t.Fatal(err)
	}
	next := func(want int) {
		t.Helper()
		r, err := s.Remember(ctx, NewReminder{Text: "next"})
		if err != nil || r.N != want {
			t.Fatalf("got %d, %v; want %d", r.N, err, want)
		}
		if _, err := s.CloseReminder(ctx, r.N, "done"); err != nil {
			t.Fatal(err)
		}
	}
	next(3)
	next(4) // through the record
	data, err := afero.ReadFile(s.FS, s.Path(InboxArchive))
	if err != nil {
		t.Fatal(err)
	}
	edited := bytes.Replace(data, []byte("## 2 "), []byte("## 9 "), 1)
	if len(edited) != len(data) || bytes.Equal(edited, data) {
		t.Fatalf("archive:\n%s", data)
	}
	if err := afero.WriteFile(s.FS, s.Path(InboxArchive), edited, 0o644); err != nil {
		t.Fatal(err)
	}
	next(10)
	if err := afero.WriteFile(s.FS, s.Path(tiers.StateDir+"/"+InboxArchiveLastFile), []byte("damaged"), 0o644); err != nil {
		t.Fatal(err)
	}
	next(11)
}
