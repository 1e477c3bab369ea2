package boot

import (
	"fmt"
	"github.com/wakeproto/wake/budget"
	"github.com/wakeproto/wake/tiers"
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
		if rest, ok := strings.CutPrefix(f.Message, "purpose: "); ok && len(rest) >= 12 && shownWhole(c, tiers.MainPath, rest) {
			out[i].Message = "purpose: as in main.md below"
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

// shownWhole reports whether the context shows text in the file at path,
// whitespace aside (a paragraph wraps).
func shownWhole(c *Context, path, text string) bool {
	for _, f := range c.Files() {
		if f.Path == path && f.Held == "" {
			return strings.Contains(strings.Join(strings.Fields(f.Content), " "), strings.Join(strings.Fields(text), " "))
		}
	}
	return false
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

// announcedHandoff shows main.md's HANDOFF without what the announcement
// above it says (each fact once): a session_summary or next_priority the
// announcement holds reads "as announced". The file's own bytes are not
// touched; the view is recounted.
func (c *Context) announcedHandoff(counter budget.Counter) {
	if c.Announcement == "" {
		return
	}
	for _, f := range c.Files() {
		if f.Path != tiers.MainPath || f.Held != "" || f.Content == "" {
			continue
		}
		swap := func(text string) (string, bool) {
			lines := strings.SplitAfter(text, "\n")
			changed := false
			for i, l := range lines {
				for _, key := range []string{tiers.KeySessionSummary, tiers.KeyNextPriority} {
					value, ok := strings.CutPrefix(l, key+":")
					value = strings.TrimRight(strings.TrimSpace(value), ". ")
					if ok && len(value) >= 12 && strings.Contains(c.Announcement, value) {
						lines[i] = key + ": as announced" + l[len(strings.TrimRight(l, "\r\n")):]
						changed = true
					}
				}
			}
			return strings.Join(lines, ""), changed
		}
		if full, ok := swap(f.full); ok {
			f.full, f.bodyTokens = full, counter.Count(full)
		}
		if shown, ok := swap(f.Content); ok {
			f.Content, f.ShownTokens = shown, counter.Count(shown)
		}
	}
}
