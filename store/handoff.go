package store

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"slices"
	"time"

	"github.com/wakeproto/wake/tiers"
)

// Result says what a hand-off wrote and where the old summaries went.
type Result struct {
	ID      string    // the hand-off's journal name
	At      time.Time // the session's time: the summary's session, the block's updated
	Summary []byte    // the bytes written to recent/latest.md
	// Demoted is set when the old recent/latest.md became recent/previous.md.
	Demoted bool
	// Archived is where the old recent/previous.md went, "" when there was
	// none. ArchivedByModTime says it had no parseable session time, so its
	// modification time named it.
	Archived          string
	ArchivedByModTime bool
	// Record is the session's record in cold/sessions/, written whole once;
	// recent/latest.md is a copy of it. LatestRecord is where the old
	// recent/latest.md was copied, being no copy of a record yet (written
	// by an older wake, or edited by hand); "" when it was one.
	Record        string
	LatestRecord  string
	BlockAppended bool     // main.md had no HANDOFF block; one was added (after the identity)
	Decisions     int      // entries appended to warm/decisions.md
	Paths         []string // the files changed, as the ledger line lists them
	// Recovered lists interrupted hand-offs and decision-log writes
	// finished or rolled back first.
	Recovered []Recovery
}

// InterruptedError is a hand-off that failed after it began changing the
// root. Its journal stays in the state directory, and the next wake command
// (any of them) finishes it.
type InterruptedError struct {
	ID  string
	Err error
}

func (e *InterruptedError) Error() string {
	return fmt.Sprintf("hand-off %s was interrupted: %v; every summary is kept, and the next wake command finishes it", e.ID, e.Err)
}

func (e *InterruptedError) Unwrap() error { return e.Err }

// WriteSession ends a session (DESIGN section 2, Wake Protocol section 4),
// as package handoff asks once it has checked the input. Under
// the root's lock it first finishes any interrupted hand-off, then writes
// the session's record whole, once, in cold/sessions/ (DESIGN section 11),
// and rebuilds the views of the newest records: recent/latest.md becomes
// recent/previous.md and a copy of the record recent/latest.md, main.md's
// HANDOFF block is set from it; it appends the decisions to the log and
// one ledger line. A summary of recent/ that is no copy of a record (an
// older wake's, or one edited by hand) is made a record first: copied,
// for recent/latest.md, moved under its session time, for
// recent/previous.md. A journal in the state directory,
// committed before the first rename and removed last, lets any later call
// of [Recover] finish the hand-off after a crash.
func WriteSession(ctx context.Context, s *Store, in SessionWrite) (Result, error) {
	var res Result
	var j *journal
	err := s.MutateThen(ctx, func() (Entry, error) {
		rec, err := s.recoverLocked()
		res.Recovered = rec
		if err != nil {
			return Entry{}, err
		}
		if !in.NoneSince.IsZero() {
			es, err := SessionHandoffs(s.FS, s.Root, in.NoneSince, in.SessionID)
			if err != nil {
				return Entry{}, err
			}
			if len(es) > in.Seen {
				e := es[len(es)-1]
				return Entry{}, &HandedOffError{At: e.At, Auto: e.Auto}
			}
		}
		var summary []byte
		if j, summary, err = s.plan(in); err != nil {
			return Entry{}, err
		}
		if err := s.stage(j, summary); err != nil {
			return Entry{}, err
		}
		if _, err := s.rollForward(j); err != nil {
			return Entry{}, err
		}
		res.fill(j, summary)
		return j.Entry, nil
	}, func() error {
		// The session that was shown what a merge brought has handed off.
		s.forgetArrived()
		return s.finish(j.ID)
	})
	if err != nil && j != nil && s.committed(j.ID) {
		return res, &InterruptedError{ID: j.ID, Err: err}
	}
	return res, err
}

func (r *Result) fill(j *journal, summary []byte) {
	r.ID, r.At, r.Summary = j.ID, j.At, summary
	r.Demoted = j.Latest != ""
	r.Archived, r.ArchivedByModTime = j.Archive, j.ArchiveByModTime
	r.Record, r.LatestRecord = j.Record, j.LatestRecord
	r.BlockAppended = j.BlockAppended
	r.Decisions = len(j.Decisions)
	r.Paths = j.Entry.Paths
}

// plan reads the root and decides everything the hand-off will write,
// before anything is written.
func (s *Store) plan(in SessionWrite) (*journal, []byte, error) {
	at := s.Now().UTC().Truncate(time.Second)
	sess := in.Session
	sess.At = at
	fresh, items, err := s.sortDecisions(in.Decisions)
	if err != nil {
		return nil, nil, err
	}
	if len(in.Decisions) > 0 || len(sess.Decisions.Items) == 0 {
		// Items given without decisions are the front end's account of
		// what the session did to the log ([SessionDecisionItems]).
		sess.Decisions.Items = items
	}
	summary := sess.Render()
	// The hand-off checked every text; the record is checked whole all
	// the same, since it is written once and read by every later session.
	if err := CheckText(string(summary), true); err != nil {
		return nil, nil, fmt.Errorf("the session record: %w", err)
	}
	j := &journal{Version: journalVersion, ID: at.Format("20060102T150405Z") + "-" + randSuffix(), At: at,
		New: digest(summary), Decisions: fresh}
	j.Block = Block{Updated: at, SessionSummary: sess.Summary, NextPriority: sess.NextPriority,
		OpenRisk: sess.OpenRisk, EmotionalRegister: sess.EmotionalRegister}
	writer, err := s.WriterID()
	if err != nil {
		return nil, nil, err
	}
	if j.Record, err = s.freeSessionName(sessionBase(at, writer)); err != nil {
		return nil, nil, err
	}
	paths := []string{tiers.LatestPath, j.Record}
	latest, err := s.readOptional(tiers.LatestPath)
	if err != nil {
		return nil, nil, err
	}
	if latest != nil {
		j.Latest = digest(latest)
		paths = append(paths, tiers.PreviousPath)
		if err := s.planLatestRecord(j, latest); err != nil {
			return nil, nil, err
		}
		if j.LatestRecord != "" {
			paths = append(paths, j.LatestRecord)
		}
	}
	if err := s.planArchive(j); err != nil {
		return nil, nil, err
	}
	if j.Archive != "" {
		paths = append(paths, j.Archive)
	}
	// Found after the commit point, a refusal would leave a hand-off that
	// recovery could never finish: every path it writes or moves is
	// checked now, and so is the ledger its last step appends to.
	if err := s.preflight(j); err != nil {
		return nil, nil, err
	}
	// A summary or main.md that a merge left marked is neither rotated nor
	// written into; checked now, before the commit point.
	if err := s.refuseMarked(tiers.LatestPath, tiers.PreviousPath, tiers.MainPath); err != nil {
		return nil, nil, err
	}
	main, err := s.readOptional(tiers.MainPath)
	if err != nil {
		return nil, nil, err
	}
	if _, j.BlockAppended, err = ReplaceBlock(main, j.Block); err != nil {
		return nil, nil, err
	}
	paths = append(paths, tiers.MainPath)
	if len(fresh) > 0 {
		// The append is checked here, before anything is written: found
		// failing after the commit point it would leave a hand-off that
		// recovery could never finish.
		if err := s.CheckWritable(tiers.DecisionsPath, tiers.StateDir+"/"+DecisionsPending, tiers.StateDir+"/"+DecisionsSnapshot); err != nil {
			return nil, nil, err
		}
		f, err := s.readDecisionsLocked()
		if err != nil {
			return nil, nil, err
		}
		for _, d := range fresh {
			if err := d.Validate(); err != nil {
				return nil, nil, err
			}
		}
		j.DecisionsBefore = digest([]byte(f.text))
		// The IDs are planned against the log as the append will find it,
		// its entries without one given theirs, and kept in the journal.
		s.identify(&f)
		j.Decisions = slices.Clone(fresh)
		for i := range j.Decisions {
			j.Decisions[i].ID = ""
		}
		if err := s.guard(f, j.Decisions); err != nil {
			return nil, nil, err
		}
		if _, err := planAppend(f, j.Decisions, at); err != nil {
			return nil, nil, err
		}
		paths = append(paths, tiers.DecisionsPath)
	}
	j.Entry = Entry{At: at, Op: "handoff", Paths: paths, ChangeSummary: sess.Summary, Summary: sess.Summary, Auto: in.Auto}
	j.Entry.Session = in.SessionID
	for _, d := range j.Decisions {
		j.Entry.DecisionIDs = append(j.Entry.DecisionIDs, d.ID)
	}
	return j, summary, nil
}

// preflight checks, before anything is written, that every step of the
// hand-off can be taken: no symlink and no odd file on any path it writes
// or moves, a ledger that takes a line, and a rename from recent/ to the
// archive that the file systems allow.
func (s *Store) preflight(j *journal) error {
	rels := []string{tiers.LatestPath, tiers.PreviousPath, stagedRel(j.ID), tiers.MainPath,
		tiers.StateDir + "/" + JournalDir + "/" + j.ID + "/" + journalName}
	for _, rel := range []string{j.Archive, j.Record, j.LatestRecord} {
		if rel != "" {
			rels = append(rels, rel)
		}
	}
	if err := s.CheckWritable(rels...); err != nil {
		return err
	}
	return CheckLedgerWritable(s.FS, s.Root)
}

// planArchive decides what becomes of recent/previous.md: a copy of a
// session record (a view) is replaced by the rotation; anything else, a
// summary an older wake wrote or one edited by hand, is archived to
// cold/sessions/ under its session time as a record of its own.
func (s *Store) planArchive(j *journal) error {
	prev, err := s.readOptional(tiers.PreviousPath)
	if err != nil || prev == nil {
		return err
	}
	j.Previous = digest(prev)
	if j.PreviousView, err = s.isView(prev); err != nil || j.PreviousView {
		return err
	}
	base, byModTime, err := s.sessionBaseOf(tiers.PreviousPath, prev)
	if err != nil {
		return err
	}
	j.Archive, err = s.freeSessionName(base, j.Record, j.LatestRecord)
	j.ArchiveByModTime = byModTime
	return err
}

// planLatestRecord names the record a copy of recent/latest.md goes to
// when it is no view of one: a summary an older wake wrote, or one edited
// by hand. Its bytes are kept whole, as they stand.
func (s *Store) planLatestRecord(j *journal, latest []byte) error {
	view, err := s.isView(latest)
	if err != nil || view {
		return err
	}
	base, _, err := s.sessionBaseOf(tiers.LatestPath, latest)
	if err != nil {
		return err
	}
	j.LatestRecord, err = s.freeSessionName(base, j.Record)
	return err
}

// readOptional reads rel under the root; a missing file gives nil.
func (s *Store) readOptional(rel string) ([]byte, error) {
	data, err := tiers.ReadOwn(s.FS, s.Root, rel)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", rel, err)
	}
	if data == nil {
		data = []byte{}
	}
	return data, nil
}

func digest(data []byte) string {
	h := sha256.Sum256(data)
	return hex.EncodeToString(h[:])
}
