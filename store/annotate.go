package store

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/wakeproto/wake/tiers"
)

// ErrNoSuchDecision is returned for a decision number or ID the log does
// not have.
var ErrNoSuchDecision = errors.New("no such decision")

// HandEditError refuses to annotate a decision log whose entries, as wake
// last wrote them, were deleted or edited by hand since: rule 2 says the
// user settles it first. Edits are found against wake's snapshot; Gone are
// IDs the ledger records wake writing that no entry has any more, found
// even when the snapshot is gone.
type HandEditError struct {
	Edits []tiers.HandEdit
	Gone  []WrittenID
}

// Hint says how to settle it.
func (e *HandEditError) Hint() string {
	if len(e.Gone) == 0 && !e.deleted() {
		return "'wake check' shows the removed lines; restore them, or, to accept the edit, delete .state/" + DecisionsSnapshot
	}
	return "'wake check' shows what is gone; put each entry back with its ID line: the ledger keeps every id wake wrote, so deleting .state/ does not accept a deletion"
}

// deleted reports whether an edit removed an entry with an ID, or its ID
// line.
func (e *HandEditError) deleted() bool {
	for _, h := range e.Edits {
		if h.ID == "" {
			continue
		}
		for _, l := range h.Removed {
			if strings.HasPrefix(strings.TrimSpace(l.Text), tiers.KeyID+":") {
				return true
			}
		}
	}
	return false
}

func (e *HandEditError) Error() string {
	var names []string
	for _, h := range e.Edits {
		names = append(names, h.Name())
	}
	for _, g := range e.Gone {
		names = append(names, "id "+g.ID)
	}
	which := "entry " + names[0]
	if len(names) > 1 {
		which = "entries " + strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s: entries wake wrote were deleted or edited by hand since its last write (%s as it wrote them); nothing was changed",
		tiers.DecisionsPath, which)
}

// DecisionChange says what a decision-log command did.
type DecisionChange struct {
	Number int    // the entry decided or annotated
	ID     string // its ID
	Title  string // that entry's "[date] what"
	Status string // its STATUS now
	// Added is the number of the entry appended alongside (the replacement
	// of a reversed decision), AddedID its ID and AddedTitle its
	// "[date] what"; 0 and "" when none was.
	Added      int
	AddedID    string
	AddedTitle string
}

// Name is how messages name the entry changed: "3 (id d-7f3a)".
func (c DecisionChange) Name() string { return tiers.Decision{Number: c.Number, ID: c.ID}.Name() }

// Ref is how a command line names the entry changed: its ID, else its
// number.
func (c DecisionChange) Ref() string { return tiers.Decision{Number: c.Number, ID: c.ID}.Ref() }

// AddedName is how messages name the entry added alongside.
func (c DecisionChange) AddedName() string {
	return tiers.Decision{Number: c.Added, ID: c.AddedID}.Name()
}

// Decide appends d to the log as a new active entry, under the root's lock,
// with a "decide" ledger line naming its ID. Wake gives d its ID; one d
// brings is not used.
func (s *Store) Decide(ctx context.Context, d NewDecision) (DecisionChange, error) {
	var ch DecisionChange
	d.ID = ""
	err := s.decisionsLocked(ctx, func() error {
		f, err := s.readDecisionsLocked()
		if err != nil {
			return err
		}
		ds := []NewDecision{d}
		if err := d.Validate(); err != nil {
			return err
		}
		given := s.identify(&f)
		if err := s.guard(f, ds); err != nil {
			return err
		}
		p, err := planAppend(f, ds, s.Now())
		if err != nil {
			return err
		}
		status, did := tiers.StatusActive, "decided"
		if ds[0].Objection != "" {
			status, did = tiers.StatusContested, "decided, contested as it contradicts a decision in force,"
		}
		c := DecisionChange{Number: p.first, ID: ds[0].ID, Title: s.title(d.What), Status: status}
		e := s.ledgerEntry("decide", fmt.Sprintf("%s #%s: %s", did, c.Name(), oneLine(d.What)))
		e.DecisionIDs = []string{c.ID}
		if err := s.writeDecisions([]byte(p.text), []byte(p.last), given, &e); err != nil {
			return err
		}
		ch = c
		return nil
	})
	return ch, err
}

// Reverse sets entry ref's STATUS to reversed, adds "REVERSED_BY: [date]
// WHAT BECAUSE: WHY" to it and appends by as a new active entry (rules 1
// and 2). An entry already reversed is an error. by takes the entry's
// TOPIC unless it names its own, since it decides the same subject; but
// not when another active entry already holds that TOPIC: the reversal
// then settles a clash in that entry's favour, and must not start a new
// one.
func (s *Store) Reverse(ctx context.Context, ref DecisionRef, by NewDecision) (DecisionChange, error) {
	if err := by.Validate(); err != nil {
		return DecisionChange{}, err
	}
	by.ID = ""
	return s.annotate(ctx, ref, "reverse", func(f *decisionFile, e tiers.Decision) (DecisionChange, string, error) {
		if e.Status == tiers.StatusReversed {
			return DecisionChange{}, "", fmt.Errorf("decision %s is already reversed (%s); reverse its replacement instead", e.Name(), oneLine(e.ReversedBy()))
		}
		note := fmt.Sprintf("[%s] %s BECAUSE: %s", s.day(), strings.TrimSpace(by.What), strings.TrimSpace(by.Why))
		f.text = annotateEntry(f.text, e, tiers.StatusReversed, tiers.KeyReversedBy+": "+note)
		f.log = tiers.ParseDecisions([]byte(f.text))
		if strings.TrimSpace(by.Topic) == "" && !topicHeld(f.log, e) {
			by.Topic = tiers.OneLine(e.Topic())
		}
		ds := []NewDecision{by}
		p, err := planAppend(*f, ds, s.Now())
		if err != nil {
			return DecisionChange{}, "", err
		}
		f.text = p.text
		ch := DecisionChange{Number: e.Number, ID: e.ID, Title: e.Title(), Status: tiers.StatusReversed, Added: p.first, AddedID: ds[0].ID, AddedTitle: s.title(by.What)}
		return ch, fmt.Sprintf("reversed #%s (%s) by #%s: %s", e.Name(), oneLine(e.What), ch.AddedName(), oneLine(by.What)), nil
	})
}

// Contest sets entry ref's STATUS to contested and adds "OBJECTION: [date]
// …" and "PROPOSED: …" lines (rules 1 and 4): the user settles it with
// [Store.Reverse] or [Store.Uphold]. Only an active entry can be contested.
func (s *Store) Contest(ctx context.Context, ref DecisionRef, objection, proposal string) (DecisionChange, error) {
	if err := oneLineTexts("objection", objection, "proposal", proposal); err != nil {
		return DecisionChange{}, err
	}
	return s.annotate(ctx, ref, "contest", func(f *decisionFile, e tiers.Decision) (DecisionChange, string, error) {
		if !e.Active() {
			return DecisionChange{}, "", fmt.Errorf("decision %s is %s; only an active decision can be contested", e.Name(), e.Status)
		}
		f.text = annotateEntry(f.text, e, tiers.StatusContested,
			fmt.Sprintf("%s: [%s] %s", tiers.KeyObjection, s.day(), strings.TrimSpace(objection)),
			fmt.Sprintf("%s: %s", tiers.KeyProposed, strings.TrimSpace(proposal)))
		ch := DecisionChange{Number: e.Number, ID: e.ID, Title: e.Title(), Status: tiers.StatusContested}
		return ch, fmt.Sprintf("contested #%s (%s): %s", e.Name(), oneLine(e.What), oneLine(objection)), nil
	})
}

// Uphold records the user's ruling that contested entry ref stands: it
// adds "UPHELD: [date] WHY" and sets STATUS back to active.
func (s *Store) Uphold(ctx context.Context, ref DecisionRef, why string) (DecisionChange, error) {
	if err := oneLineTexts("reason", why); err != nil {
		return DecisionChange{}, err
	}
	return s.annotate(ctx, ref, "uphold", func(f *decisionFile, e tiers.Decision) (DecisionChange, string, error) {
		if e.Status != tiers.StatusContested {
			return DecisionChange{}, "", fmt.Errorf("decision %s is %s, not contested; only a contested decision is upheld", e.Name(), statusName(e))
		}
		f.text = annotateEntry(f.text, e, tiers.StatusActive, fmt.Sprintf("%s: [%s] %s", tiers.KeyUpheld, s.day(), strings.TrimSpace(why)))
		ch := DecisionChange{Number: e.Number, ID: e.ID, Title: e.Title(), Status: tiers.StatusActive}
		return ch, fmt.Sprintf("upheld #%s (%s): %s", e.Name(), oneLine(e.What), oneLine(why)), nil
	})
}

// annotate runs edit on entry ref under the lock, refusing a log with hand
// edits to wake's entries, then writes the log edit left in f.text with a
// ledger line with op naming the IDs it wrote (and, before it, the
// "identify" line of the IDs it gave entries that had none).
func (s *Store) annotate(ctx context.Context, ref DecisionRef, op string, edit func(*decisionFile, tiers.Decision) (DecisionChange, string, error)) (DecisionChange, error) {
	var ch DecisionChange
	err := s.decisionsLocked(ctx, func() error {
		f, given, err := s.readDecisionsForEdit()
		if err != nil {
			return err
		}
		e, err := f.resolve(ref)
		if err != nil {
			return err
		}
		c, summary, err := edit(&f, e)
		if err != nil {
			return err
		}
		le := s.ledgerEntry(op, summary)
		le.DecisionIDs = []string{c.ID}
		if c.AddedID != "" {
			le.DecisionIDs = append(le.DecisionIDs, c.AddedID)
		}
		if err := s.writeDecisions([]byte(f.text), []byte(f.text), given, &le); err != nil {
			return err
		}
		ch = c
		return nil
	})
	return ch, err
}

// annotateEntry sets entry e's STATUS value to status and adds lines at
// the entry's end. Every other byte of the entry stays as it was. An entry
// with no STATUS line gets one added after its last line, with the new
// lines, rather than after its DECISION line: that way the original bytes
// stay one unbroken run and nothing inside the entry moves.
func annotateEntry(text string, e tiers.Decision, status string, lines ...string) string {
	if !e.HasStatus() {
		return appendLines(text, e, append([]string{tiers.KeyStatus + ": " + status}, lines...)...)
	}
	v := e.StatusValue
	text = text[:v.Start] + status + text[v.End:]
	e.Raw = e.Raw[:v.Start-e.Bytes.Start] + status + e.Raw[v.End-e.Bytes.Start:]
	e.Bytes.End += len(status) - (v.End - v.Start)
	return appendLines(text, e, lines...)
}

// appendLines adds lines after entry e's last line, in the entry's own
// line ending (the log's, when its last line has none).
func appendLines(text string, e tiers.Decision, lines ...string) string {
	end := e.Bytes.End
	eol := "\n"
	switch {
	case strings.HasSuffix(e.Raw, "\r\n"):
		eol = "\r\n"
	case !strings.HasSuffix(e.Raw, "\n"):
		eol = eolOf(text)
	}
	var add strings.Builder
	if !strings.HasSuffix(e.Raw, "\n") {
		add.WriteString(eol)
	}
	for _, l := range lines {
		add.WriteString(l + eol)
	}
	return text[:end] + add.String() + text[end:]
}

// ledgerEntry is a decision command's ledger line, stamped now to the
// second as the ledger keeps it, so that recovery can find it there; a
// change of the decisions names the session that made it, when known.
func (s *Store) ledgerEntry(op, summary string) Entry {
	e := Entry{At: s.Now().UTC().Truncate(time.Second), Op: op, Paths: []string{tiers.DecisionsPath}, ChangeSummary: summary}
	if DecisionOps[op] {
		e.Session = s.Session
	}
	return e
}

func (s *Store) day() string { return s.Now().UTC().Format("2006-01-02") }

func (s *Store) title(what string) string { return fmt.Sprintf("[%s] %s", s.day(), oneLine(what)) }

func oneLine(s string) string { return tiers.OneLine(s) }

func statusName(e tiers.Decision) string {
	if e.Status == "" {
		return "active (no STATUS line)"
	}
	return e.Status
}

// oneLineTexts checks name/value pairs: each value present and one line.
func oneLineTexts(pairs ...string) error {
	for i := 0; i+1 < len(pairs); i += 2 {
		switch v := pairs[i+1]; {
		case strings.TrimSpace(v) == "":
			return fmt.Errorf("the %s is empty", pairs[i])
		case strings.ContainsAny(v, "\r\n"):
			return fmt.Errorf("the %s must be one line", pairs[i])
		case CheckText(v, false) != nil:
			return fmt.Errorf("the %s: %v", pairs[i], CheckText(v, false))
		}
	}
	return nil
}

// topicHeld reports whether an active entry other than e has e's TOPIC,
// compared as the consistency check compares them.
func topicHeld(log tiers.DecisionLog, e tiers.Decision) bool {
	t := strings.ToLower(tiers.OneLine(e.Topic()))
	if t == "" {
		return true
	}
	for _, o := range log.Entries {
		if o.Number != e.Number && o.Active() && strings.ToLower(tiers.OneLine(o.Topic())) == t {
			return true
		}
	}
	return false
}

// readDecisionsForEdit reads the log for a change to its entries, under
// the lock: a log whose entries wake wrote were edited or deleted by hand
// is refused (see [HandEditError]), and entries without an ID are given
// one, the "identify" ledger line returned for the caller to write first.
func (s *Store) readDecisionsForEdit() (decisionFile, *Entry, error) {
	f, err := s.readDecisionsLocked()
	if err != nil {
		return f, nil, err
	}
	if len(f.edits) > 0 || len(f.gone) > 0 {
		return f, nil, &HandEditError{Edits: f.edits, Gone: f.gone}
	}
	return f, s.identify(&f), nil
}
