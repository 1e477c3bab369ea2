package store

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/wakeproto/wake/tiers"
)

// DecisionsSnapshot is where wake keeps the exact decision log it last
// wrote, inside the state directory, so that entries deleted or edited by
// hand since can be found.
const DecisionsSnapshot = "decisions.last.md"

// NewDecision is a decision to append to the log.
type NewDecision struct {
	What  string
	Why   string
	Topic string // optional
	// Force records the decision even when it contradicts one in force:
	// it is then written contested, with Objection saying which.
	Force bool `json:"-"`
	// Objection, set when a forced decision contradicts one in force,
	// makes the entry contested until the user settles it.
	Objection string `json:",omitempty"`
	// ID is the entry's ID. Wake gives it when it plans the write; a
	// hand-off's journal keeps it, so that a hand-off finished after a
	// crash writes the ID its ledger line names.
	ID string `json:",omitempty"`
	// Ref, in a hand-off, names an entry already in the log (its ID or
	// number) that the session made: it is listed, not appended.
	Ref string `json:"-"`
}

// Validate checks that both texts are present and every field is one line
// and holds no character that [CheckText] refuses.
func (d NewDecision) Validate() error {
	if d.Ref != "" {
		_, err := ParseDecisionRef(d.Ref)
		return err
	}
	switch {
	case strings.TrimSpace(d.What) == "":
		return errors.New("the decision text is empty")
	case strings.TrimSpace(d.Why) == "":
		return errors.New("the reason (because) is empty")
	case strings.ContainsAny(d.What+d.Why+d.Topic, "\r\n"):
		return errors.New("decision, reason and topic must each be one line")
	case checkTexts(d.What, d.Why, d.Topic) != nil:
		return fmt.Errorf("decision, reason and topic: %v", checkTexts(d.What, d.Why, d.Topic))
	case strings.Contains(d.What, tiers.KeyBecause+":"):
		// The entry line reads "DECISION: WHAT BECAUSE: WHY"; a second
		// "BECAUSE:" would move part of the decision into the reason.
		return errors.New(`the decision text must not contain "BECAUSE:"; it separates the decision from its reason`)
	case tiers.InlineKey(d.Why) != "":
		// After "BECAUSE:" on the entry line, "STATUS:" and the other keys
		// start fields of their own (seed 004's one-line form).
		return fmt.Errorf("the reason must not contain %q: on the DECISION line it starts a field of its own", tiers.InlineKey(d.Why))
	}
	return nil
}

// Render formats the entry as wake writes it, ending in a newline: the
// DECISION line, its ID line when it has an ID, then its fields.
func (d NewDecision) Render(day time.Time) string {
	var b strings.Builder
	status := tiers.StatusActive
	if d.Objection != "" {
		status = tiers.StatusContested
	}
	fmt.Fprintf(&b, "[%s] DECISION: %s BECAUSE: %s\n", day.UTC().Format("2006-01-02"), strings.TrimSpace(d.What), strings.TrimSpace(d.Why))
	if d.ID != "" {
		fmt.Fprintf(&b, "%s: %s\n", tiers.KeyID, d.ID)
	}
	fmt.Fprintf(&b, "%s: %s\n", tiers.KeyStatus, status)
	if t := strings.TrimSpace(d.Topic); t != "" {
		fmt.Fprintf(&b, "TOPIC: %s\n", t)
	}
	if d.Objection != "" {
		fmt.Fprintf(&b, "%s: %s\n%s: the user keeps one: 'wake uphold' this entry, or 'wake reverse' one of the two\n", tiers.KeyObjection, oneLine(d.Objection), tiers.KeyProposed)
	}
	return b.String()
}

// AppendDecisionsLocked appends each decision as an active entry to
// warm/decisions.md, one blank line after the previous entry, writes the
// file atomically and records the snapshot. A decision without an ID is
// given one; entries of the log without one are given theirs, with an
// "identify" ledger line. When entries wake wrote were deleted or edited
// by hand since its last write, the snapshot keeps wake's version of them
// with the new entries added, so the coherence check goes on reporting the
// edit. The caller must hold the root's lock and writes the ledger line of
// the decisions.
func (s *Store) AppendDecisionsLocked(ds []NewDecision) error {
	f, err := s.readDecisionsLocked()
	if err != nil {
		return err
	}
	given := s.identify(&f)
	p, err := planAppend(f, ds, s.Now())
	if err != nil {
		return err
	}
	return s.writeDecisions([]byte(p.text), []byte(p.last), given, nil)
}

// appended is the decision log with new entries appended, as it would be
// written: text for the log, last for the snapshot, first the number of
// the first new entry.
type appended struct {
	text, last string
	first      int
}

// planAppend appends ds, dated at, to the log read in f, without writing.
// Each decision without an ID is given one, in ds, free of the log's IDs
// and those the ledger knows. The entries take the log's line ending. It
// is an error when they would not read back as entries: a comment left
// open hides them.
func planAppend(f decisionFile, ds []NewDecision, at time.Time) (appended, error) {
	for _, d := range ds {
		if err := d.Validate(); err != nil {
			return appended{}, err
		}
	}
	taken := f.log.IDs()
	for id := range f.known {
		taken.Add(id)
	}
	day := at.UTC().Format("2006-01-02")
	for i := range ds {
		if ds[i].ID == "" {
			ds[i].ID = tiers.DeriveID(f.writer, day, ds[i].What, taken.Has)
		}
		taken.Add(ds[i].ID)
	}
	eol := eolOf(f.text)
	p := appended{text: f.text, last: string(f.last), first: len(f.log.Entries) + 1}
	for _, entry := range renderEntries(ds, at, eol) {
		p.text = appendEntry(p.text, entry, eol)
		p.last = appendEntry(p.last, entry, eol)
	}
	if got := tiers.ParseDecisions([]byte(p.text)); len(got.Entries) != p.first-1+len(ds) {
		if got.OpenComment > 0 {
			// Named as it is on disk, before IDs were added above it.
			line := f.openComment
			if line == 0 {
				line = got.OpenComment
			}
			return appended{}, &OpenCommentError{Line: line}
		}
		return appended{}, fmt.Errorf("%s: the new entries would not read back as entries; nothing was written", tiers.DecisionsPath)
	}
	if len(f.edits) == 0 {
		p.last = p.text
	}
	return p, nil
}

// renderEntries renders ds, dated at, with line ending eol.
func renderEntries(ds []NewDecision, at time.Time, eol string) []string {
	var out []string
	for _, d := range ds {
		out = append(out, strings.ReplaceAll(d.Render(at), "\n", eol))
	}
	return out
}

// OpenCommentError refuses to append to a decision log with an HTML comment
// opened and never closed: the new entries would land inside it, hidden
// from every reader.
type OpenCommentError struct {
	Line int // where the comment opens
}

func (e *OpenCommentError) Error() string {
	return fmt.Sprintf("%s:%d: an HTML comment (<!--) opens here and is never closed, so new entries would be hidden inside it; close it with --> or remove it, then run the command again; nothing was written",
		tiers.DecisionsPath, e.Line)
}

// decisionFile is the decision log as it is and as wake last wrote it.
type decisionFile struct {
	text    string
	log     tiers.DecisionLog
	last    []byte           // wake's last write; the current text when there is none
	hasLast bool             // whether there is a snapshot of wake's last write
	edits   []tiers.HandEdit // wake's entries deleted or edited by hand since
	// known are the IDs the ledger records wake writing; gone are those
	// of them no entry has, unless an edit above reports the entry.
	known tiers.IDSet
	gone  []WrittenID
	given tiers.IDSet // the IDs this write gives entries that had none
	// openComment is the line of a comment left open in the log as read.
	openComment int
	// archived are the IDs of the decisions archive's entries: the
	// reversed entries compaction moved out of the log, which keep their
	// IDs there (see [ArchivedDecisionIDs]). The archive itself is read
	// only for a reference no entry of the log answers (see
	// [decisionFile.resolve]): it holds most of a long life's decisions.
	archived    tiers.IDSet
	readArchive func() (tiers.DecisionLog, error)
	// writer is the writer id of this clone, which the IDs it gives carry
	// (see [tiers.DeriveID]).
	writer string
}

// readDecisionsLocked reads the log, wake's snapshot of it and the IDs the
// ledger records wake writing. A missing log is empty; a missing snapshot
// (nothing written yet, or .state deleted) means there is no last write to
// compare with line by line, but the ledger still tells which entries wake
// wrote.
func (s *Store) readDecisionsLocked() (decisionFile, error) {
	cur, err := tiers.ReadOwn(s.FS, s.Root, tiers.DecisionsPath)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return decisionFile{}, fmt.Errorf("reading %s: %w", tiers.DecisionsPath, err)
	}
	// Every write of the log reads it here first: one a merge left marked
	// is written to by no command.
	if lines := tiers.ConflictMarkers(cur); lines != nil {
		return decisionFile{}, &MarkedError{Path: tiers.DecisionsPath, Lines: lines}
	}
	f := decisionFile{text: string(cur), log: tiers.ParseDecisions(cur), last: cur, known: tiers.IDSet{}, given: tiers.IDSet{}}
	f.openComment = f.log.OpenComment
	if f.writer, err = s.WriterID(); err != nil {
		return decisionFile{}, err
	}
	last, err := tiers.ReadOwn(s.FS, s.Root, tiers.StateDir+"/"+DecisionsSnapshot)
	switch {
	case errors.Is(err, os.ErrNotExist):
	case err != nil:
		return decisionFile{}, fmt.Errorf("reading %s/%s: %w", tiers.StateDir, DecisionsSnapshot, err)
	default:
		f.last, f.hasLast, f.edits = last, true, tiers.FindHandEdits(last, cur)
	}
	written, rec, err := writtenDecisionIDs(s.FS, s.Root)
	if err != nil {
		return decisionFile{}, err
	}
	s.writtenIDs = rec
	if f.archived, err = ArchivedDecisionIDs(s.FS, s.Root); err != nil {
		return decisionFile{}, err
	}
	f.readArchive = func() (tiers.DecisionLog, error) { return ReadDecisionsArchive(s.FS, s.Root) }
	f.gone = Vanished(f.log, written, f.edits, f.archived)
	for _, w := range written {
		f.known.Add(w.ID)
	}
	return f, nil
}

// Vanished returns the IDs of written, those the ledger records wake
// writing, that no entry of log has: their entries were deleted by hand,
// or their ID lines edited. Those of entries an edit in edits already
// reports are left out, and so are those in archived, the IDs of the
// entries compaction moved to the decisions archive.
func Vanished(log tiers.DecisionLog, written []WrittenID, edits []tiers.HandEdit, archived tiers.IDSet) []WrittenID {
	have := log.IDs()
	for id := range archived {
		have.Add(id)
	}
	for _, h := range edits {
		have.Add(h.ID)
	}
	var out []WrittenID
	for _, w := range written {
		if !have.Has(w.ID) {
			out = append(out, w)
		}
	}
	return out
}

// appendEntry adds entry after text, separated by exactly one blank line
// ending in eol.
func appendEntry(text, entry, eol string) string {
	switch {
	case text == "":
	case strings.HasSuffix(text, "\n\n"), strings.HasSuffix(text, "\n\r\n"):
	case strings.HasSuffix(text, "\n"):
		text += eol
	default:
		text += eol + eol
	}
	return text + entry
}
