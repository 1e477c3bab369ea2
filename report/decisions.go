package report

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/wakeproto/wake/policy"
	"github.com/wakeproto/wake/tiers"
)

// Decisions is the JSON of `wake decisions --format json`.
type Decisions struct {
	Version int        `json:"version"`
	Path    string     `json:"path"`
	Total   int        `json:"total"`
	Entries []Decision `json:"entries"`
	// Malformed lists the lines that are not part of a valid entry; none
	// when the log is held back.
	Malformed []Malformed `json:"malformed"`
	// HeldBack is the sensitivity level that holds the whole log back
	// ("secret", "confidential"): Entries is then empty, Total still counts.
	HeldBack string `json:"held_back,omitempty"`
	// Redacted counts by kind the secret-looking strings scrubbed from the
	// entries' texts.
	Redacted map[string]int `json:"redacted,omitempty"`
}

// Decision is one entry of the decision log.
type Decision struct {
	Number int `json:"number"`
	// ID names the entry for good; for an entry without an ID line, it is
	// the ID wake writes into it at its next write of the log, which
	// reverse, contest and uphold take already.
	ID string `json:"id"`
	// IDWritten is false when ID is not in the file yet.
	IDWritten  bool     `json:"id_written"`
	Line       int      `json:"line"`
	Date       string   `json:"date"`
	Decision   string   `json:"decision"`
	Because    string   `json:"because"`
	Status     string   `json:"status"`
	StatusLine bool     `json:"status_line"` // false: no STATUS line, read as active
	Topic      string   `json:"topic,omitempty"`
	ReversedBy string   `json:"reversed_by,omitempty"`
	Objection  string   `json:"objection,omitempty"`
	Proposed   string   `json:"proposed,omitempty"`
	Upheld     []string `json:"upheld,omitempty"`
	// Archived names the archive under cold/ that wake compact moved the
	// entry to; Number is then 0, the entry having none in the log, and
	// Line is its line in the archive.
	Archived string `json:"archived,omitempty"`
}

// Malformed is a line of the decision log that is not part of a valid
// entry, or a problem with an entry, as written.
type Malformed struct {
	Line   int    `json:"line"`
	Text   string `json:"text"`
	Reason string `json:"reason"`
}

// Shown is the entries `wake decisions` lists: every one with all, else
// the active and contested ones.
func Shown(log tiers.DecisionLog, all bool) []tiers.Decision {
	var shown []tiers.Decision
	for _, e := range log.Entries {
		if all || e.Active() || e.Status == tiers.StatusContested {
			shown = append(shown, e)
		}
	}
	return shown
}

// DecisionsJSON renders the shown entries of log as JSON; planned are the
// IDs wake gives entries without one at its next write, by number
// ([tiers.PlanIDs]); held is the level holding the log back, or "".
//
// With all, archived (the entries wake compact moved to the decisions
// archive) are listed after the log's own, marked archived.
func DecisionsJSON(log tiers.DecisionLog, planned map[int]string, held string, all bool, archived []tiers.Decision, redacted map[string]int) ([]byte, error) {
	out := Decisions{Version: Version, Path: tiers.DecisionsPath, Total: len(log.Entries), Entries: []Decision{}, Malformed: []Malformed{}, HeldBack: held}
	if held == "" {
		out.Redacted = redacted
	}
	if held != "" {
		return marshal(out)
	}
	for _, m := range log.Malformed {
		out.Malformed = append(out.Malformed, Malformed{Line: m.Line, Text: m.Text, Reason: m.Reason})
	}
	for _, e := range Shown(log, all) {
		id, written := entryID(e, planned)
		out.Entries = append(out.Entries, decisionJSON(e, id, written))
	}
	if all {
		out.Total += len(archived)
		for _, e := range archived {
			e.Number = 0
			out.Entries = append(out.Entries, decisionJSON(e, e.ID, true))
		}
	}
	return marshal(out)
}

// ArchivePath is where wake compact moves reversed decisions (the same
// path as store.DecisionsArchive, which report does not import).
const ArchivePath = "cold/archive/decisions.md"

// decisionJSON is entry e as JSON; an entry numbered 0 is an archived one
// (see [Decision.Archived]).
func decisionJSON(e tiers.Decision, id string, written bool) Decision {
	d := Decision{
		Number: e.Number, ID: id, IDWritten: written, Line: e.Line, Date: e.Date, Decision: e.What, Because: e.Why,
		Status: entryStatus(e), StatusLine: e.HasStatus(), Topic: e.Topic(), ReversedBy: e.ReversedBy(),
		Objection: e.Value(tiers.KeyObjection), Proposed: e.Value(tiers.KeyProposed), Upheld: e.Values(tiers.KeyUpheld),
	}
	if e.Number == 0 {
		d.Archived = ArchivePath
	}
	return d
}

// DecisionsText writes the shown entries of log, newest first, each with
// its number, status, ID and topic and its annotations (the page of them
// pg picks, with a line saying how to get the rest), then the counts; an
// ID from planned, not in the file yet, is marked "*" and explained. held
// is the level holding the log back, whose text is then never written.
// With all, archived (the entries wake compact moved to the decisions
// archive) follow the log's own, newest first, marked archived.
func DecisionsText(w io.Writer, log tiers.DecisionLog, planned map[int]string, held string, all bool, archived []tiers.Decision, redacted policy.Redactions, pg Pager) error {
	if held != "" {
		_, err := fmt.Fprintf(w, "%s is %s: its %d decision(s) are held back; wake shows none of their text.\n", tiers.DecisionsPath, held, len(log.Entries))
		return err
	}
	shown := slices.Clone(Shown(log, all))
	slices.Reverse(shown)
	blocks := make([]string, len(shown))
	marked := make([]bool, len(shown))
	for i, e := range shown {
		var b strings.Builder
		marked[i] = writeEntry(&b, e, planned)
		blocks[i] = b.String()
	}
	if !all {
		archived = nil
	}
	for i := len(archived) - 1; i >= 0; i-- {
		var b strings.Builder
		e := archived[i]
		e.Number = 0
		writeEntry(&b, e, nil)
		blocks = append(blocks, b.String())
		marked = append(marked, false)
	}
	p, err := pg.Cut(blocks)
	if err != nil {
		return err
	}
	unwritten := slices.Contains(marked[p.From:p.To], true)
	for _, b := range blocks[p.From:p.To] {
		io.WriteString(w, b)
	}
	if len(blocks) > 0 {
		fmt.Fprintln(w)
	}
	command := "wake decisions"
	if all {
		command += " --all"
	}
	io.WriteString(w, p.Footer("decisions, newest first,", command, "wake decisions ID"))
	counts := map[string]int{}
	for _, e := range log.Entries {
		counts[entryStatus(e)]++
	}
	if len(blocks) > 0 {
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "%d decisions: %d active, %d contested, %d reversed", len(log.Entries), counts[tiers.StatusActive], counts[tiers.StatusContested], counts[tiers.StatusReversed])
	if other := len(log.Entries) - counts[tiers.StatusActive] - counts[tiers.StatusContested] - counts[tiers.StatusReversed]; other > 0 {
		fmt.Fprintf(w, ", %d with an unknown status", other)
	}
	if len(archived) > 0 {
		fmt.Fprintf(w, "; %d archived in %s", len(archived), ArchivePath)
	}
	if !all && len(shown) < len(log.Entries) {
		fmt.Fprintf(w, " (--all lists every one)")
	}
	fmt.Fprintln(w, ".")
	if unwritten {
		fmt.Fprintln(w, "* written by hand: wake writes this id into the entry at its next write of the log; reverse, contest and uphold take it already.")
	}
	if r := redacted.Line(); r != "" {
		fmt.Fprintf(w, "%s: wake shows them so; take them out of %s.\n", strings.ToUpper(r[:1])+r[1:], tiers.DecisionsPath)
	}
	return nil
}

// writeEntry writes one entry as the listing shows it, and reports whether
// its ID is a planned one, not in the file yet. An entry numbered 0 is an
// archived one: it has no number in the log, and the line says where it is.
func writeEntry(w io.Writer, e tiers.Decision, planned map[int]string) (unwritten bool) {
	topic := ""
	if t := tiers.OneLine(e.Topic()); t != "" {
		topic = "  (topic: " + t + ")"
	}
	id, written := entryID(e, planned)
	if !written && id != "" {
		id, unwritten = id+"*", true
	}
	num := fmt.Sprintf("#%-3d", e.Number)
	if e.Number == 0 {
		num, topic = "#-  ", topic+"  (archived in "+ArchivePath+")"
	}
	fmt.Fprintf(w, "%s %-9s %-7s %s%s\n", num, entryStatus(e), id, e.Title(), topic)
	fmt.Fprintf(w, "     because: %s\n", tiers.OneLine(e.Why))
	for _, f := range []struct{ label, key string }{
		{"reversed by", tiers.KeyReversedBy}, {"objection", tiers.KeyObjection},
		{"proposed", tiers.KeyProposed}, {"upheld", tiers.KeyUpheld},
	} {
		for _, v := range e.Values(f.key) {
			fmt.Fprintf(w, "     %s: %s\n", f.label, tiers.OneLine(v))
		}
	}
	return unwritten
}

// entryID is the entry's ID and whether it is in the file: else the one
// planned for it, if any.
func entryID(e tiers.Decision, planned map[int]string) (string, bool) {
	if e.HasIDLine() {
		return e.ID, true
	}
	return planned[e.Number], false
}

// entryStatus is the entry's status, "active" when it has no STATUS line.
func entryStatus(e tiers.Decision) string {
	if e.Status == "" {
		return tiers.StatusActive
	}
	return e.Status
}

// DecisionEntries writes the entries es whole, as the listing shows each
// (the answer to `wake decisions ID`), whatever their status.
func DecisionEntries(w io.Writer, es []tiers.Decision, planned map[int]string) error {
	unwritten := false
	for _, e := range es {
		if writeEntry(w, e, planned) {
			unwritten = true
		}
	}
	if unwritten {
		fmt.Fprintln(w, "* written by hand: wake writes this id into the entry at its next write of the log; reverse, contest and uphold take it already.")
	}
	return nil
}
