package merge

import (
	"fmt"
	"strings"

	"github.com/wakeproto/wake/tiers"
)

// Reidentified is an entry a merge gave a new ID: the two branches each
// had an entry with its ID, two different decisions (an old short ID
// derived from the same date on both, or an entry copied and rewritten).
type Reidentified struct {
	Was, Now string
	What     string // the decision, as its DECISION line says it
}

// twins are the entries of the two sides that share an ID and are two
// decisions, and what the merge does with them: one side's keeps the ID,
// the other's is re-identified (renamed), or is already in the other side
// under the ID an earlier merge gave it (alias).
type twins struct {
	oursNew, theirsNew map[string]string // entry key: its new ID
	// alias maps the key of an entry of ours to the key of theirs that is
	// the same decision under the ID ours no longer gives it.
	alias    map[string]string
	aliased  map[string]bool // keys of theirs merged into an alias of ours
	reIDs    []Reidentified
	notes    []string
	takenIDs tiers.IDSet
}

// findTwins pairs the entries of ours and theirs that share an ID but not
// their DECISION line. Each pair stays two entries: the one base had under
// the ID keeps it, else the earlier (by date, then text); the other gets a
// new ID, derived as wake derives IDs, so that a merge of the same two in
// either direction, or replayed by a rebase, gives the same. An entry the
// other side already holds under a new ID (an earlier merge) is merged
// with it instead.
func findTwins(opts Options, b, us, them side) twins {
	tw := twins{oursNew: map[string]string{}, theirsNew: map[string]string{}, alias: map[string]string{},
		aliased: map[string]bool{}, takenIDs: tiers.IDSet{}}
	for _, s := range []side{us, them} {
		for _, e := range s.log.Entries {
			if e.ID != "" {
				tw.takenIDs.Add(e.ID)
			}
		}
	}
	for _, ke := range orderedKeys(us) {
		o := ke.Decision
		t, ok := them.keys[ke.key]
		if !ok || o.ID == "" || sameText(firstLineOf(o.Raw), firstLineOf(t.Raw)) {
			continue
		}
		// The other side may hold this side's entry already, re-identified
		// by an earlier merge: then it is that entry.
		if k, ok := holding(us, t, ke.key); ok {
			tw.alias[k] = ke.key
			tw.aliased[ke.key] = true
			continue
		}
		if k, ok := holding(them, o, ke.key); ok {
			tw.oursNew[ke.key] = them.keys[k].ID
			continue
		}
		be, inBase := b.keys[ke.key]
		renameOurs := later(o, t)
		switch {
		case inBase && sameText(firstLineOf(be.Raw), firstLineOf(o.Raw)):
			renameOurs = false
		case inBase && sameText(firstLineOf(be.Raw), firstLineOf(t.Raw)):
			renameOurs = true
		}
		ourSide, theirSide := opts.sides()
		e, side, news := t, theirSide, tw.theirsNew
		if renameOurs {
			e, side, news = o, ourSide, tw.oursNew
		}
		id := tiers.DeriveID(writerOf(e.ID), e.Date, e.What, func(id string) bool { return tw.takenIDs.Has(id) })
		tw.takenIDs.Add(id)
		news[ke.key] = id
		tw.reIDs = append(tw.reIDs, Reidentified{Was: e.ID, Now: id, What: tiers.OneLine(e.What)})
		tw.notes = append(tw.notes, fmt.Sprintf("decision %s of %s (%s) is now %s: both branches had a decision %s, two different ones", e.ID, side, tiers.OneLine(e.What), id, e.ID))
	}
	return tw
}

// holding finds the entry of s, under a key other than not, that is e's
// decision: the same DECISION line.
func holding(s side, e tiers.Decision, not string) (string, bool) {
	for k, x := range s.keys {
		if k != not && strings.HasPrefix(k, "id:") && sameText(firstLineOf(x.Raw), firstLineOf(e.Raw)) {
			return k, true
		}
	}
	return "", false
}

// later reports whether a is the later of two entries: by date, then by
// its DECISION line.
func later(a, b tiers.Decision) bool {
	if a.Date != b.Date {
		return a.Date > b.Date
	}
	return normal(firstLineOf(a.Raw)) > normal(firstLineOf(b.Raw))
}

// writerOf is the writer id a long decision ID ends with, "" for a short
// one.
func writerOf(id string) string {
	parts := strings.SplitN(id, "-", 3)
	if len(parts) == 3 {
		return parts[2]
	}
	return ""
}

// withID is the entry's bytes with its first ID line's value replaced.
func withID(e tiers.Decision, id string) string {
	for _, f := range e.Fields {
		if f.Key == tiers.KeyID {
			start, end := f.First.Start-e.Bytes.Start, f.First.End-e.Bytes.Start
			return e.Raw[:start] + id + e.Raw[end:]
		}
	}
	return e.Raw
}
