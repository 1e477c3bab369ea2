package handoff

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/wakeproto/wake/tiers"
)

// ErrNoSuchDecision is returned for a decision number the log does not have.
var ErrNoSuchDecision = errors.New("no such decision")

// HandEditError refuses to annotate a decision log whose entries, as wake
// last wrote them, were deleted or edited by hand since: numbers may have
// shifted, and rule 2 says the user settles it first.
type HandEditError struct {
	Edits []tiers.HandEdit
}

// Hint says how to settle it.
func (e *HandEditError) Hint() string {
	return "'wake check' shows the removed lines; restore them, or, to accept the edit, delete .state/" + DecisionsSnapshot
}

func (e *HandEditError) Error() string {
	var nums []string
	for _, h := range e.Edits {
		nums = append(nums, fmt.Sprint(h.Entry))
	}
	which := "entry " + nums[0]
	if len(nums) > 1 {
		which = "entries " + strings.Join(nums, ", ")
	}
	return fmt.Sprintf("%s: entries wake wrote were deleted or edited by hand since its last write (%s as it wrote them); nothing was changed",
		tiers.DecisionsPath, which)
}

// DecisionChange says what a decision-log command did.
type DecisionChange struct {
	Number int    // the entry decided or annotated
	Title  string // that entry's "[date] what"
	Status string // its STATUS now
	// Added is the number of the entry appended alongside (the replacement
	// of a reversed decision) and AddedTitle its "[date] what"; 0 and ""
	// when none was.
	Added      int
	AddedTitle string
}

// Decide appends d to the log as a new active entry, under the root's lock,
// with a "decide" ledger line.
func (s *Store) Decide(ctx context.Context, d NewDecision) (DecisionChange, error) {
	var ch DecisionChange
	err := s.decisionsLocked(ctx, func() error {
		f, err := s.readDecisionsLocked()
		if err != nil {
			return err
		}
		ds := []NewDecision{d}
		if err := d.Validate(); err != nil {
			return err
		}
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
		e := s.ledgerEntry("decide", fmt.Sprintf("%s #%d: %s", did, p.first, oneLine(d.What)))
		if err := s.writeDecisions([]byte(p.text), []byte(p.last), &e); err != nil {
			return err
		}
		ch = DecisionChange{Number: p.first, Title: s.title(d.What), Status: status}
		return nil
	})
	return ch, err
}

// Reverse sets entry n's STATUS to reversed, adds "REVERSED_BY: [date] WHAT
// BECAUSE: WHY" to it and appends by as a new active entry (rules 1 and 2).
// An entry already reversed is an error. by takes the entry's TOPIC unless
// it names its own, since it decides the same subject; but not when
// another active entry already holds that TOPIC: the reversal then
// settles a clash in that entry's favour, and must not start a new one.
func (s *Store) Reverse(ctx context.Context, n int, by NewDecision) (DecisionChange, error) {
	if err := by.Validate(); err != nil {
		return DecisionChange{}, err
	}
	return s.annotate(ctx, n, "reverse", func(f *decisionFile, e tiers.Decision) (DecisionChange, string, error) {
		if e.Status == tiers.StatusReversed {
			return DecisionChange{}, "", fmt.Errorf("decision %d is already reversed (%s); reverse its replacement instead", n, oneLine(e.ReversedBy()))
		}
		note := fmt.Sprintf("[%s] %s BECAUSE: %s", s.day(), strings.TrimSpace(by.What), strings.TrimSpace(by.Why))
		f.text = annotateEntry(f.text, e, tiers.StatusReversed, tiers.KeyReversedBy+": "+note)
		f.log = tiers.ParseDecisions([]byte(f.text))
		if strings.TrimSpace(by.Topic) == "" && !topicHeld(f.log, e) {
			by.Topic = tiers.OneLine(e.Topic())
		}
		p, err := planAppend(*f, []NewDecision{by}, s.Now())
		if err != nil {
			return DecisionChange{}, "", err
		}
		f.text = p.text
		ch := DecisionChange{Number: n, Title: e.Title(), Status: tiers.StatusReversed, Added: p.first, AddedTitle: s.title(by.What)}
		return ch, fmt.Sprintf("reversed #%d (%s) by #%d: %s", n, oneLine(e.What), p.first, oneLine(by.What)), nil
	})
}

// Contest sets entry n's STATUS to contested and adds "OBJECTION: [date] …"
// and "PROPOSED: …" lines (rules 1 and 4): the user settles it with
// [Store.Reverse] or [Store.Uphold]. Only an active entry can be contested.
func (s *Store) Contest(ctx context.Context, n int, objection, proposal string) (DecisionChange, error) {
	if err := oneLineTexts("objection", objection, "proposal", proposal); err != nil {
		return DecisionChange{}, err
	}
	return s.annotate(ctx, n, "contest", func(f *decisionFile, e tiers.Decision) (DecisionChange, string, error) {
		if !e.Active() {
			return DecisionChange{}, "", fmt.Errorf("decision %d is %s; only an active decision can be contested", n, e.Status)
		}
		f.text = annotateEntry(f.text, e, tiers.StatusContested,
			fmt.Sprintf("%s: [%s] %s", tiers.KeyObjection, s.day(), strings.TrimSpace(objection)),
			fmt.Sprintf("%s: %s", tiers.KeyProposed, strings.TrimSpace(proposal)))
		ch := DecisionChange{Number: n, Title: e.Title(), Status: tiers.StatusContested}
		return ch, fmt.Sprintf("contested #%d (%s): %s", n, oneLine(e.What), oneLine(objection)), nil
	})
}

// Uphold records the user's ruling that contested entry n stands: it adds
// "UPHELD: [date] WHY" and sets STATUS back to active.
func (s *Store) Uphold(ctx context.Context, n int, why string) (DecisionChange, error) {
	if err := oneLineTexts("reason", why); err != nil {
		return DecisionChange{}, err
	}
	return s.annotate(ctx, n, "uphold", func(f *decisionFile, e tiers.Decision) (DecisionChange, string, error) {
		if e.Status != tiers.StatusContested {
			return DecisionChange{}, "", fmt.Errorf("decision %d is %s, not contested; only a contested decision is upheld", n, statusName(e))
		}
		f.text = annotateEntry(f.text, e, tiers.StatusActive, fmt.Sprintf("%s: [%s] %s", tiers.KeyUpheld, s.day(), strings.TrimSpace(why)))
		ch := DecisionChange{Number: n, Title: e.Title(), Status: tiers.StatusActive}
		return ch, fmt.Sprintf("upheld #%d (%s): %s", n, oneLine(e.What), oneLine(why)), nil
	})
}

// annotate runs edit on entry n under the lock, refusing a log with hand
// edits to wake's entries, then writes the log edit left in f.text with
// one ledger line with op.
func (s *Store) annotate(ctx context.Context, n int, op string, edit func(*decisionFile, tiers.Decision) (DecisionChange, string, error)) (DecisionChange, error) {
	var ch DecisionChange
	err := s.decisionsLocked(ctx, func() error {
		f, err := s.readDecisionsLocked()
		if err != nil {
			return err
		}
		if len(f.edits) > 0 {
			return &HandEditError{Edits: f.edits}
		}
		e, ok := f.log.Entry(n)
		if !ok {
			return fmt.Errorf("decision %d: %w (%s has %d)", n, ErrNoSuchDecision, tiers.DecisionsPath, len(f.log.Entries))
		}
		c, summary, err := edit(&f, e)
		if err != nil {
			return err
		}
		le := s.ledgerEntry(op, summary)
		if err := s.writeDecisions([]byte(f.text), []byte(f.text), &le); err != nil {
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
// stay one unbroken run and nothing inside the entry moves. New lines take
// the entry's own line ending.
func annotateEntry(text string, e tiers.Decision, status string, lines ...string) string {
	end := e.Bytes.End
	eol := "\n"
	if strings.HasSuffix(e.Raw, "\r\n") {
		eol = "\r\n"
	}
	if e.HasStatus() {
		v := e.StatusValue
		text = text[:v.Start] + status + text[v.End:]
		end += len(status) - (v.End - v.Start)
	} else {
		lines = append([]string{tiers.KeyStatus + ": " + status}, lines...)
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
// second as the ledger keeps it, so that recovery can find it there.
func (s *Store) ledgerEntry(op, summary string) Entry {
	return Entry{At: s.Now().UTC().Truncate(time.Second), Op: op, Paths: []string{tiers.DecisionsPath}, ChangeSummary: summary}
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
