package store

import (
	"fmt"
	"strings"

	"github.com/wakeproto/wake/tiers"
)

// Conflict is a new decision that contradicts a decision in force (the
// Wake Protocol's rule 1: never silently override).
type Conflict struct {
	New  int            // which new decision, an index
	With tiers.Decision // the active entry it contradicts
	Why  string         // how, as the consistency check says it
}

// Guard finds the conflicts of new decisions with the active entries of
// the log they would join. The coherence checks own the detector; a
// Store with no Guard appends without looking.
type Guard func(log tiers.DecisionLog, ds []NewDecision) []Conflict

// ConflictError refuses new decisions that contradict decisions in force:
// nothing is written. The user reverses or contests the old decision, or
// records the new one anyway with Force.
type ConflictError struct {
	Conflicts []Conflict
	New       []NewDecision
	// Held, when the policy holds the log back, says so in place of the
	// quoted entries (set by the caller that knows the policy).
	Held string
}

func (e *ConflictError) Error() string {
	var b strings.Builder
	for i, c := range e.Conflicts {
		if i > 0 {
			b.WriteString("; ")
		}
		if e.Held != "" {
			fmt.Fprintf(&b, "%q contradicts decision %s, which is in force (%s)", oneLine(e.New[c.New].What), c.With.Name(), e.Held)
			continue
		}
		fmt.Fprintf(&b, "%q contradicts decision %s, which is in force: %s BECAUSE: %s (%s)",
			oneLine(e.New[c.New].What), c.With.Name(), c.With.Title(), oneLine(c.With.Why), c.Why)
	}
	return b.String() + "; nothing was written"
}

// Hint says how to settle it.
func (e *ConflictError) Hint() string {
	n := e.Conflicts[0].With.Ref()
	return fmt.Sprintf("never override silently: 'wake reverse %s --by ... --because ...' replaces decision %s, 'wake contest %s --objection ... --proposal ...' puts it to the user; --force records the new decision anyway, contested, for the user to settle", n, n, n)
}

// guard applies s.Guard to ds about to join the log in f: a conflict of a
// decision marked Force is recorded in it (it is written contested, its
// objection naming the entry it contradicts); any other conflict refuses
// them all. ds is changed in place.
func (s *Store) guard(f decisionFile, ds []NewDecision) error {
	if s.Guard == nil {
		return nil
	}
	var refused []Conflict
	for _, c := range s.Guard(f.log, ds) {
		d := &ds[c.New]
		if !d.Force {
			refused = append(refused, c)
			continue
		}
		if d.Objection == "" {
			d.Objection = fmt.Sprintf("[%s] contradicts decision %s (%s): %s; recorded with --force", s.day(), c.With.Name(), c.With.Title(), c.Why)
		}
	}
	if len(refused) > 0 {
		return &ConflictError{Conflicts: refused, New: ds}
	}
	return nil
}
