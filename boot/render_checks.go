package boot

import (
	"fmt"
	"strings"

	"github.com/wakeproto/wake/checks"
)

// writeAnnouncement opens the context with what the instance says on
// waking.
func writeAnnouncement(b *strings.Builder, c *Context) {
	if c.Announcement == "" {
		return
	}
	b.WriteString(c.Announcement)
	b.WriteString("\n\n")
}

// writeChecks lists every finding of the coherence checks.
func writeChecks(b *strings.Builder, c *Context) {
	if len(c.Findings) == 0 {
		return
	}
	b.WriteString("\n## Coherence checks\n\n")
	WriteFindings(b, c.Findings)
}

// WriteFindings writes findings as a Markdown list, one item a finding with
// its details nested under it; a detail's further lines are indented
// beneath it.
func WriteFindings(b *strings.Builder, fs []checks.Finding) {
	for _, f := range fs {
		fmt.Fprintf(b, "- %s: %s. %s\n", f.Check, severityLabel(f.Severity), f.Message)
		for _, d := range f.Details {
			b.WriteString("  - ")
			b.WriteString(strings.ReplaceAll(d, "\n", "\n    "))
			b.WriteString("\n")
		}
	}
}

// severityLabel names a finding's outcome; a HALT says so in its message.
func severityLabel(s string) string {
	switch s {
	case checks.OK:
		return "pass"
	case checks.Warning:
		return "warning"
	}
	return "FAIL"
}
