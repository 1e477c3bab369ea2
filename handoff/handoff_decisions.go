package handoff

import (
	"fmt"
	"strings"
	"unicode"

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
			items = append(items, loggedItem(e))
			continue
		}
		key := sameText(d.What)
		if e, ok := inForce[key]; ok {
			items = append(items, loggedItem(e))
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

// loggedItem is the "Decisions made" item of an entry already in the log.
func loggedItem(e tiers.Decision) string {
	return fmt.Sprintf("%s because %s (%s, in the log)", tiers.OneLine(e.What), tiers.OneLine(e.Why), e.Ref())
}

// sameText is a decision's text as two statements of one decision share
// it: case, spacing and a final full stop aside.
func sameText(what string) string {
	return strings.TrimRight(strings.ToLower(strings.Join(strings.FieldsFunc(what, unicode.IsSpace), " ")), ".")
}
