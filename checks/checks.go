// Package checks runs the Wake Protocol's four coherence checks (DESIGN
// section 4) on a memory root's documents: identity, continuity, task
// awareness and decision consistency. It returns findings and the
// announcement an instance makes on waking; it never prints and never picks
// an exit status.
package checks

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/store"
	"github.com/wakeproto/wake/tiers"
)

// The four checks, in the order they run.
const (
	Identity    = "identity"
	Continuity  = "continuity"
	Tasks       = "task_awareness"
	Consistency = "decision_consistency"
)

// Inbox names the findings on the entries of warm/inbox.md that wake check
// reports besides the four checks (a number two entries share).
const Inbox = "inbox"

// Severities of a finding. OK and Warning pass; Fail and Halt do not.
const (
	OK      = "ok"
	Warning = "warning"
	Fail    = "fail"
	Halt    = "halt"
)

// The failure messages of the checks and the announcements, word for word.
const (
	MsgIdentity    = "HALT. main.md is missing or incoherent. Ask the user to describe the project."
	MsgContinuity  = "Woke without recent context. Operating from warm state only."
	MsgTasks       = "No active tasks. Ask the user for direction."
	MsgConsistency = "Decisions contradict each other. Flag them to the user before continuing; do not silently pick a side."
	MsgFirstWake   = "First session. No prior context. Starting fresh."
)

// Finding is one result of a check. A failing check gives one finding with
// its failure message and the particulars in Details; warnings are findings
// of their own that do not fail the check.
type Finding struct {
	Check    string
	Kind     string // for a warning that has one: KindStale, the drift kinds
	Pass     bool
	Severity string
	Path     string
	Message  string
	Details  []string
}

// Report is the outcome of all four checks.
type Report struct {
	Findings []Finding
	// Announcement is what the instance says on waking: "Resumed. …"
	// when every check passed, the failures plainly otherwise, opening
	// with "First session. …" on a first wake. One line per statement.
	Announcement string
	FirstWake    bool
	LastSession  string // the HANDOFF session_summary, one line
	Focus        string // next_priority, else the first open task
	// Redacted counts by kind the secret-looking strings the sensitivity
	// policy scrubbed from what the findings quote.
	Redacted map[string]int
}

// Halted reports whether a check called for a HALT.
func (r Report) Halted() bool { return r.any(Halt) }

// Failed reports whether any check failed, HALT included.
func (r Report) Failed() bool { return r.any(Fail) || r.any(Halt) }

func (r Report) any(sev string) bool {
	for _, f := range r.Findings {
		if f.Severity == sev {
			return true
		}
	}
	return false
}

// Memory holds the documents the checks read.
type Memory struct {
	Main, Latest, Tasks, Decisions tiers.Doc
	Questions                      tiers.Doc // for the drift findings only
	// LastWrite is the decision log as wake last wrote it; nil when wake
	// has not written it (or its state directory was deleted).
	LastWrite []byte
	// Written are the decision IDs the ledger records wake writing: an
	// entry deleted by hand is found by its ID even without LastWrite.
	Written []store.WrittenID
	// WrittenSkipped says why the ledger was not read for them; "" when
	// it was (or there is none).
	WrittenSkipped string
	// Contradictions keeps the contradiction check's findings between
	// runs; nil compares the decisions every time.
	Contradictions *ContradictionCache
}

// Options configure the checks.
type Options struct {
	StaleAfter time.Duration    // a HANDOFF older than this is flagged; 0 disables
	Now        func() time.Time // the clock; nil disables the staleness finding
	Drift      DriftOptions
}

// ReadMemory reads the documents the checks need from the root.
func ReadMemory(fsys afero.Fs, root string) (Memory, error) {
	var m Memory
	for _, d := range []struct {
		rel string
		doc *tiers.Doc
	}{{tiers.MainPath, &m.Main}, {tiers.LatestPath, &m.Latest}, {tiers.TasksPath, &m.Tasks}, {tiers.DecisionsPath, &m.Decisions}, {tiers.QuestionsPath, &m.Questions}} {
		doc, err := tiers.ReadDoc(fsys, root, d.rel)
		if err != nil {
			return m, err
		}
		*d.doc = doc
	}
	m.Written, m.WrittenSkipped = ReadWritten(fsys, root)
	last, err := ReadLastWrite(fsys, root)
	m.LastWrite = last
	return m, err
}

// ReadWritten reads the decision IDs the ledger records wake writing. A
// ledger that cannot be read gives none, and the reason: the checks then
// say that they could not look for entries deleted by hand that way.
func ReadWritten(fsys afero.Fs, root string) ([]store.WrittenID, string) {
	ws, err := store.WrittenDecisionIDs(fsys, root)
	if err != nil {
		return nil, err.Error()
	}
	// Entries wake compact moved to the archive were not deleted: they are
	// not looked for in the log.
	ids, err := store.ArchivedDecisionIDs(fsys, root)
	if err != nil {
		return nil, err.Error()
	}
	kept := ws[:0]
	for _, w := range ws {
		if !ids.Has(w.ID) {
			kept = append(kept, w)
		}
	}
	return kept, ""
}

// ReadLastWrite reads wake's snapshot of the decision log, nil when absent
// or while a write of the log is in progress (its record is in the state
// directory): the snapshot is replaced just after the log, and comparing
// the two in between would report wake's own change as a hand edit.
func ReadLastWrite(fsys afero.Fs, root string) ([]byte, error) {
	if _, err := fsys.Stat(filepath.Join(root, tiers.StateDir, store.DecisionsPending)); err == nil {
		return nil, nil
	}
	data, err := tiers.ReadOwn(fsys, root, tiers.StateDir+"/"+store.DecisionsSnapshot)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading %s/%s: %w", tiers.StateDir, store.DecisionsSnapshot, err)
	}
	return data, nil
}

// Run runs the four checks in order, then the drift findings, and
// composes the announcement.
func Run(m Memory, o Options) Report {
	var fs []Finding
	fs = append(fs, CheckIdentity(m)...)
	fs = append(fs, CheckContinuity(m, o)...)
	fs = append(fs, CheckTasks(m)...)
	fs = append(fs, CheckDecisions(m)...)
	fs = append(fs, CheckDrift(m, o.Drift)...)
	h := handoffOf(m)
	r := Report{Findings: fs, FirstWake: firstWake(m, h), LastSession: tiers.OneLine(h.Get(tiers.KeySessionSummary)), Focus: Focus(m)}
	r.Announcement = Announce(r)
	return r
}

// firstWake is a root with no prior memory (DESIGN section 4, the
// protocol's bootstrap edge case): no summary in recent/, a HANDOFF block
// never filled in and no decision logged. The open tasks do not count:
// wake init asks for a first task before the first session, and a root
// filled in as it says is still a first session (issue 27, point 4). A
// root with decisions but no hand-off has context a session left, and
// saying "No prior context" there would tell the instance to ignore it.
func firstWake(m Memory, h tiers.Handoff) bool {
	if hasSession(m.Latest) || h.Get(tiers.KeySessionSummary) != "" || h.Get(tiers.KeyUpdated) != "" {
		return false
	}
	if !m.Main.Readable() && !m.Main.Missing {
		// A HANDOFF that cannot be read may hold a session's.
		return false
	}
	return !m.Decisions.Readable() || len(tiers.SharedDecisions(m.Decisions.Content).Entries) == 0
}

// Announce is what an instance says on waking with the findings of r: the
// first-wake line, the failed checks' messages, or "Resumed. …".
func Announce(r Report) string {
	var lines []string
	if r.FirstWake {
		lines = append(lines, MsgFirstWake)
	}
	for _, f := range r.Findings {
		if f.Severity == Halt || f.Severity == Fail {
			lines = append(lines, f.Message)
		}
	}
	if len(lines) == 0 {
		// Every check passed, so continuity found a session_summary and
		// task awareness a focus.
		lines = append(lines, fmt.Sprintf("Resumed. Last session: %s. Current focus: %s.", strings.TrimRight(r.LastSession, ". "), strings.TrimRight(r.Focus, ". ")))
	}
	return strings.Join(lines, "\n")
}

func handoffOf(m Memory) tiers.Handoff {
	if !m.Main.Readable() {
		return tiers.Handoff{}
	}
	return tiers.ParseMain(m.Main.Content).Handoff
}
