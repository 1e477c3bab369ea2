package wake

import (
	"context"
	"errors"
	"fmt"

	"github.com/wakeproto/wake/cold"
	"github.com/wakeproto/wake/handoff"
)

// noteEdits records, at a session start, the changes made outside wake to
// the tier files and the cold documents since wake last saw them, as
// ledger entries (see [handoff.EditScan]); idx is the cold index the
// start's build went through, which knows the cold documents unchanged
// without opening them. The caller holds the root's shared lock, which
// unlock releases.
//
// Looking, and taking a first baseline, need only the shared lock: two
// starts at once write the same record. Appending entries needs the
// exclusive one, as every ledger line does, or two starts at once would
// record the same edit twice; so when there is something to record the
// shared lock is given up for the exclusive one, and the changed files
// are looked at again under it (another start may have recorded them in
// between). It returns the lock now held and its release, whether a lock
// is held at all, and whether entries were recorded.
func (m *Memory) noteEdits(ctx context.Context, idx *cold.Index, unlock func() error) (func() error, bool, bool) {
	sc := handoff.OpenEditScan(m.o.FS, m.root, m.o.Now())
	if err := m.lookForEdits(sc, idx); err != nil {
		m.warn(fmt.Sprintf("looking for edits made outside wake: %v", err))
	}
	entries, err := sc.Settle()
	if err != nil {
		m.warn(fmt.Sprintf("edits made outside wake were not recorded: %v", err))
		return unlock, true, false
	}
	if len(entries) == 0 {
		if _, err := sc.Commit(); err != nil {
			m.warn(fmt.Sprintf("saving wake's record of the memory files: %v", err))
		}
		return unlock, true, false
	}
	changed := sc.Changed()
	unlock()
	ex, err := m.o.Locker.Lock(ctx, m.root)
	if err != nil {
		m.warn(fmt.Sprintf("edits made outside wake were not recorded (%v); the next session start records them", err))
		shared, err := m.o.Locker.RLock(ctx, m.root)
		if err != nil {
			return func() error { return nil }, false, false
		}
		return shared, true, false
	}
	sc = handoff.OpenEditScan(m.o.FS, m.root, m.o.Now())
	for _, p := range changed {
		if o, err := handoff.ObservePath(m.o.FS, m.root, p); err == nil {
			sc.Look(o)
		}
	}
	n, err := sc.Commit()
	if err != nil {
		m.warn(fmt.Sprintf("recording edits made outside wake: %v", err))
	}
	return ex, true, n > 0
}

// noteEditsLocked records the edits made outside wake, as a session start
// does, for the caller holding the root's exclusive lock: the end of a
// hand-off, whose build saved the cold index with the session archived.
// Looking then spares the next start comparing every cold document with
// its record, which it would do for an index saved since its last look.
// It reports whether entries were recorded.
func (m *Memory) noteEditsLocked(idx *cold.Index) bool {
	sc := handoff.OpenEditScan(m.o.FS, m.root, m.o.Now())
	if err := m.lookForEdits(sc, idx); err != nil {
		m.warn(fmt.Sprintf("looking for edits made outside wake: %v", err))
	}
	n, err := sc.Commit()
	if err != nil {
		m.warn(fmt.Sprintf("recording edits made outside wake: %v", err))
	}
	return n > 0
}

// lookForEdits looks at every tier file, and at the cold documents as the
// build's scan of cold/ found them: through the cold index, which the
// build saved, so that a start where it learnt nothing new compares no
// cold document.
func (m *Memory) lookForEdits(sc *handoff.EditScan, idx *cold.Index) error {
	err := sc.LookAtTiers()
	if !idx.HasScan() {
		return err
	}
	return errors.Join(err, sc.LookAtCold(handoff.ColdLook{Index: idx.Sum(), Unchanged: idx.Unchanged(), Found: idx.Found}))
}
