package store

import (
	"bufio"
	"fmt"
	"time"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/policy/scrub"
	"github.com/wakeproto/wake/tiers"
)

// LedgerStart is the time of the ledger's first line, as a root's
// creation (wake init's line); zero when the ledger is missing, empty or
// its first line cannot be read. Only that line is read.
func LedgerStart(fsys afero.Fs, root string) time.Time {
	f, err := openLedger(fsys, root, false)
	if err != nil || f == nil {
		return time.Time{}
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		if e, ok, _ := parseLine(sc.Bytes(), n); ok {
			return e.At
		}
	}
	return time.Time{}
}

// ledgerDecisionVerbs are the ledger's operations on the decision log, as
// a session's "Decisions made" tells them.
var ledgerDecisionVerbs = map[string]string{"decide": "decided", "reverse": "reversed", "contest": "contested", "uphold": "upheld"}

// sessionLookback is how far before the previous hand-off a session's
// own decision lines are looked for: a session running beside another
// may have decided before the other handed off.
const sessionLookback = 24 * time.Hour

// SessionDecisionItems are the "Decisions made" items of the decision-log
// changes the ledger records at or after since (the whole ledger when
// since is zero), the previous hand-off's time: what a session decided,
// reversed, contested or upheld with wake's commands, one item a change,
// oldest first, each naming the entries by ID and title as the log holds
// them now. Of a log the sensitivity policy holds back, the IDs alone. A
// ledger or a log that cannot be read gives no items and the error.
//
// With the client's id of the session (session; "" when unknown), the
// lines naming another session are not its, and those naming it count
// from its own previous hand-off, up to a day before since, even when
// another session handed off in between.
func SessionDecisionItems(fsys afero.Fs, root string, since time.Time, session string) ([]string, error) {
	since = since.UTC().Truncate(time.Second)
	from := since
	if session != "" && !since.IsZero() {
		from = since.Add(-sessionLookback)
	}
	entries, _, err := ReadLedgerSince(fsys, root, from)
	if err != nil {
		return nil, err
	}
	// The previous hand-off's own line ends what came before it, even in
	// its second: only what the ledger holds after it is this session's;
	// with the session known, its own previous hand-off's line ends what
	// came before for the lines naming it.
	after, own := -1, -1
	for i, e := range entries {
		if e.Op != "handoff" {
			continue
		}
		if !e.At.Before(since) {
			after = i
		}
		if session != "" && e.Session == session {
			own = i
		}
	}
	var changes []Entry
	for i, e := range entries {
		if ledgerDecisionVerbs[e.Op] == "" || len(e.DecisionIDs) == 0 {
			continue
		}
		switch {
		case session != "" && e.Session == session:
			if i > own {
				changes = append(changes, e)
			}
		case session != "" && e.Session != "":
			// Another session's.
		case i > after && !e.At.Before(since):
			changes = append(changes, e)
		}
	}
	if len(changes) == 0 {
		return nil, nil
	}
	d, err := tiers.ReadDoc(fsys, root, tiers.DecisionsPath)
	if err != nil {
		return nil, err
	}
	byID := map[string]tiers.Decision{}
	if d.Readable() {
		for _, e := range tiers.SharedDecisions(d.Content).Entries {
			byID[e.ID] = e
		}
	}
	h, _, _ := tiers.ReadHead(fsys, root, tiers.DecisionsPath)
	held := h.MetaErr != "" || h.Meta.Level() == tiers.Secret || h.Meta.Level() == tiers.Confidential
	name := func(id string) string {
		e, ok := byID[id]
		switch {
		case held:
			return id + " (its text is held back)"
		case !ok:
			return id + " (no longer in " + tiers.DecisionsPath + ")"
		}
		what, _ := scrub.Text(tiers.OneLine(e.What))
		return fmt.Sprintf("%s: %s", id, what)
	}
	items := make([]string, 0, len(changes))
	for _, e := range changes {
		it := ledgerDecisionVerbs[e.Op] + " " + name(e.DecisionIDs[0])
		if e.Op == "decide" && !held {
			if x, ok := byID[e.DecisionIDs[0]]; ok && x.Why != "" {
				why, _ := scrub.Text(tiers.OneLine(x.Why))
				it += " because " + why
			}
		}
		if e.Op == "reverse" && len(e.DecisionIDs) > 1 {
			it += ", replaced by " + name(e.DecisionIDs[1])
		}
		items = append(items, it)
	}
	return items, nil
}
