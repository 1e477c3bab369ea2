package boot

import (
	"fmt"
	"slices"
	"strings"

	"github.com/wakeproto/wake/protocol"
)

// Section is one part of the Markdown boot context as the renderer wrote
// it: the announcement, the head, the checks, the protocol card, a phase's
// heading, each file, the held-back line, the cold listing, the recent
// changes, the warnings, the budget. Sections follow each other with no
// gap, so that together they are the whole text.
type Section struct {
	// Title names the section: "Announcement", "Phase 2: recent",
	// "recent/latest.md", "Budget".
	Title string
	// Text is the section as it appears in the context.
	Text  string
	start int
}

// Sections returns the sections of the text Build rendered, in order; nil
// for a context Build did not make. Empty sections are left out.
func (c *Context) Sections() []Section {
	if c.text == "" {
		return nil
	}
	out := make([]Section, 0, len(c.sections))
	for i, s := range c.sections {
		end := len(c.text)
		if i+1 < len(c.sections) {
			end = c.sections[i+1].start
		}
		if end > s.start {
			s.Text = c.text[s.start:end]
			out = append(out, s)
		}
	}
	return out
}

// HookFor renders what client h's SessionStart hook prints, saying
// nothing the session already holds:
//   - where h imported boot.md before the hook ran (t.Before), only the
//     sections that changed since that copy, whole, or, when they do not
//     fit within h's limit, a pointer to the file;
//   - else the whole boot context when it fits;
//   - else the context's sections in the order of their worth to the
//     session, whole or from their head, within h's limit, naming what
//     did not fit and where to read it ([hookFit]).
func HookFor(c *Context, t HookTarget, h HookClient) string {
	if h.Import != "" && t.BootPath != "" && t.BeforeRead && c.Text() != "" {
		return hookDelta(c, t, h)
	}
	if c.Text() != "" {
		head := "# wake: memory loaded (the whole boot context)\n\n"
		if t.BootPath != "" {
			head = fmt.Sprintf("# wake: memory loaded (the whole boot context; it is also in %s)\n\n", t.BootPath)
		}
		if whole := head + c.Text() + problems(t); h.Len(whole) <= h.Limit {
			return whole
		}
		return hookFit(c, t, h)
	}
	return hookSummary(c, t, h)
}

// problems lists the boot files that could not be written, for the end of
// a hook's text.
func problems(t HookTarget) string {
	if len(t.Problems) == 0 {
		return ""
	}
	return "\n- " + strings.Join(t.Problems, "\n- ") + "\n"
}

// hookDelta is the hook text for a client that read t.Before through
// h.Import: the sections that changed since, or a pointer to the file.
func hookDelta(c *Context, t HookTarget, h HookClient) string {
	head := hookHead(c)
	if t.Before == c.Text() {
		return head + fmt.Sprintf("\nThe boot context %s imports (%s) is current: it is everything wake loaded for this session.\n", h.Import, t.BootPath) + problems(t)
	}
	secs := c.Sections()
	var titles []string
	var body strings.Builder
	var held map[string]bool // the imported copy's items, made once
	for _, s := range secs {
		if heldWhole(t.Before, s.Text) {
			continue
		}
		if s.Title == "Budget" {
			// The counts of the new context: boot.md has them, and
			// nothing in them is the session's to act on.
			continue
		}
		if held == nil {
			held = itemSet(t.Before)
		}
		titles = append(titles, s.Title)
		body.WriteString(newInSection(t.Before, held, s))
	}
	gone := ""
	if g := goneSections(t.Before, secs); len(g) > 0 {
		gone = fmt.Sprintf(" No longer in it (disregard them in the imported copy): %s.", strings.Join(g, ", "))
	}
	if len(titles) == 0 {
		// Only sections that come and go changed: they went.
		return head + fmt.Sprintf("\n%s changed after %s imported it, only by what it no longer holds; the rest of that copy is current.%s\n", t.BootPath, h.Import, gone) + problems(t)
	}
	named := strings.Join(titles, ", ")
	if len(titles) > 0 && titles[0] == announcement {
		named = "the announcement (the lines before \"# Boot context\")" + strings.TrimPrefix(named, announcement)
	}
	text := head + fmt.Sprintf("\n%s changed after %s imported it. What is new in it follows, under the heading of its section; where it and the imported copy differ, this is current, and the rest of that copy is.%s\n\n", t.BootPath, h.Import, gone) +
		strings.TrimLeft(body.String(), "\n") + problems(t)
	if h.Len(text) <= h.Limit {
		return text
	}
	pointer := head + fmt.Sprintf("\n%s changed after %s imported it (these sections: %s), and the changes do not fit in this hook's output: read that file before you start; it replaces the imported copy.%s\n",
		t.BootPath, h.Import, named, gone) + problems(t)
	if t.Kept {
		// boot.md was left as the import read it: the current context is
		// what `wake load` prints (and writes to it).
		pointer = head + fmt.Sprintf("\nThe memory changed after %s imported %s (these sections: %s), and the changes do not fit in this hook's output: run `wake load` before you start; what it prints replaces the imported copy.%s\n",
			h.Import, t.BootPath, named, gone) + problems(t)
	}
	return h.cut(pointer, h.Limit)
}

// newInSection is what section s holds that the imported copy before does
// not: its heading, then each of its items (a list item with its
// continuation lines, or a paragraph) the copy lacks, so that nothing the
// session holds is said twice. A section new as a whole is given whole.
func newInSection(before string, held map[string]bool, s Section) string {
	text := strings.TrimLeft(s.Text, "\n")
	head, rest, _ := strings.Cut(text, "\n")
	var b strings.Builder
	switch {
	case s.Title == announcement:
		// No heading: its lines that are new, alone.
		head, rest = "", text
	case !strings.Contains(before, head+"\n") && !strings.HasPrefix(head, "### "):
		return s.Text
	default:
		b.WriteString("\n" + head + "\n")
	}
	added := 0
	for _, item := range sectionItems(rest) {
		if !held[item] {
			b.WriteString("\n" + item + "\n")
			added++
		}
	}
	if added == 0 && head != "" {
		b.WriteString("\n(Nothing new: only what it no longer holds changed; boot.md has it as it is now.)\n")
	}
	return b.String()
}

// itemSet is the set of the items of text ([sectionItems]): what an
// item of a new context is looked up in, once each, rather than searched
// for through the whole imported copy.
func itemSet(text string) map[string]bool {
	out := map[string]bool{}
	for _, item := range sectionItems(text) {
		out[item] = true
	}
	return out
}

// sectionItems splits a section's body into its items: each list item
// ("- " at the line's start) with the lines indented under it, and each
// paragraph of other lines.
func sectionItems(body string) []string {
	var items []string
	var cur []string
	flush := func() {
		if len(cur) > 0 {
			items = append(items, strings.Join(cur, "\n"))
			cur = nil
		}
	}
	for _, l := range strings.Split(body, "\n") {
		switch {
		case strings.TrimSpace(l) == "":
			flush()
		case strings.HasPrefix(l, "- ") || strings.HasPrefix(l, "* "):
			flush()
			cur = append(cur, l)
		default:
			cur = append(cur, l)
		}
	}
	flush()
	return items
}

// announcement is the title of the lines before "# Boot context".
const announcement = "Announcement"

// sectionStarts are how the renderer begins a section, after the first
// two: a section of the earlier copy ends where one of these begins.
var sectionStarts = []string{"\n## Coherence checks\n", "\n" + protocol.Title + "\n", "\n## Phase ", "\n### ", "\n" + TrajectoryTitle + "\n", "\n" + RemindersTitle + "\n", "\nHeld back: ",
	"\n## Changes in the last ", "\n## Warnings\n", "\n## Budget\n"}

// heldWhole reports whether before holds text as a whole section:
// followed by a section's start or the copy's end (text itself begins as
// a section does). A section the earlier copy has as it is now is not said
// again; any other is, whatever changed in it.
func heldWhole(before, text string) bool {
	for i := 0; i <= len(before); {
		j := strings.Index(before[i:], text)
		if j < 0 {
			return false
		}
		at := i + j
		rest := before[at+len(text):]
		ends := rest == "" || strings.HasPrefix(rest, "# Boot context\n")
		for _, st := range sectionStarts {
			ends = ends || strings.HasPrefix(rest, st)
		}
		if ends {
			return true
		}
		i = at + 1
	}
	return false
}

// goneSections names the sections that come and go which the earlier
// copy had and the context has no more: the checks' findings, the
// protocol card, the open reminders, the held-back line, the warnings.
func goneSections(before string, secs []Section) []string {
	var out []string
	for _, g := range []struct{ title, start string }{
		{"Coherence checks", "\n## Coherence checks\n"},
		{strings.TrimPrefix(protocol.Title, "## "), "\n" + protocol.Title + "\n"},
		{strings.TrimPrefix(TrajectoryTitle, "## "), "\n" + TrajectoryTitle + "\n"},
		{strings.TrimPrefix(RemindersTitle, "## "), "\n" + RemindersTitle + "\n"},
		{"Held back", "\nHeld back: "},
		{"Warnings", "\n## Warnings\n"},
	} {
		if !strings.Contains(before, g.start) {
			continue
		}
		if !slices.ContainsFunc(secs, func(s Section) bool { return s.Title == g.title }) {
			out = append(out, g.title)
		}
	}
	return out
}
