package store

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/tiers"
)

// Store is the one place wake writes a memory root through: every mutation
// runs under the root's lock, writes atomically and ends with one ledger
// line.
type Store struct {
	FS     afero.Fs
	Root   string
	Now    func() time.Time
	Locker Locker
	// Guard, when set, refuses new decisions that contradict decisions in
	// force (see [ConflictError]).
	Guard Guard
	// writtenIDs is the record of [WrittenIDsFile] the last read of the
	// decision log under the lock made, for its write to keep (see
	// [Store.writeDecisions]); nil when there is none to write.
	writtenIDs *writtenIDs
	// Writer is the writer id the root is given when it has none yet
	// (see [WriterID]); empty means a random one. A root that has one
	// keeps it. Tests set it to make names and ledger lines repeatable.
	Writer string
	// Session is the client's id of the session the process runs in
	// (from its environment; "" when none names one): a decision's
	// ledger line names it, so that the session's hooks count the
	// decision as its work however the transcript lags ([Entry.Session]).
	Session string
}

// Path returns the file-system path of rel under the root.
func (s *Store) Path(rel string) string { return filepath.Join(s.Root, filepath.FromSlash(rel)) }

// Write atomically replaces rel under the root with data, unless rel holds
// git conflict markers (see [MarkedError]). A symlink on
// the way, the file's own or a directory's, is refused (see
// [UnsafePathError]): wake writes its memory, never what a link points at.
// An edit by hand the file holds is recorded first (see [EditScan]).
func (s *Store) Write(rel string, data []byte) error {
	if err := s.refuseMarked(rel); err != nil {
		return err
	}
	s.noteHandEdit(rel)
	return WriteFileIn(s.FS, s.Root, rel, data, 0o644)
}

// CheckWritable returns an error naming the component at fault when rel
// under the root could not be written by [Store.Write]: for the checks a
// mutation makes before its commit point.
func (s *Store) CheckWritable(rels ...string) error {
	for _, rel := range rels {
		if err := CheckWritable(s.FS, s.Root, rel); err != nil {
			return err
		}
	}
	return nil
}

// Mutate runs fn under the root's lock and appends the ledger entry it
// returns, stamped with the current time. When fn fails nothing is
// appended.
func (s *Store) Mutate(ctx context.Context, fn func() (Entry, error)) error {
	return s.MutateThen(ctx, fn, nil)
}

// MutateThen is [Store.Mutate] followed by then, still under the lock, once
// the ledger line is on disk: for a mutation that keeps a journal until its
// ledger line is written (the hand-off). then may be nil.
func (s *Store) MutateThen(ctx context.Context, fn func() (Entry, error), then func() error) error {
	unlock, err := s.lockForWrite(ctx)
	if err != nil {
		return err
	}
	defer unlock()
	e, err := fn()
	if err != nil {
		return err
	}
	if e.At.IsZero() {
		e.At = s.Now()
	}
	if err := s.appendLedger(e); err != nil {
		return err
	}
	if then == nil {
		return nil
	}
	return then()
}

// lockForWrite takes the root's lock for a mutation. Every mutation ends
// with a ledger line: a ledger whose end a merge left marked is refused
// here, before anything is written.
func (s *Store) lockForWrite(ctx context.Context) (func() error, error) {
	unlock, err := s.Locker.Lock(ctx, s.Root)
	if err != nil {
		return nil, err
	}
	if err := s.refuseMarkedLedger(); err != nil {
		unlock()
		return nil, err
	}
	// An inbox write or a creation a crash interrupted is settled before
	// any writer reads or rewrites the inbox: rewritten first, the inbox
	// would no longer be the one its record names, and the record dropped
	// with the reminder in the inbox and no line for it.
	if err := s.SettleLocked(); err != nil {
		unlock()
		return nil, err
	}
	return unlock, nil
}

// SettleLocked finishes or drops an interrupted inbox write (see
// [InboxPending]) and finishes or rolls back an interrupted creation (see
// [CreatesDir]: a capsule consuming reminders), for a writer that holds
// the root's lock, before it reads or rewrites the inbox: a creation's
// record that names the inbox's text is settled by that text, and a
// writer that changed the inbox first would have the capsule rolled back
// and its reminders left consumed. [Store.Mutate] and the capsule's own
// lock call it.
func (s *Store) SettleLocked() error {
	if _, _, err := s.settleInboxLocked(); err != nil {
		return fmt.Errorf("finishing an interrupted write of %s: %w", tiers.InboxPath, err)
	}
	if createsPending(s.FS, s.Root) {
		if _, err := s.settleCreatesLocked(); err != nil {
			return err
		}
	}
	return nil
}

// appendLedger is [AppendLedger] of an entry carrying the store's writer
// id.
func (s *Store) appendLedger(e Entry) error {
	if e.Writer == "" {
		w, err := s.WriterID()
		if err != nil {
			return err
		}
		e.Writer = w
	}
	return AppendLedger(s.FS, s.Root, e)
}
