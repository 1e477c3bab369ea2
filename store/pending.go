package store

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/tiers"
)

// DecisionsPending is where a write of the decision log in progress keeps
// its record, inside the state directory. The log and wake's snapshot of it
// are two files, replaced one after the other; a crash between the two
// renames would leave a snapshot that no longer matches the log, and the
// coherence check would blame the user for an edit wake made. The record,
// written before the log, lets the next wake command finish the pair or
// undo it.
const DecisionsPending = "decisions.pending.json"

const pendingVersion = 1

// pendingDecisions is the record of one decision-log write.
type pendingDecisions struct {
	Version int `json:"version"`
	// Log is the SHA-256 (hex) of the new warm/decisions.md: the log
	// holding exactly these bytes means it was written.
	Log string `json:"log_sha256"`
	// Snapshot is the new .state/decisions.last.md when it differs from
	// the new log (entries edited by hand are kept in it); nil when it is
	// the log itself.
	Snapshot *string `json:"snapshot,omitempty"`
	// Entry is the ledger line of the command that made the write; nil
	// for the decisions a hand-off appends, whose journal holds its line.
	// The ledger is appended before the record is removed, so a change to
	// the log is never left without its line: recovery appends it when
	// the command did not get to.
	Entry *Entry `json:"ledger,omitempty"`
	// Identify is the ledger line that records the IDs the write gave
	// entries that had none, appended before Entry; nil when it gave none.
	Identify *Entry `json:"identify,omitempty"`
}

// DecisionsInterruptedError is a write of the decision log that changed
// warm/decisions.md and then failed before it finished (the snapshot or
// the ledger line). The next wake command finishes it.
type DecisionsInterruptedError struct {
	Err error
}

func (e *DecisionsInterruptedError) Error() string {
	return fmt.Sprintf("%s was changed but the write was interrupted: %v; the next wake command finishes it", tiers.DecisionsPath, e.Err)
}

func (e *DecisionsInterruptedError) Unwrap() error { return e.Err }

func (s *Store) pendingPath() string { return filepath.Join(s.Root, tiers.StateDir, DecisionsPending) }

// writeDecisions replaces warm/decisions.md with data and wake's snapshot
// with snapshot, and appends identify, then e, to the ledger, each when it
// is not nil. The record goes first, so that a failure at any point leaves
// either the old log with the record to discard, or the new log with the
// record to finish.
func (s *Store) writeDecisions(data, snapshot []byte, identify, e *Entry) error {
	if err := s.CheckWritable(tiers.DecisionsPath, tiers.StateDir+"/"+DecisionsPending, tiers.StateDir+"/"+DecisionsSnapshot); err != nil {
		return err
	}
	for _, l := range []*Entry{identify, e} {
		if l == nil {
			continue
		}
		if err := l.Validate(); err != nil {
			return err
		}
		// Found after the log is written, an unwritable ledger would leave
		// a change without its line, and a retry would make it twice.
		if err := CheckLedgerWritable(s.FS, s.Root); err != nil {
			return err
		}
	}
	p := pendingDecisions{Version: pendingVersion, Log: digest(data), Entry: e, Identify: identify}
	if !bytes.Equal(snapshot, data) {
		snap := string(snapshot)
		p.Snapshot = &snap
	}
	rec, err := json.Marshal(p)
	if err != nil {
		return err
	}
	if err := WriteState(s.FS, s.Root, DecisionsPending, append(rec, '\n')); err != nil {
		return err
	}
	// Written while the pending record stands, so that a crash in its
	// write has the recovery remove what it left.
	saveWrittenIDs(s.FS, s.Root, s.writtenIDs)
	s.writtenIDs = nil
	if err := s.Write(tiers.DecisionsPath, data); err != nil {
		return s.abandonDecisions(p, err)
	}
	if err := s.finishDecisions(p, data, false); err != nil {
		return &DecisionsInterruptedError{Err: err}
	}
	return nil
}

// abandonDecisions handles a failed write of the log itself. A rename that
// landed before a failed directory sync leaves the new log: that write is
// finished by the next command. Otherwise the log is as it was, and the
// record is removed; should that fail too, the next command removes it.
func (s *Store) abandonDecisions(p pendingDecisions, err error) error {
	cur, rerr := s.readOptional(tiers.DecisionsPath)
	if rerr == nil && digest(cur) == p.Log {
		return &DecisionsInterruptedError{Err: err}
	}
	s.FS.Remove(s.pendingPath())
	return err
}

// finishDecisions writes the snapshot and the ledger line of a record
// whose log is written, then removes the record. In recovery the ledger
// line may be there already and is appended only when it is not.
func (s *Store) finishDecisions(p pendingDecisions, log []byte, recovering bool) error {
	snapshot := log
	if p.Snapshot != nil {
		snapshot = []byte(*p.Snapshot)
	}
	if err := WriteState(s.FS, s.Root, DecisionsSnapshot, snapshot); err != nil {
		return err
	}
	for _, l := range []*Entry{p.Identify, p.Entry} {
		if l == nil {
			continue
		}
		var err error
		if recovering {
			_, err = s.ensureLedger(*l)
		} else {
			err = s.appendLedger(*l)
		}
		if err != nil {
			return err
		}
	}
	if err := s.FS.Remove(s.pendingPath()); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("removing %s/%s: %w", tiers.StateDir, DecisionsPending, err)
	}
	SyncDir(s.FS, filepath.Dir(s.pendingPath()))
	return nil
}

// decisionsPending reports whether a decision-log write left its record.
func decisionsPending(fsys afero.Fs, root string) (bool, error) {
	_, err := fsys.Stat(filepath.Join(root, tiers.StateDir, DecisionsPending))
	switch {
	case errors.Is(err, os.ErrNotExist):
		return false, nil
	case err != nil:
		return false, fmt.Errorf("checking %s/%s: %w", tiers.StateDir, DecisionsPending, err)
	}
	return true, nil
}

// settleDecisionsLocked finishes an interrupted decision-log write whose
// new log is in place, or discards its record when the log is not the new
// one (the write never reached it). It reports what it did; ok is false
// when there was nothing to do.
func (s *Store) settleDecisionsLocked() (r Recovery, ok bool, err error) {
	data, err := s.readOptional(tiers.StateDir + "/" + DecisionsPending)
	if err != nil || data == nil {
		return Recovery{}, false, err
	}
	r = Recovery{ID: DecisionsPending, Log: true}
	var p pendingDecisions
	if err := json.Unmarshal(data, &p); err != nil || p.Version != pendingVersion || p.Log == "" {
		// A torn record was never acted on: the log is written only once
		// the record is complete on disk.
		r.RolledBack = true
		return r, true, s.removePending()
	}
	if p.Entry != nil {
		r.At, r.Summary = p.Entry.At, sealed(s.FS, s.Root, *p.Entry).ChangeSummary
	}
	cur, err := s.readOptional(tiers.DecisionsPath)
	if err != nil {
		return r, true, err
	}
	if digest(cur) != p.Log {
		r.RolledBack = true
		return r, true, s.removePending()
	}
	r.Steps = []string{"wrote " + tiers.StateDir + "/" + DecisionsSnapshot}
	if p.Identify != nil {
		r.Steps = append(r.Steps, "made sure of the ledger line of the ids it gave")
	}
	if p.Entry != nil {
		r.Steps = append(r.Steps, "made sure of its ledger line")
	}
	return r, true, s.finishDecisions(p, cur, true)
}

func (s *Store) removePending() error {
	if err := s.FS.Remove(s.pendingPath()); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("removing %s/%s: %w", tiers.StateDir, DecisionsPending, err)
	}
	return nil
}

// decisionsLocked runs fn under the root's lock, after settling a decision
// write a crash interrupted, so fn reads a log and a snapshot that agree.
func (s *Store) decisionsLocked(ctx context.Context, fn func() error) error {
	unlock, err := s.lockForWrite(ctx)
	if err != nil {
		return err
	}
	defer unlock()
	if _, _, err := s.settleDecisionsLocked(); err != nil {
		return fmt.Errorf("finishing an interrupted write of %s: %w", tiers.DecisionsPath, err)
	}
	// Under the exclusive lock no other writer of these files runs: any
	// temporary file of theirs was left by a crash.
	if err := s.removeTemps(); err != nil {
		return err
	}
	return fn()
}
