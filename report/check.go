package report

import (
	"strings"

	"github.com/wakeproto/wake/boot"
	"github.com/wakeproto/wake/checks"
	"github.com/wakeproto/wake/policy"
)

// Check outcomes and the exit statuses DESIGN section 8 gives them.
const (
	CheckPass = "pass" // exit 0
	CheckFail = "fail" // exit 3
	CheckHalt = "halt" // exit 4
)

// Check is the JSON of `wake check --format json`.
type Check struct {
	Version      int       `json:"version"`
	Root         string    `json:"root"`
	Outcome      string    `json:"outcome"`
	ExitStatus   int       `json:"exit_status"`
	Findings     []Finding `json:"findings"`
	Announcement string    `json:"announcement"`
	FirstWake    bool      `json:"first_wake"`
	LastSession  string    `json:"last_session"` // the HANDOFF session_summary, one line
	Focus        string    `json:"focus"`        // next_priority, else the first open task
	Drift        Drift     `json:"drift"`
	// Redacted counts by kind the secret-looking strings scrubbed from
	// what the findings quote.
	Redacted map[string]int `json:"redacted,omitempty"`
}

// Drift is the drift warnings by kind: signs that the memory drifted from
// the project or from the protocol. None of them fails the check.
type Drift struct {
	MissingPaths []DriftItem `json:"missing_paths"` // file paths the memory names that the project lacks
	StaleHandoff []DriftItem `json:"stale_handoff"` // a HANDOFF older than checks.stale_after
	Placeholders []DriftItem `json:"placeholders"`  // hand-off fields left as TBD, TODO, ... or empty
	OverBudget   []DriftItem `json:"over_budget"`   // warm files cut to fit for sessions running
	// Secrets are the tier files holding secret-looking strings, with the
	// line and kind of each (never the value).
	Secrets []DriftItem `json:"secrets"`
}

// DriftItem is one drift warning: the file it is about, what it says and
// its particulars (the missing paths, the placeholder fields).
type DriftItem struct {
	Path    string   `json:"path"`
	Message string   `json:"message"`
	Details []string `json:"details"`
}

func newDrift(fs []checks.Finding) Drift {
	d := Drift{MissingPaths: []DriftItem{}, StaleHandoff: []DriftItem{}, Placeholders: []DriftItem{}, OverBudget: []DriftItem{}, Secrets: []DriftItem{}}
	for _, f := range fs {
		var to *[]DriftItem
		switch f.Kind {
		case checks.KindMissingPath:
			to = &d.MissingPaths
		case checks.KindStale:
			to = &d.StaleHandoff
		case checks.KindPlaceholder:
			to = &d.Placeholders
		case checks.KindOverBudget:
			to = &d.OverBudget
		case policy.KindSecret:
			to = &d.Secrets
		default:
			continue
		}
		*to = append(*to, DriftItem{Path: f.Path, Message: f.Message, Details: strs(f.Details)})
	}
	return d
}

// CheckOutcome is the outcome of r and its exit status.
func CheckOutcome(r checks.Report) (string, int) {
	switch {
	case r.Halted():
		return CheckHalt, 4
	case r.Failed():
		return CheckFail, 3
	}
	return CheckPass, 0
}

// CheckJSON renders the checks' report on root as JSON.
func CheckJSON(root string, r checks.Report) ([]byte, error) {
	outcome, status := CheckOutcome(r)
	return marshal(Check{
		Version: Version, Root: root, Outcome: outcome, ExitStatus: status, Findings: newFindings(r.Findings),
		Announcement: r.Announcement, FirstWake: r.FirstWake, LastSession: r.LastSession, Focus: r.Focus,
		Drift: newDrift(r.Findings), Redacted: r.Redacted,
	})
}

// CheckText renders the checks' report as the Markdown list of findings
// the boot context also shows, then the announcement.
func CheckText(r checks.Report) string {
	var b strings.Builder
	boot.WriteFindings(&b, r.Findings)
	b.WriteString("\n" + r.Announcement + "\n")
	if line := policy.Redactions(r.Redacted).Line(); line != "" {
		b.WriteString(strings.ToUpper(line[:1]) + line[1:] + " from what the findings quote.\n")
	}
	return b.String()
}
