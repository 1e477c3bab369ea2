package checks

import (
	"fmt"
	"strings"
	"time"

	"github.com/wakeproto/wake/store"
	"github.com/wakeproto/wake/tiers"
)

// Bounds that keep a huge decision log from making a huge or slow check.
const (
	maxMalformedShown = 20 // malformed lines listed in one warning
	maxListed         = 20 // contradicting pairs listed
	maxTopicShown     = 5  // entries quoted for one shared TOPIC
	// maxRecentCompared bounds the decisions a cold text is compared with
	// (see [AgainstRecent]), which the consistency check and the guard of
	// rule 1 never are: they compare every active decision, through the
	// index, however many there are.
	maxRecentCompared = 300
)

// CheckDecisions is check 4, deterministic and without a model: among the
// active entries of warm/decisions.md, none shares a TOPIC with another and
// none contradicts another (same words, a different choice or a negation);
// every reversed entry says what reversed it and nothing else does; no entry
// is contested; no two entries share an ID; and no entry wake wrote has been
// deleted or edited by hand since its last write (rule 2), whether found
// against wake's snapshot or, by its ID, against the ledger. Lines that are
// not part of an entry give a warning. Entries are named by number and ID.
func CheckDecisions(m Memory) []Finding {
	d := m.Decisions
	if !d.Missing && !d.Readable() {
		return []Finding{{Check: Consistency, Pass: true, Severity: Warning, Path: tiers.DecisionsPath,
			Message: "warm/decisions.md was not read, so its decisions were not checked: " + d.Skipped}}
	}
	log := tiers.SharedDecisions(d.Content)
	var problems []string
	problems = append(problems, sameTopic(log)...)
	contra := contradictionsOf(m.Contradictions, d.Content, log)
	problems = append(problems, contra...)
	problems = append(problems, statusProblems(log)...)
	problems = append(problems, duplicateIDs(log)...)
	// Only the head of a huge log was read: comparing it with wake's last
	// write, or with the ledger, would report the unread tail as deleted.
	compare := m.LastWrite != nil && !d.Huge
	var edits []tiers.HandEdit
	if compare {
		edits = tiers.FindHandEdits(m.LastWrite, d.Content)
		problems = append(problems, handEdits(edits)...)
	}
	if !d.Huge {
		problems = append(problems, vanished(store.Vanished(log, m.Written, edits, nil))...)
	}
	var out []Finding
	if len(problems) > 0 {
		out = append(out, Finding{Check: Consistency, Severity: Fail, Path: tiers.DecisionsPath, Message: MsgConsistency, Details: problems})
	} else {
		active := 0
		for _, e := range log.Entries {
			if e.Active() {
				active++
			}
		}
		msg := fmt.Sprintf("%d decisions, %d active: no contradictions, none contested", len(log.Entries), active)
		switch {
		case compare:
			msg += ", none edited by hand since wake's last write"
		case len(m.Written) > 0 && !d.Huge:
			msg += ", none the ledger records wake writing is missing"
		}
		out = append(out, Finding{Check: Consistency, Pass: true, Severity: OK, Path: tiers.DecisionsPath, Message: msg})
	}
	if d.Huge {
		out = append(out, Finding{Check: Consistency, Pass: true, Severity: Warning, Path: tiers.DecisionsPath,
			Message: fmt.Sprintf("warm/decisions.md is over %d MiB and only its head was read: later entries were not checked, nor compared with wake's last write", tiers.MaxDocBytes>>20)})
	}
	if m.WrittenSkipped != "" {
		out = append(out, Finding{Check: Consistency, Pass: true, Severity: Warning, Path: tiers.DecisionsPath,
			Message: "the ledger was not read, so entries wake wrote were not looked for by their IDs: " + m.WrittenSkipped})
	}
	if dup := duplicates(log); len(dup) > 0 {
		out = append(out, Finding{Check: Consistency, Pass: true, Severity: Warning, Path: tiers.DecisionsPath,
			Message: "active decisions with the same text: one of each set says nothing the other does not", Details: dup})
	}
	if len(log.Malformed) > 0 {
		out = append(out, malformed(log.Malformed))
	}
	return out
}

// duplicates describes active entries with the same decision text (case,
// spacing and a final period aside): what an uphold then a reverse to the
// same text leaves, or one decision recorded twice. They do not
// contradict, so the consistency check passes them; a reader still has to
// wonder which is meant, and reversing one leaves the other in force. It
// lists at most maxListed sets.
func duplicates(log tiers.DecisionLog) []string {
	var out []string
	for _, g := range activeGroups(log, func(e tiers.Decision) string {
		return strings.TrimSuffix(strings.ToLower(strings.Join(strings.Fields(tiers.OneLine(e.What)), " ")), ".")
	}) {
		if len(out) == maxListed {
			out = append(out, "and more")
			break
		}
		var nums []string
		for _, e := range g {
			nums = append(nums, e.Name())
		}
		out = append(out, fmt.Sprintf("entries %s are active with the same text %q; reverse the later ones as duplicates of entry %s ('wake reverse' keeps them as history)",
			andList(nums), tiers.OneLine(g[0].What), g[0].Name()))
	}
	return out
}

// activeGroups returns the sets of two or more entries in force that
// share a key ("" is no key), in the order their first entries come.
func activeGroups(log tiers.DecisionLog, key func(tiers.Decision) string) [][]tiers.Decision {
	groups := map[string][]tiers.Decision{}
	var order []string
	for _, e := range active(log) {
		k := key(e)
		if k == "" {
			continue
		}
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], e)
	}
	var out [][]tiers.Decision
	for _, k := range order {
		if g := groups[k]; len(g) >= 2 {
			out = append(out, g)
		}
	}
	return out
}

// active returns the entries in force.
func active(log tiers.DecisionLog) []tiers.Decision {
	var out []tiers.Decision
	for _, e := range log.Entries {
		if e.Active() {
			out = append(out, e)
		}
	}
	return out
}

func sameTopic(log tiers.DecisionLog) []string {
	var out []string
	for _, g := range activeGroups(log, func(e tiers.Decision) string { return strings.ToLower(tiers.OneLine(e.Topic())) }) {
		var nums, whats []string
		for i, e := range g {
			nums = append(nums, e.Name())
			if i < maxTopicShown {
				whats = append(whats, fmt.Sprintf("%d: %q", e.Number, tiers.OneLine(e.What)))
			}
		}
		if len(g) > maxTopicShown {
			whats = append(whats, "…")
		}
		all := "all"
		if len(g) == 2 {
			all = "both"
		}
		listed := andList(nums)
		if len(nums) > maxListed {
			listed = fmt.Sprintf("%s and %d more", strings.Join(nums[:maxListed], ", "), len(nums)-maxListed)
		}
		out = append(out, fmt.Sprintf("entries %s are %s active with TOPIC %q (%s); the one that no longer holds should be reversed",
			listed, all, tiers.OneLine(g[0].Topic()), strings.Join(whats, "; ")))
	}
	return out
}

// contradictions compares the pairs of active entries that can contradict
// (the candidates the index finds: the same findings as every pair),
// except pairs with a TOPIC each (the same TOPIC is reported above,
// different ones are different subjects), however old. It lists at most
// maxListed pairs.
func contradictions(log tiers.DecisionLog) (out []string) {
	act := active(log)
	c := newComparer()
	ps := make([]phrase, len(act))
	topics := make([]string, len(act))
	for i, e := range act {
		ps[i], topics[i] = c.phrase(e.What), tiers.OneLine(e.Topic())
	}
	found := 0
	// Only the pairs that can contradict, in the order of a loop over
	// every pair (see [candidates]).
	for _, pair := range candidates(ps) {
		i, j := pair[0], pair[1]
		if topics[i] != "" && topics[j] != "" {
			continue
		}
		why, ok := c.contradicts(ps[i], ps[j])
		if !ok {
			continue
		}
		if found++; found <= maxListed {
			a, b := act[i], act[j]
			out = append(out, fmt.Sprintf("entries %s and %s contradict: %q against %q (%s)", a.Name(), b.Name(), tiers.OneLine(a.What), tiers.OneLine(b.What), why))
		}
	}
	if found > maxListed {
		out = append(out, fmt.Sprintf("and %d more contradicting pairs", found-maxListed))
	}
	return out
}

func statusProblems(log tiers.DecisionLog) []string {
	var out []string
	for _, e := range log.Entries {
		rb := strings.TrimSpace(e.ReversedBy()) != ""
		switch {
		case e.Status == tiers.StatusReversed && !rb:
			out = append(out, fmt.Sprintf("entry %s (%s) is reversed but has no REVERSED_BY saying what replaced it and why", e.Name(), e.Title()))
		case e.Status != tiers.StatusReversed && rb && !tiers.StatusGiven(e, e.Status):
			// Contested with its REVERSED_BYs is what a merge makes of a
			// decision reversed differently on two branches, and active
			// with them one the user upheld since.
			out = append(out, fmt.Sprintf("entry %s (%s) has a REVERSED_BY but its STATUS is %s, not reversed", e.Name(), e.Title(), statusOf(e)))
		case e.Status == tiers.StatusContested:
			out = append(out, fmt.Sprintf("entry %s (%s) is contested and awaits the user: objection %q, proposed %q; the user settles it with 'wake reverse %s' or 'wake uphold %s'",
				e.Name(), e.Title(), tiers.OneLine(e.Value(tiers.KeyObjection)), tiers.OneLine(e.Value(tiers.KeyProposed)), e.Ref(), e.Ref()))
		}
	}
	return out
}

func statusOf(e tiers.Decision) string {
	if e.Status == "" {
		return "missing"
	}
	return e.Status
}

// handEdits describes entries wake wrote that were deleted or edited by
// hand, with the lines that are gone.
func handEdits(edits []tiers.HandEdit) []string {
	var out []string
	for _, h := range edits {
		what := "was edited by hand"
		if h.Deleted {
			what = "was deleted by hand"
		}
		var b strings.Builder
		fmt.Fprintf(&b, "entry %s as wake last wrote it (%s) %s, against rule 2 (annotate, don't delete); removed lines:", h.Name(), h.Title, what)
		for _, l := range h.Removed {
			fmt.Fprintf(&b, "\n%d: %s", l.Line, l.Text)
		}
		out = append(out, b.String())
	}
	return out
}

// vanished describes IDs the ledger records wake writing that no entry
// has: found without wake's snapshot, so by ID and the ledger line alone.
// It lists at most maxListed.
func vanished(gone []store.WrittenID) []string {
	var out []string
	for i, g := range gone {
		if i == maxListed {
			out = append(out, fmt.Sprintf("and %d more ids the ledger records wake writing are no longer in the log", len(gone)-maxListed))
			break
		}
		out = append(out, fmt.Sprintf("entry id %s, which the ledger records wake writing (%s %s: %q), is no longer in the log: deleted by hand or its ID line edited, against rule 2 (annotate, don't delete); put it back with its ID line",
			g.ID, g.Op, g.At.UTC().Format(time.RFC3339), g.ChangeSummary))
	}
	return out
}

// duplicateIDs describes IDs more than one entry has: a copy made by hand
// keeps its original's, and an ID must name one entry.
func duplicateIDs(log tiers.DecisionLog) []string {
	var out []string
	for _, g := range log.DuplicateIDs() {
		var which []string
		for _, e := range g {
			which = append(which, fmt.Sprintf("%d (%s)", e.Number, e.Title()))
		}
		all := "all"
		if len(g) == 2 {
			all = "both"
		}
		out = append(out, fmt.Sprintf("entries %s %s have ID %s, which must name one entry: likely a copy made by hand, or a merge of branches that each wrote an entry with that ID without wake's merge driver ('wake init' sets it up); remove the ID line of the later entry, and wake gives it an ID of its own at its next write",
			andList(which), all, g[0].ID))
	}
	return out
}

func malformed(ms []tiers.MalformedLine) Finding {
	f := Finding{Check: Consistency, Pass: true, Severity: Warning, Path: tiers.DecisionsPath,
		Message: fmt.Sprintf("%d line(s) of warm/decisions.md are not part of a valid entry; they are kept as written", len(ms))}
	for i, m := range ms {
		if i == maxMalformedShown {
			f.Details = append(f.Details, fmt.Sprintf("and %d more", len(ms)-maxMalformedShown))
			break
		}
		f.Details = append(f.Details, fmt.Sprintf("line %d: %s: %s", m.Line, m.Reason, m.Text))
	}
	return f
}

// andList joins "1", "2", "3" as "1, 2 and 3".
func andList(xs []string) string {
	if len(xs) < 2 {
		return strings.Join(xs, "")
	}
	return strings.Join(xs[:len(xs)-1], ", ") + " and " + xs[len(xs)-1]
}

// Conflicts finds, for decisions about to be appended, the active entries
// of log each would contradict, as the consistency check would find them
// once written: the same TOPIC, or (unless both have a TOPIC) a text that
// contradicts. It compares with every active entry, the oldest too, as
// the check does. It is the guard of rule 1 at write time
// ([store.Guard]).
func Conflicts(log tiers.DecisionLog, ds []store.NewDecision) []store.Conflict {
	act := active(log)
	c := newComparer()
	ps := make([]phrase, len(act))
	index := map[keyHash][]int{}
	for i, e := range act {
		ps[i] = c.phrase(e.What)
		for _, k := range keys(ps[i]) {
			if ids := index[k]; len(ids) == 0 || ids[len(ids)-1] != i {
				index[k] = append(ids, i)
			}
		}
	}
	var out []store.Conflict
	for i, d := range ds {
		topic := strings.ToLower(tiers.OneLine(d.Topic))
		p := c.phrase(d.What)
		// Only the entries that share a key with it can contradict it
		// (see [candidates]).
		candidate := map[int]bool{}
		for _, k := range keys(p) {
			for _, j := range index[k] {
				candidate[j] = true
			}
		}
		for j, e := range act {
			other := strings.ToLower(tiers.OneLine(e.Topic()))
			switch {
			case topic != "" && topic == other:
				out = append(out, store.Conflict{New: i, With: e, Why: fmt.Sprintf("both have TOPIC %q", tiers.OneLine(e.Topic()))})
			case topic != "" && other != "":
			case !candidate[j]:
			default:
				if why, ok := c.contradicts(p, ps[j]); ok {
					out = append(out, store.Conflict{New: i, With: e, Why: why})
				}
			}
		}
	}
	return out
}
