package boot

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/wakeproto/wake/budget"
	"github.com/wakeproto/wake/tiers"
)

// Markdown renders the boot context as the agent reads it.
func Markdown(c *Context) string {
	var b strings.Builder
	writeAnnouncement(&b, c)
	for _, d := range c.Directives {
		b.WriteString(d)
		b.WriteString("\n")
	}
	if len(c.Directives) > 0 {
		b.WriteString("\n")
	}
	b.WriteString("# Boot context\n\n")
	fmt.Fprintf(&b, "Memory root: %s\n", c.Root)
	writeChecks(&b, c)
	for _, p := range c.Phases {
		fmt.Fprintf(&b, "\n## Phase %d: %s (%s of %s tokens)\n", p.Number, p.Name, budget.Thousands(p.Tokens), budget.Thousands(p.Budget))
		for _, f := range p.Files {
			writeFile(&b, f)
		}
	}
	if h := heldBackLine(c.HeldBack); h != "" {
		fmt.Fprintf(&b, "\n%s\n", h)
	}
	writeCold(&b, c)
	writeDigest(&b, c)
	writeWarnings(&b, c.Warnings)
	writeFooter(&b, c)
	return b.String()
}

func writeFile(b *strings.Builder, f *File) {
	switch {
	case f.Missing:
		fmt.Fprintf(b, "\n### %s (missing)\n", f.Path)
		return
	case f.Held == tiers.Secret:
		fmt.Fprintf(b, "\n### %s (held back: sensitivity secret)\n", f.Path)
		return
	case f.Held == tiers.Confidential:
		fmt.Fprintf(b, "\n### %s (confidential: summary only, %s tokens)\n\n", f.Path, budget.Thousands(f.Tokens))
	case f.Skipped != "" || f.Omitted != nil && f.ShownTokens == 0 && f.Content == "":
		reason := f.Skipped
		if reason == "" {
			reason = fmt.Sprintf("withheld: %s tokens would pass the memory maximum", budget.Thousands(f.Tokens))
		}
		fmt.Fprintf(b, "\n### %s (not shown: %s)\n", f.Path, reason)
		return
	case f.Truncated:
		fmt.Fprintf(b, "\n### %s (%s tokens, cut to %s)\n\n", f.Path, budget.Thousands(f.Tokens), budget.Thousands(f.ShownTokens))
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
	fmt.Fprintf(b, "| memory | %s | target %s, max %s |\n", budget.Thousands(t.Memory), budget.Thousands(t.Target), budget.Thousands(t.Max))
	fmt.Fprintf(b, "\nThis context: %s tokens. Left for work: %s of %s (at least %s required).\n",
		budget.Thousands(t.Output), budget.Thousands(t.WorkLeft), budget.Thousands(t.ContextWindow), budget.Thousands(t.WorkMin))
}

// JSON renders the context as one indented JSON object.
func JSON(c *Context) ([]byte, error) {
	data, err := json.MarshalIndent(struct {
		Version int `json:"version"`
		*Context
	}{1, c}, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(data, '\n'), nil
}

// Status renders one line per tier file with its tokens, its share of the
// tier's budget and a gauge, then the tier and total lines.
func Status(c *Context) string {
	var b strings.Builder
	w := 0
	for _, f := range c.Files() {
		w = max(w, len(f.Path))
	}
	for _, p := range c.Phases {
		for _, f := range p.Files {
			fmt.Fprintf(&b, "%-*s  %8s / %-8s %s\n", w, f.Path, fileTokens(f), budget.Thousands(f.Share), gauge(f.Tokens, f.Share))
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
	fmt.Fprintf(&b, "%-*s  %8s / %-8s %s\n", w, "memory", budget.Thousands(all), budget.Thousands(c.Totals.Target), gauge(all, c.Totals.Target))
	fmt.Fprintf(&b, "\nmax %s tokens; %s of the %s-token window left for work (at least %s required)\n",
		budget.Thousands(c.Totals.Max), budget.Thousands(c.Totals.ContextWindow-all), budget.Thousands(c.Totals.ContextWindow), budget.Thousands(c.Totals.WorkMin))
	return b.String()
}

func fileTokens(f *File) string {
	switch {
	case f.Missing:
		return "missing"
	case f.Skipped != "":
		return "skipped"
	case f.Held == tiers.Secret:
		return "secret"
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

// StatusJSON renders the status figures as JSON.
func StatusJSON(c *Context) ([]byte, error) {
	type file struct {
		Path    string `json:"path"`
		Tier    string `json:"tier"`
		Tokens  int    `json:"tokens"`
		Share   int    `json:"share"`
		Percent int    `json:"percent"`
		Missing bool   `json:"missing,omitempty"`
		Skipped string `json:"skipped,omitempty"`
	}
	type tier struct {
		Tier    string `json:"tier"`
		Tokens  int    `json:"tokens"`
		Budget  int    `json:"budget"`
		Percent int    `json:"percent"`
	}
	var out struct {
		Version int    `json:"version"`
		Root    string `json:"root"`
		Files   []file `json:"files"`
		Tiers   []tier `json:"tiers"`
		Memory  int    `json:"memory_tokens"`
		Target  int    `json:"memory_target"`
		Max     int    `json:"memory_max"`
		Window  int    `json:"context_window"`
		Work    int    `json:"work_left"`
		WorkMin int    `json:"work_min"`
	}
	out.Version, out.Root = 1, c.Root
	for _, p := range c.Phases {
		for _, f := range p.Files {
			out.Files = append(out.Files, file{f.Path, f.Tier, f.Tokens, f.Share, percent(f.Tokens, f.Share), f.Missing, f.Skipped})
		}
		n := tierTokens(p)
		out.Tiers = append(out.Tiers, tier{p.Tier, n, p.Budget, percent(n, p.Budget)})
		out.Memory += n
	}
	t := c.Totals
	out.Target, out.Max, out.Window, out.WorkMin = t.Target, t.Max, t.ContextWindow, t.WorkMin
	out.Work = t.ContextWindow - out.Memory
	data, err := json.MarshalIndent(out, "", "  ")
	return append(data, '\n'), err
}

func percent(used, of int) int {
	if of <= 0 {
		return 0
	}
	return used * 100 / of
}
