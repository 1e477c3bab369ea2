package store

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/wakeproto/wake/tiers"
)

// TestWriteCapsuleSurvivesEveryFault fails each mutating operation of a
// capsule's write in turn (the capsule, the inbox, the ledger line): the
// command either succeeds whole (the capsule there, its reminder consumed,
// one ledger line) or leaves nothing (no capsule, the inbox as it was, no
// ledger line), unless the ledger line itself is on disk.
func TestWriteCapsuleSurvivesEveryFault(t *testing.T) {
	t.Parallel()
	const rel = "cold/capsules/main/20261122T032420Z.md"
	const id = "main/20261122T032420Z"
	data := []byte("---\nbranch: main\n---\n# Mission Snapshot\n")
	write := func(s *Store) error {
		e := Entry{At: faultAt, Op: "capsule", Paths: []string{rel, tiers.InboxPath}, ChangeSummary: "capsule " + id}
		return s.WriteCapsuleLocked(rel, data, []int{1}, id, faultAt, e)
	}
	count := &faultFs{Fs: inboxRoot(t, inboxText)}
	if err := write(storeOn(count, faultAt)); err != nil {
		t.Fatal(err)
	}
	for n := 1; n <= count.n; n++ {
		t.Run(count.ops[n-1], func(t *testing.T) {
			fs := inboxRoot(t, inboxText)
			err := write(storeOn(&faultFs{Fs: fs, failAt: n}, faultAt))
			if err != nil && !errors.Is(err, errFault) {
				t.Fatalf("err = %v, want the injected fault", err)
			}
			s := storeOn(fs, faultAt)
			inbox := hoRead(t, s, tiers.InboxPath)
			_, cerr := fs.Stat(s.Path(rel))
			capsule := cerr == nil
			if cerr != nil && !errors.Is(cerr, os.ErrNotExist) {
				t.Fatal(cerr)
			}
			lines := countOps(t, s, "capsule")
			stands := err == nil || errors.As(err, new(*CapsuleWrittenError))
			switch {
			case stands && (!capsule || inbox == inboxText || lines != 1):
				t.Fatalf("%v: capsule there %v, inbox consumed %v, %d ledger lines", err, capsule, inbox != inboxText, lines)
			case !stands && (capsule || inbox != inboxText || lines != 0):
				t.Fatalf("failed (%v), but the capsule is there (%v), the inbox changed (%v) or %d ledger lines", err, capsule, inbox != inboxText, lines)
			}
		})
	}
}

// TestCapsuleKilledAfterItsInboxSettledByTheNextWriter: a capsule killed
// after its inbox was written and before it was put in place leaves its
// creation record; the next writer to take the lock (a reminder) settles
// it before it rewrites the inbox, so the capsule is put in place with
// its line and its reminder stays consumed by a capsule that is there
// (rewritten first, the inbox would no longer be the one the record
// names, and the capsule be rolled back under a consumed reminder).
func TestCapsuleKilledAfterItsInboxSettledByTheNextWriter(t *testing.T) {
	t.Parallel()
	const rel = "cold/capsules/main/20261122T032420Z.md"
	const id = "main/20261122T032420Z"
	fs := inboxRoot(t, inboxText)
	s := storeOn(fs, faultAt)
	_, text, err := s.consumedInbox([]int{1}, id, faultAt)
	if err != nil {
		t.Fatal(err)
	}
	e := Entry{At: faultAt, Op: "capsule", Paths: []string{rel, tiers.InboxPath}, ChangeSummary: "capsule " + id}
	if _, err := s.beginCreate(NewFile{Path: rel, Data: []byte("# Mission Snapshot\n"), Entry: e}, text, true); err != nil {
		t.Fatal(err)
	}
	if err := s.Write(tiers.InboxPath, []byte(text)); err != nil {
		t.Fatal(err)
	}
	// Killed here: the capsule at its temporary name only.
	if _, err := s.Remember(context.Background(), NewReminder{Text: "order flour"}); err != nil {
		t.Fatal(err)
	}
	if _, err := fs.Stat(s.Path(rel)); err != nil {
		t.Errorf("the capsule was not put in place: %v", err)
	}
	inbox := hoRead(t, s, tiers.InboxPath)
	if !strings.Contains(inbox, "- consumed: "+id) || !strings.Contains(inbox, "order flour") {
		t.Errorf("inbox:\n%s", inbox)
	}
	if n := countOps(t, s, "capsule"); n != 1 {
		t.Errorf("%d capsule lines, want 1", n)
	}
	if createsPending(fs, s.Root) {
		t.Error("the creation record is left")
	}
}
