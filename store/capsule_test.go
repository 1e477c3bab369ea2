package store

import (
	"errors"
	"os"
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
