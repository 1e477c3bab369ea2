package boot

import (
	"fmt"
	"strings"

	"github.com/wakeproto/wake/budget"
)

// writeCold renders phase 4: the cold table of contents, never the files.
func writeCold(b *strings.Builder, c *Context) {
	b.WriteString("\n## Phase 4: cold (not loaded)\n\n")
	t := c.TOC
	if t == nil {
		b.WriteString("Cold files are never loaded automatically.\n")
		return
	}
	fmt.Fprintf(b, "Cold files are never loaded automatically. Pull one with `wake cold PATH` (at most %s tokens a session); `wake cold FOLDER` lists a folder, a folded one too.\n\n",
		budget.Thousands(t.ColdBudget))
	switch {
	case t.Omitted && t.Squeezed:
		fmt.Fprintf(b, "The table of contents (%s, %s tokens) was left out to keep this context under budget.memory_max; run `wake cold` to see it.\n",
			budget.Plural(t.Documents, "document"), budget.Thousands(t.DocTokens))
		return
	case t.Omitted:
		fmt.Fprintf(b, "The table of contents (%s, %s tokens) does not fit its budget of %s tokens; run `wake cold` to see it.\n",
			budget.Plural(t.Documents, "document"), budget.Thousands(t.DocTokens), budget.Thousands(t.Budget))
		return
	}
	b.WriteString(t.Text())
}

// writeDigest renders the recent changes from the ledger.
func writeDigest(b *strings.Builder, c *Context) {
	d := c.Digest
	if d == nil {
		return
	}
	fmt.Fprintf(b, "\n## Changes in the last %s\n\n", d.Window)
	if d.Total == 0 && d.HeldBack == 0 {
		b.WriteString("None recorded in the ledger.\n")
		return
	}
	if text := d.Text(); text != "" {
		b.WriteString(text)
		return
	}
	fmt.Fprintf(b, "%s recorded, not listed: `wake log --since %s`.\n", budget.Plural(d.Total, "change"), d.Window)
}

// writeExtraRows adds the table of contents, the digest and the open
// reminders to the budget footer.
func writeExtraRows(b *strings.Builder, c *Context) {
	if t := c.TOC; t != nil {
		fmt.Fprintf(b, "| cold TOC | %s | %s |\n", budget.Thousands(t.Tokens), budget.Thousands(t.Budget))
	}
	if d := c.Digest; d != nil {
		fmt.Fprintf(b, "| changes (%s) | %s | %s |\n", d.Window, budget.Thousands(d.Tokens), budget.Thousands(d.Budget))
	}
	if r := c.Reminders; r != nil {
		fmt.Fprintf(b, "| open reminders | %s | %s |\n", budget.Thousands(r.Tokens), budget.Thousands(r.Budget))
	}
}
