package store

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/wakeproto/wake/policy/scrub"
	"github.com/wakeproto/wake/tiers"
)

// sortDecisions parts a hand-off's decisions into those to append to the
// log and the session's "Decisions made" items. A decision the log
// already holds in force (named by its ID or number, or given again with
// the same text) is listed with its reference and not appended again: a
// hand-off that lists what the session decided with `wake decide` adds no
// copy, which would lack the entry's TOPIC and, once the original was
// reversed, contradict its replacement (issue 24, point 4).
func (s *Store) sortDecisions(ds []NewDecision) (fresh []NewDecision, items []string, err error) {
	if len(ds) == 0 {
		return nil, nil, nil
	}
	f, err := s.readDecisionsLocked()
	if err != nil {
		return nil, nil, err
	}
	inForce, given := map[string]tiers.Decision{}, map[string]bool{}
	for _, e := range f.log.Entries {
		if e.Status != tiers.StatusReversed {
			inForce[sameText(e.What)] = e
		}
	}
	// The summary is a record an agent reads: of a held-back log it names
	// the entry, never its text.
	h, _, _ := tiers.ReadHead(s.FS, s.Root, tiers.DecisionsPath)
	held := h.MetaErr != "" || h.Meta.Level() == tiers.Secret || h.Meta.Level() == tiers.Confidential
	for _, d := range ds {
		if d.Ref != "" {
			ref, err := ParseDecisionRef(d.Ref)
			if err != nil {
				return nil, nil, &FieldError{FieldDecision, err.Error()}
			}
			e, err := f.resolve(ref)
			if err != nil {
				return nil, nil, &FieldError{FieldDecision, err.Error()}
			}
			if e.Status == tiers.StatusReversed {
				return nil, nil, &FieldError{FieldDecision, fmt.Sprintf("decision %s is reversed: a hand-off lists the decisions in force the session made", d.Ref)}
			}
			items = append(items, loggedItem(e, held))
			continue
		}
		key := sameText(d.What)
		if e, ok := inForce[key]; ok {
			items = append(items, loggedItem(e, held))
			continue
		}
		if given[key] {
			continue // listed twice in this hand-off: once is enough
		}
		given[key] = true
		fresh = append(fresh, d)
		items = append(items, decisionItems([]NewDecision{d})...)
	}
	return fresh, items, nil
}

// loggedItem is the "Decisions made" item of an entry already in the log:
// its text scrubbed, or, of a held-back log, its reference alone.
func loggedItem(e tiers.Decision, held bool) string {
	ref := e.Ref()
	if !tiers.ValidID(e.ID) {
		ref = "#" + ref
	}
	if held {
		return fmt.Sprintf("decision %s, in the log (its text is held back)", ref)
	}
	what, _ := scrub.Text(tiers.OneLine(e.What))
	why, _ := scrub.Text(tiers.OneLine(e.Why))
	return fmt.Sprintf("%s because %s (%s, in the log)", what, why, ref)
}

// sameText is a decision's text as two statements of one decision share
// it: case, spacing and a final full stop aside.
func sameText(what string) string {
	return strings.TrimRight(strings.ToLower(strings.Join(strings.FieldsFunc(what, unicode.IsSpace), " ")), ".")
}
