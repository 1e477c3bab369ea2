package boot

import (
	"fmt"
	"strings"

	"github.com/wakeproto/wake/budget"
	"github.com/wakeproto/wake/protocol"
	"github.com/wakeproto/wake/tiers"
)

// markdownHead is the boot context but its last line, the only one that
// shows the context's own token count.
func markdownHead(c *Context) string {
	var b strings.Builder
	c.sections = c.sections[:0]
	mark := func(title string) {
		c.sections = append(c.sections, Section{Title: title, start: b.Len()})
	}
	mark(announcement)
	writeAnnouncement(&b, c)
	for _, d := range c.Directives {
		b.WriteString(d)
		b.WriteString("\n")
	}
	if len(c.Directives) > 0 {
		b.WriteString("\n")
	}
	mark("Boot context")
	b.WriteString("# Boot context\n\n")
	fmt.Fprintf(&b, "Memory root: %s\n", c.Root)
	if len(c.Findings) > 0 {
		mark("Coherence checks")
	}
	writeChecks(&b, c)
	if c.Card != "" {
		mark(strings.TrimPrefix(protocol.Title, "## "))
		fmt.Fprintf(&b, "\n%s\n\n%s", protocol.Title, c.Card)
	}
	for _, p := range c.Phases {
		mark(fmt.Sprintf("Phase %d: %s", p.Number, p.Name))
		fmt.Fprintf(&b, "\n## Phase %d: %s (%s of %s tokens)\n", p.Number, p.Name, budget.Thousands(p.Tokens), budget.Thousands(p.Budget))
		for _, f := range p.Files {
			mark(f.Path)
			writeFile(&b, f)
		}
	}
	if c.Trajectory != nil {
		mark(strings.TrimPrefix(TrajectoryTitle, "## "))
		writeTrajectory(&b, c)
	}
	if c.Reminders != nil {
		mark(strings.TrimPrefix(RemindersTitle, "## "))
		writeReminders(&b, c)
	}
	if h := c.HeldBack.Line(); h != "" {
		mark("Held back")
		fmt.Fprintf(&b, "\n%s\n", h)
	}
	mark("Phase 4: cold")
	writeCold(&b, c)
	if c.Digest != nil {
		mark("Changes in the last " + c.Digest.Window)
	}
	writeDigest(&b, c)
	if len(c.Warnings) > 0 {
		mark("Warnings")
	}
	writeWarnings(&b, c.Warnings)
	mark("Budget") // with the output line after it
	writeFooter(&b, c)
	return b.String()
}

func writeFile(b *strings.Builder, f *File) {
	switch {
	case f.Missing:
		fmt.Fprintf(b, "\n### %s (missing)\n", f.Path)
		return
	case f.Held == tiers.Secret && f.doc.MetaErr != nil:
		fmt.Fprintf(b, "\n### %s (held back: its front matter cannot be read, so its sensitivity is unknown)\n", f.Path)
		return
	case f.Held == tiers.Secret:
		fmt.Fprintf(b, "\n### %s (held back: sensitivity secret)\n", f.Path)
		return
	case f.Held == tiers.Confidential:
		fmt.Fprintf(b, "\n### %s (confidential: summary only, %s tokens)\n\n", f.Path, budget.Thousands(f.Tokens))
	case f.Skipped != "" || f.withheld:
		reason := f.Skipped
		if reason == "" {
			reason = fmt.Sprintf("withheld: %s tokens would pass the memory maximum", budget.Thousands(f.Tokens))
		}
		fmt.Fprintf(b, "\n### %s (not shown: %s)\n", f.Path, reason)
		return
	case f.Truncated:
		fmt.Fprintf(b, "\n### %s (%s tokens, cut to %s)\n\n", f.Path, budget.Thousands(f.Tokens), budget.Thousands(f.ShownTokens))
	case f.ShownTokens != f.bodyTokens:
		// Shown whole, as a view: the decision log newest first.
		fmt.Fprintf(b, "\n### %s (%s tokens, shown in %s)\n\n", f.Path, budget.Thousands(f.Tokens), budget.Thousands(f.ShownTokens))
	default:
		fmt.Fprintf(b, "\n### %s (%s tokens)\n\n", f.Path, budget.Thousands(f.Tokens))
	}
	b.WriteString(f.Content)
	if !strings.HasSuffix(f.Content, "\n") {
		b.WriteString("\n")
	}
}

func writeWarnings(b *strings.Builder, warnings []string) {
	if len(warnings) == 0 {
		return
	}
	b.WriteString("\n## Warnings\n\n")
	for _, w := range warnings {
		fmt.Fprintf(b, "- %s\n", w)
	}
}

func writeFooter(b *strings.Builder, c *Context) {
	t := c.Totals
	b.WriteString("\n## Budget\n\n")
	b.WriteString("| tier | tokens | budget |\n|---|---:|---:|\n")
	for _, p := range c.Phases {
		fmt.Fprintf(b, "| %s | %s | %s |\n", p.Tier, budget.Thousands(p.Tokens), budget.Thousands(p.Budget))
	}
	writeExtraRows(b, c)
	fmt.Fprintf(b, "| memory | %s | target %s, max %s |\n\n", budget.Thousands(t.Memory), budget.Thousands(t.Target), budget.Thousands(t.Max))
	if t.Memory > t.Target {
		fmt.Fprintf(b, "Warning: the memory loaded is %s tokens, over budget.memory_target (%s): compress the largest files, or move what is settled to cold/.\n\n",
			budget.Thousands(t.Memory), budget.Thousands(t.Target))
	}
}

// outputLine ends the context with its own size. It starts a line after a
// blank one, so that with the usual encodings the head and this line count
// the same tokens apart as together.
func outputLine(c *Context) string {
	t := c.Totals
	return fmt.Sprintf("This context: %s tokens. Left for work: %s of %s (at least %s required).\n",
		budget.Thousands(t.Output), budget.Thousands(t.WorkLeft), budget.Thousands(t.ContextWindow), budget.Thousands(t.WorkMin))
}

// Status renders one line per tier file with its tokens, its share of the
// tier's budget and a gauge, then the tier and total lines. A file over the
// read limit is flagged: only its head is counted. The memory line counts
// the tier files only, whole, before any compression: status measures the
// files against their budgets, while `wake load` adds the cold table of
// contents and the digest and fits everything, and its footer gives that
// total. The last line says so.
func Status(c *Context) string {
	var b strings.Builder
	w := len(statusMemory)
	for _, f := range c.Files() {
		w = max(w, len(f.Path))
	}
	for _, p := range c.Phases {
		for _, f := range p.Files {
			fmt.Fprintf(&b, "%-*s  %8s / %-8s %s%s\n", w, f.Path, fileTokens(f), budget.Thousands(f.Share), gauge(f.Tokens, f.Share), hugeNote(f))
		}
	}
	b.WriteString("\n")
	for _, p := range c.Phases {
		fmt.Fprintf(&b, "%-*s  %8s / %-8s %s\n", w, p.Tier+" tier", budget.Thousands(tierTokens(p)), budget.Thousands(p.Budget), gauge(tierTokens(p), p.Budget))
	}
	all := 0
	for _, p := range c.Phases {
		all += tierTokens(p)
	}
	fmt.Fprintf(&b, "%-*s  %8s / %-8s %s\n", w, statusMemory, budget.Thousands(all), budget.Thousands(c.Totals.Target), gauge(all, c.Totals.Target))
	fmt.Fprintf(&b, "\nmax %s tokens; %s of the %s-token window left for work (at least %s required)\n",
		budget.Thousands(c.Totals.Max), budget.Thousands(c.Totals.ContextWindow-all), budget.Thousands(c.Totals.ContextWindow), budget.Thousands(c.Totals.WorkMin))
	fmt.Fprintf(&b, "%s counts the tier files whole, before compression; 'wake load' also adds the cold table of contents (budget.toc %s) and the digest (budget.digest %s), fits it all, and counts the result in its footer\n",
		statusMemory, budget.Thousands(c.extraBudgets[0]), budget.Thousands(c.extraBudgets[1]))
	return b.String()
}

// statusMemory labels the status total: it is not the boot context's.
const statusMemory = "memory (tier files)"

// hugeNote flags a file over the read limit, whose count is of its head.
func hugeNote(f *File) string {
	if !f.Huge {
		return ""
	}
	return fmt.Sprintf("  huge: %s bytes, over the %d MiB read limit; only its first %d KiB counted", budget.Thousands(int(f.Bytes)), tiers.MaxDocBytes>>20, tiers.HeadBytes>>10)
}

func fileTokens(f *File) string {
	switch {
	case f.Missing:
		return "missing"
	case f.Skipped != "":
		return "skipped"
	case f.Held == tiers.Secret:
		return "secret"
	case f.Huge:
		return budget.Thousands(f.Tokens) + "+"
	}
	return budget.Thousands(f.Tokens)
}

func tierTokens(p Phase) int {
	n := 0
	for _, f := range p.Files {
		n += f.Tokens
	}
	return n
}

// gauge draws used/of as ten cells and a percentage.
func gauge(used, of int) string {
	if of <= 0 {
		if used == 0 {
			return "░░░░░░░░░░   0%"
		}
		return "██████████ over"
	}
	pct := used * 100 / of
	cells := min(10, (used*10+of/2)/of)
	return strings.Repeat("█", cells) + strings.Repeat("░", 10-cells) + fmt.Sprintf(" %3d%%", pct)
}

// PortableRoot is how boot.md, a file in the root that is committed with
// the project, names the root: its own directory, not the absolute path of
// the machine that wrote it.
const PortableRoot = ". (the directory of this boot.md)"

// rootLine is the line of the boot context that names the root.
func rootLine(root string) string { return "# Boot context\n\nMemory root: " + root + "\n" }

// Portable is the boot context text for boot.md: the text of a context
// of the root root with the root named by [PortableRoot]. [Local] undoes
// it, for comparing boot.md with a context built since.
func Portable(text, root string) string {
	return strings.Replace(text, rootLine(root), rootLine(PortableRoot), 1)
}

// Local is text, read from boot.md, with the root named as the context
// of root names it.
func Local(text, root string) string {
	return strings.Replace(text, rootLine(PortableRoot), rootLine(root), 1)
}
