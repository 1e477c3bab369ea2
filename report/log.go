package report

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/wakeproto/wake"
	"github.com/wakeproto/wake/policy"
	"github.com/wakeproto/wake/store"
	"github.com/wakeproto/wake/tiers"
)

// Log is the JSON of `wake log --format json`.
type Log struct {
	Version  int           `json:"version"`
	Entries  []LedgerEntry `json:"entries"`   // newest first
	HeldBack int           `json:"held_back"` // entries touching a secret document
	Skipped  []BadLine     `json:"skipped"`   // lines that could not be read
	// Redacted counts by kind the secret-looking strings scrubbed from the
	// entries shown.
	Redacted map[string]int `json:"redacted,omitempty"`
}

// BadLine is a ledger line that could not be read.
type BadLine struct {
	Line int    `json:"line"`
	Err  string `json:"error"`
}

// LogJSON renders ledger entries as JSON.
func LogJSON(entries []store.Entry, held int, bad []store.BadLine, redacted map[string]int) ([]byte, error) {
	out := Log{Version: Version, Entries: newEntries(entries), HeldBack: held, Skipped: []BadLine{}, Redacted: redacted}
	for _, b := range bad {
		out.Skipped = append(out.Skipped, BadLine{Line: b.Line, Err: b.Err})
	}
	return marshal(out)
}

// LogText writes one line an entry, the page of them pg picks with a
// line saying how to get the rest, then what was held back; f is the
// selection, named when it left no entry.
// The ledger can be edited by hand, so its text is made printable: no
// terminal escape reaches the terminal (the JSON escapes them instead).
func LogText(w io.Writer, entries []store.Entry, held int, redacted policy.Redactions, f wake.LogFilter, pg Pager) error {
	var b strings.Builder
	if len(entries) == 0 {
		var parts []string
		if f.Since > 0 {
			parts = append(parts, " in the last "+f.Since.String())
		}
		if f.Op != "" {
			parts = append(parts, " with op "+f.Op)
		}
		b.WriteString("No ledger entries" + strings.Join(parts, "") + ".\n")
	}
	lines := make([]string, len(entries))
	for i, e := range entries {
		var l strings.Builder
		fmt.Fprintf(&l, "%s  %-8s  %s", e.At.UTC().Format(time.RFC3339), e.Op, e.ChangeSummary)
		if len(e.Paths) > 0 {
			fmt.Fprintf(&l, "  [%s]", strings.Join(e.Paths, ", "))
		}
		if e.Summary != "" {
			fmt.Fprintf(&l, "  summary: %s", e.Summary)
		}
		lines[i] = tiers.Printable(l.String()) + "\n"
	}
	p, err := pg.Cut(lines)
	if err != nil {
		return err
	}
	for _, l := range lines[p.From:p.To] {
		b.WriteString(l)
	}
	b.WriteString(p.Footer("entries, newest first,", "wake log", "--since DURATION", "--op OP"))
	if held > 0 {
		what := "entries"
		if held == 1 {
			what = "entry"
		}
		fmt.Fprintf(&b, "Held back: %d %s touching secret documents.\n", held, what)
	}
	if r := redacted.Line(); r != "" {
		fmt.Fprintf(&b, "%s.\n", strings.ToUpper(r[:1])+r[1:])
	}
	_, err = io.WriteString(w, b.String())
	return err
}
