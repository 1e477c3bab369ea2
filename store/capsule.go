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
// capsule that is not there. A kill is settled by the next wake command
// through the creation record written first (see [CreatesDir]): the
// capsule is written to its temporary name, then the inbox, then the
// capsule put in place, so a capsule in place, or an inbox holding the
// record's text beside a whole temporary capsule, is finished with its
// ledger line, and anything less rolled back. The caller holds the root's
// lock.
func (s *Store) WriteCapsuleLocked(rel string, data []byte, ns []int, id string, at time.Time, e Entry) error {
	if err := s.CheckWritable(rel); err != nil {
		return err
	}
	if e.At.IsZero() {
		e.At = s.Now()
	}
	e.At = e.At.UTC().Truncate(time.Second) // as the ledger stores it, for recovery to find
	if err := e.Validate(); err != nil {
		return err
	}
	if err := CheckLedgerWritable(s.FS, s.Root); err != nil {
		return err
	}
	var f inboxFile
	text := ""
	if len(ns) > 0 {
		var err error
		if f, text, err = s.consumedInbox(ns, id, at); err != nil {
			return err
		}
	}
	c, err := s.beginCreate(NewFile{Path: rel, Data: data, Entry: e}, text, len(ns) > 0)
	if err != nil {
		return err
	}
	if len(ns) > 0 {
		if err := s.Write(tiers.InboxPath, []byte(text)); err != nil {
			return c.abandon(s, s.undoInbox(f, err))
		}
	}
	if err := placeNew(s.FS, c.tmp, s.Path(rel), data, 0o644); err != nil {
		err = s.undoInboxIf(len(ns) > 0, f, err)
		if !errors.Is(err, fs.ErrExist) {
			// Made by this command (in place, where the file system has
			// no links) and left partial.
			err = s.unwriteCapsule(rel, err)
		}
		return c.abandon(s, err)
	}
	return s.finishCapsule(c, rel, ns, f, e)
}

// consumedInbox reads the inbox and returns it with its text once the
// reminders ns are marked consumed by the capsule id at at.
func (s *Store) consumedInbox(ns []int, id string, at time.Time) (inboxFile, string, error) {
	if err := oneLineTexts("capsule id", id); err != nil {
		return inboxFile{}, "", err
	}
	f, err := s.readInboxLocked(false)
	if err == nil {
		err = s.archiveFor(&f, ns)
	}
	if err != nil {
		return inboxFile{}, "", err
	}
	text, err := closeReminders(f, ns, tiers.InboxKeyConsumed, id, at)
	return f, text, err
}

// finishCapsule appends the capsule's ledger line and drops its creation
// record; when the line could not be written it undoes the capsule and
// the inbox, unless the line is there after all.
func (s *Store) finishCapsule(c creation, rel string, ns []int, f inboxFile, e Entry) error {
	from, serr := ledgerSize(s.FS, s.Root)
	err := s.appendLedger(e)
	if err == nil {
		if err := s.dropCreate(c.tmp, c.recRel); err != nil {
			// The change stands; the next command drops what is left.
			return &CapsuleWrittenError{Path: rel, Err: err}
		}
		return nil
	}
	if serr == nil {
		// The line may be there, its sync failed: then the change stands.
		if w, rerr := ledgerWrites(s.FS, s.Root, from); rerr == nil && w[path.Clean(rel)] > 0 {
			s.dropCreate(c.tmp, c.recRel)
			return &CapsuleWrittenError{Path: rel, Err: err}
		}
	}
	err = s.unwriteCapsule(rel, s.undoInboxIf(len(ns) > 0, f, err))
	return c.abandon(s, err)
}

// undoInboxIf is [Store.undoInbox] when the inbox was written.
func (s *Store) undoInboxIf(written bool, f inboxFile, err error) error {
	if !written {
		return err
	}
	return s.undoInbox(f, err)
}

// unwriteCapsule removes the capsule at rel, written by this command a
// moment ago, after err.
func (s *Store) unwriteCapsule(rel string, err error) error {
	if rerr := s.FS.Remove(s.Path(rel)); rerr != nil && !errors.Is(rerr, fs.ErrNotExist) {
		return fmt.Errorf("%w; and capsule %s, written before, could not be removed again: %v", err, rel, rerr)
	}
	return err
}
