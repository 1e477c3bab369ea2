package boot

import (
	"fmt"
	"slices"
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
	WriteFindings(b, shownFindings(c))
}

// shownFindings are the checks' findings as the boot context shows them:
// a passing check's message says "as announced" where it would repeat
// the last session's summary or the current focus, which the
// announcement above it gives (each fact once). `wake check` shows them
// whole.
func shownFindings(c *Context) []checks.Finding {
	out := slices.Clone(c.Findings)
	for i, f := range out {
		if f.Severity != checks.OK {
			continue
		}
		for _, prefix := range []string{"last session: ", "current focus: "} {
			rest, ok := strings.CutPrefix(f.Message, prefix)
			if !ok {
				continue
			}
			// The focus is followed by "; N open in ...", the summary by
			// nothing: it may hold a semicolon of its own.
			value, tail := rest, ""
			if j := strings.LastIndex(rest, "; "); prefix == "current focus: " && j >= 0 {
				value, tail = rest[:j], rest[j:]
			}
			if value = strings.TrimSpace(value); len(value) >= 12 && strings.Contains(c.Announcement, strings.TrimRight(value, ". ")) {
				out[i].Message = prefix + "as announced" + tail
			}
		}
	}
	return out
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
