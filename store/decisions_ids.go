package store

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/tiers"
)

// DecisionRef names an entry of the decision log: by its ID, which does
// not move, or by its number, which moves when an entry is added by hand
// before it, or when wake compact archives one before it.
type DecisionRef struct {
	ID     string // when set, Number is not used
	Number int
}

func (r DecisionRef) String() string {
	if r.ID != "" {
		return r.ID
	}
	return strconv.Itoa(r.Number)
}

// ParseDecisionRef reads a decision's number ("3", "#3") or its ID
// ("d-7f3a").
func ParseDecisionRef(s string) (DecisionRef, error) {
	s = strings.TrimSpace(s)
	if n, err := strconv.Atoi(strings.TrimPrefix(s, "#")); err == nil {
		if n < 1 {
			return DecisionRef{}, fmt.Errorf("decision number %q: want a whole number from 1", s)
		}
		return DecisionRef{Number: n}, nil
	}
	if !tiers.ValidID(s) {
		return DecisionRef{}, fmt.Errorf("decision %q: want its number (3) or its id (d-7f3a)", s)
	}
	return DecisionRef{ID: s}, nil
}

// WrittenID is an entry ID the ledger records wake writing, with the
// ledger line that first names it.
type WrittenID struct {
	ID            string
	At            time.Time
	Op            string
	ChangeSummary string
}

// WrittenDecisionIDs returns every ID the ledger records wake writing into
// the decision log ([Entry.DecisionIDs]), each once, in the order they
// first appear. Lines that cannot be read are skipped; [ReadLedger] reports
// them. Only the lines that name IDs are decoded, and only those past what
// the record of a last answer ([WrittenIDsFile]) covers, when the ledger
// has only grown since.
func WrittenDecisionIDs(fsys afero.Fs, root string) ([]WrittenID, error) {
	out, _, err := writtenDecisionIDs(fsys, root)
	return out, err
}

// scanWrittenIDs adds to out, and seen, the IDs the lines of data name.
func scanWrittenIDs(data []byte, out []WrittenID, seen tiers.IDSet) []WrittenID {
	for n := 1; len(data) > 0; n++ {
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		if !bytes.Contains(line, []byte(`"decision_ids"`)) {
			continue
		}
		e, ok, bad := parseLine(line, n)
		if !ok || bad != nil {
			continue
		}
		for _, id := range e.DecisionIDs {
			if id != "" && !seen.Has(id) {
				seen.Add(id)
				out = append(out, WrittenID{ID: id, At: e.At, Op: e.Op, ChangeSummary: e.ChangeSummary})
			}
		}
	}
	return out
}

// identify gives every entry of f without an ID line the ID
// [tiers.PlanIDs] plans for it, in an "ID:" line added at the entry's end
// so that none of its bytes moves. It returns the ledger line that says
// which entries were given one; nil when none was.
func (s *Store) identify(f *decisionFile) *Entry {
	plan := tiers.PlanIDs(f.log, f.known, f.writer)
	if len(plan) == 0 {
		return nil
	}
	ids := make([]string, len(plan))
	var named []string
	for i := len(plan) - 1; i >= 0; i-- {
		a := plan[i]
		e := f.log.Entries[a.Number-1]
		f.text = appendLines(f.text, e, tiers.KeyID+": "+a.ID)
		ids[i] = a.ID
		f.given.Add(a.ID)
	}
	for i, a := range plan {
		if i == maxNamed {
			named = append(named, fmt.Sprintf("and %d more", len(plan)-maxNamed))
			break
		}
		named = append(named, fmt.Sprintf("#%d %s %s", a.Number, a.ID, f.log.Entries[a.Number-1].Title()))
	}
	f.log = tiers.ParseDecisions([]byte(f.text))
	e := s.ledgerEntry("identify", fmt.Sprintf("gave ids to %d decision(s) that had none (written by hand): %s", len(plan), strings.Join(named, "; ")))
	e.DecisionIDs = ids
	return &e
}

// maxNamed bounds the entries an "identify" ledger line names in its
// summary; its decision_ids hold them all.
const maxNamed = 5

// resolve finds the entry ref names in f's log. A number is checked
// against the log as wake last wrote it: one that named another entry
// then is refused, since the caller may have read it there.
func (f *decisionFile) resolve(ref DecisionRef) (tiers.Decision, error) {
	if ref.ID == "" {
		e, ok := f.log.Entry(ref.Number)
		if !ok {
			return e, fmt.Errorf("decision %d: %w (%s has %d)", ref.Number, ErrNoSuchDecision, tiers.DecisionsPath, len(f.log.Entries))
		}
		return e, f.checkNumber(e)
	}
	es := f.log.Match(ref.ID)
	switch {
	case len(es) == 1:
		return es[0], nil
	case len(es) > 1 && tiers.SameID(es[0].ID, ref.ID):
		return tiers.Decision{}, &DuplicateIDError{ID: ref.ID, Entries: es}
	case len(es) > 1:
		return tiers.Decision{}, &AmbiguousIDError{Prefix: ref.ID, Entries: es}
	}
	var archive tiers.DecisionLog
	if f.readArchive != nil {
		var err error
		if archive, err = f.readArchive(); err != nil {
			return tiers.Decision{}, err
		}
	}
	switch ar := archive.Match(ref.ID); {
	case len(ar) == 1:
		return tiers.Decision{}, &ArchivedError{Entry: ar[0]}
	case len(ar) > 1:
		return tiers.Decision{}, &AmbiguousIDError{Prefix: ref.ID, Entries: ar, Archived: true}
	}
	return tiers.Decision{}, fmt.Errorf("decision %s: %w (no entry of %s has that id)", ref.ID, ErrNoSuchDecision, tiers.DecisionsPath)
}

// lastView returns the entries of the log as wake last wrote it, in
// order: its snapshot's when there is one; else, when the ledger records
// IDs wake wrote, the entries that have one of them (an entry without
// one was added by hand since wake's last write, which gives every entry
// an ID); else nil, there being no write of wake's to compare with.
func (f *decisionFile) lastView() []tiers.Decision {
	if f.hasLast {
		return tiers.ParseDecisions(f.last).Entries
	}
	if len(f.known) == 0 {
		return nil
	}
	var out []tiers.Decision
	for _, e := range f.log.Entries {
		if f.known.Has(e.ID) {
			out = append(out, e)
		}
	}
	return out
}

// checkNumber refuses entry e, named by its number, when that number
// named another entry in wake's last write.
func (f *decisionFile) checkNumber(e tiers.Decision) error {
	view := f.lastView()
	if len(view) < e.Number {
		return nil
	}
	was := view[e.Number-1]
	if was.ID != "" && tiers.SameID(was.ID, e.ID) ||
		was.ID == "" && was.Date == e.Date && tiers.OneLine(was.What) == tiers.OneLine(e.What) {
		return nil
	}
	return &MovedNumberError{Now: e, NowUnwritten: f.given.Has(e.ID), Was: was}
}

// MovedNumberError refuses a decision number that named another entry
// when wake last wrote the log: entries were added by hand before it
// since, and the caller may have read the number before they were.
type MovedNumberError struct {
	Now tiers.Decision // the entry the number names now
	// NowUnwritten is set when Now's ID is the one wake gives it at its
	// next write: the entry was written by hand and has none in the file.
	NowUnwritten bool
	Was          tiers.Decision // the entry it named in wake's last write
}

func (e *MovedNumberError) Error() string {
	now := "id " + e.Now.ID
	if e.NowUnwritten {
		now += "; written by hand, it gets that id at wake's next write"
	}
	was := ""
	if e.Was.ID != "" {
		was = " (id " + e.Was.ID + ")"
	}
	return fmt.Sprintf("decision %d is now %s (%s); it was %s%s when wake last wrote the log: use the id; nothing was changed",
		e.Now.Number, e.Now.Title(), now, e.Was.Title(), was)
}

// Hint says how to go on.
func (e *MovedNumberError) Hint() string {
	return "an id names the same entry whatever is added before it; 'wake decisions --all' lists every decision with its id"
}

// ErrAmbiguousID is what [DuplicateIDError] and [AmbiguousIDError] are:
// an ID that names more than one entry, which no command acts on.
var ErrAmbiguousID = errors.New("the id names more than one decision")

// DuplicateIDError refuses an ID that more than one entry has: an entry
// copied by hand took its ID along, or two branches gave the same ID to
// different entries (the short IDs older wakes gave) and were merged.
type DuplicateIDError struct {
	ID      string
	Entries []tiers.Decision
}

func (e *DuplicateIDError) Error() string {
	var which []string
	for _, d := range e.Entries {
		which = append(which, fmt.Sprintf("#%d %s", d.Number, d.Title()))
	}
	return fmt.Sprintf("id %s names %d entries of %s (%s): an entry copied by hand, or merged from another branch, keeps the id it had there; nothing was changed",
		e.ID, len(e.Entries), tiers.DecisionsPath, strings.Join(which, ", "))
}

// Is makes the error [ErrAmbiguousID].
func (e *DuplicateIDError) Is(target error) bool { return target == ErrAmbiguousID }

// Hint says how to settle it.
func (e *DuplicateIDError) Hint() string {
	return "remove the ID line of the copy (wake gives it an id of its own at its next write), or name the decision by its number"
}

// AmbiguousIDError refuses the start of an ID that more than one entry's
// ID starts with.
type AmbiguousIDError struct {
	Prefix   string
	Entries  []tiers.Decision
	Archived bool // the entries are in the decisions archive
}

func (e *AmbiguousIDError) Error() string {
	var which []string
	for _, d := range e.Entries {
		which = append(which, fmt.Sprintf("%s (#%d %s)", d.ID, d.Number, d.Title()))
	}
	where := tiers.DecisionsPath
	if e.Archived {
		where = "the decisions archive"
	}
	return fmt.Sprintf("%s names %d entries of %s: %s; nothing was changed", e.Prefix, len(e.Entries), where, strings.Join(which, ", "))
}

// Is makes the error [ErrAmbiguousID].
func (e *AmbiguousIDError) Is(target error) bool { return target == ErrAmbiguousID }

// Hint says how to go on.
func (e *AmbiguousIDError) Hint() string {
	return "give more of the id, or all of it; 'wake decisions --all' lists every decision with its id"
}
