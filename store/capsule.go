package store

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"time"

	"github.com/wakeproto/wake/tiers"
)

// MoveLocked renames the file src to dst (both relative to the root),
// creating dst's missing directories, and syncs both directories so that
// the rename survives a crash: for a caller that holds the root's lock
// and writes its own ledger line (`wake capsule prune`). A symlink on
// either path is refused, as [Store.Write] refuses it. It never replaces
// a file: the caller picks a dst that does not exist.
func (s *Store) MoveLocked(src, dst string) error {
	if _, err := MkdirAllIn(s.FS, s.Root, path.Dir(dst)); err != nil {
		return err
	}
	return s.move(src, dst)
}

// CapsuleWrittenError is a failure after a capsule, its reminders' closing
// and its ledger line were all written (the ledger's sync failed): the
// change stands.
type CapsuleWrittenError struct {
	Path string
	Err  error
}

func (e *CapsuleWrittenError) Error() string {
	return fmt.Sprintf("capsule %s was written and its ledger line too, but: %v", e.Path, e.Err)
}

func (e *CapsuleWrittenError) Unwrap() error { return e.Err }

// WriteCapsuleLocked writes the capsule data at rel, a path no file holds,
// marks the open reminders ns of the inbox consumed by the capsule id at
// at, and appends e, the ledger line naming both files, as one change: a
// failure before the ledger line is on disk removes the capsule again and
// puts the inbox back as it was, so that a failed `wake capsule` leaves
// neither a capsule the ledger does not tell nor reminders consumed by a
// capsule that is not there. The caller holds the root's lock.
func (s *Store) WriteCapsuleLocked(rel string, data []byte, ns []int, id string, at time.Time, e Entry) error {
	if err := s.CheckWritable(rel); err != nil {
		return err
	}
	if err := s.Write(rel, data); err != nil {
		return s.unwriteCapsule(rel, err)
	}
	var f inboxFile
	if len(ns) > 0 {
		if err := oneLineTexts("capsule id", id); err != nil {
			return s.unwriteCapsule(rel, err)
		}
		var err error
		if f, err = s.readInboxLocked(false); err == nil {
			err = s.archiveFor(&f, ns)
		}
		if err != nil {
			return s.unwriteCapsule(rel, err)
		}
		text, err := closeReminders(f, ns, tiers.InboxKeyConsumed, id, at)
		if err != nil {
			return s.unwriteCapsule(rel, err)
		}
		if err := s.Write(tiers.InboxPath, []byte(text)); err != nil {
			return s.unwriteCapsule(rel, s.undoInbox(f, err))
		}
	}
	if e.At.IsZero() {
		e.At = s.Now()
	}
	from, serr := ledgerSize(s.FS, s.Root)
	err := s.appendLedger(e)
	if err == nil {
		return nil
	}
	if serr == nil {
		// The line may be there, its sync failed: then the change stands.
		if w, rerr := ledgerWrites(s.FS, s.Root, from); rerr == nil && w[path.Clean(rel)] > 0 {
			return &CapsuleWrittenError{Path: rel, Err: err}
		}
	}
	if len(ns) > 0 {
		err = s.undoInbox(f, err)
	}
	return s.unwriteCapsule(rel, err)
}

// unwriteCapsule removes the capsule at rel, written by this command a
// moment ago, after err.
func (s *Store) unwriteCapsule(rel string, err error) error {
	if rerr := s.FS.Remove(s.Path(rel)); rerr != nil && !errors.Is(rerr, fs.ErrNotExist) {
		return fmt.Errorf("%w; and capsule %s, written before, could not be removed again: %v", err, rel, rerr)
	}
	return err
}
