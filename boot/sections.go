package boot

import (
	"fmt"
	"slices"
	"strings"

	"github.com/sergi/go-diff/diffmatchpatch"

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
//   - else what [Hook] prints: the announcement, the checks, the recent
//     changes and the warnings, cut to fit, and where the rest is.
func HookFor(c *Context, t HookTarget, h HookClient) string {
	if h.Import != "" && t.BootPath != "" && t.BeforeRead && c.Text() != "" {
		return hookDelta(c, t, h)
	}
	if t.BootPath != "" && c.Text() != "" {
		whole := fmt.Sprintf("# wake: memory loaded (the whole boot context; it is also in %s)\n\n", t.BootPath) + c.Text()
		if len(t.Problems) > 0 {
			whole += "\n- " + strings.Join(t.Problems, "\n- ") + "\n"
		}
		if h.Len(whole) <= h.Limit {
			return whole
		}
	}
	return hookSummary(c, t, h)
}

// hookDelta is the hook text for a client that read t.Before through
// h.Import: the sections that changed since, or a pointer to the file.
func hookDelta(c *Context, t HookTarget, h HookClient) string {
	head := hookHead(c)
	if t.Before == c.Text() {
		return head + fmt.Sprintf("\nThe boot context %s imports (%s) is current: it is everything wake loaded for this session.\n", h.Import, t.BootPath)
	}
	secs := c.Sections()
	changed := changedSections(t.Before, c.Text(), secs)
	var titles []string
	var body strings.Builder
	for i, s := range secs {
		if changed[i] && !heldWhole(t.Before, s.Text) {
			titles = append(titles, s.Title)
			body.WriteString(s.Text)
		}
	}
	gone := ""
	if g := goneSections(t.Before, secs); len(g) > 0 {
		gone = fmt.Sprintf(" No longer in it (disregard them in the imported copy): %s.", strings.Join(g, ", "))
	}
	text := head + fmt.Sprintf("\n%s changed after %s imported it. The sections below are current and replace the imported copy's sections of the same name; the rest of that copy is current.%s\n\n", t.BootPath, h.Import, gone) +
		strings.TrimLeft(body.String(), "\n")
	if h.Len(text) <= h.Limit {
		return text
	}
	pointer := head + fmt.Sprintf("\n%s changed after %s imported it (%s), and the changes do not fit in this hook's output: read that file before you start; it replaces the imported copy.%s\n",
		t.BootPath, h.Import, strings.Join(titles, ", "), gone)
	return h.cut(pointer, h.Limit)
}

// changedSections marks the sections of text (cut into secs) that hold a
// line the earlier copy before lacks, or where before had a line text
// lacks.
func changedSections(before, text string, secs []Section) []bool {
	changed := make([]bool, len(secs))
	mark := func(from, to int) { // byte range of text; to == from for a deletion
		for i, s := range secs {
			end := s.start + len(s.Text)
			// A deletion on a boundary may be the tail of the section
			// before it or the head of the one after it: both are sent.
			if from < end && to > s.start || from == to && from >= s.start && from <= end {
				changed[i] = true
			}
		}
	}
	dmp := diffmatchpatch.New()
	a, b, lines := dmp.DiffLinesToChars(before, text)
	pos := 0
	for _, d := range dmp.DiffCharsToLines(dmp.DiffMain(a, b, false), lines) {
		switch d.Type {
		case diffmatchpatch.DiffEqual:
			pos += len(d.Text)
		case diffmatchpatch.DiffInsert:
			mark(pos, pos+len(d.Text))
			pos += len(d.Text)
		case diffmatchpatch.DiffDelete:
			mark(pos, pos)
		}
	}
	return changed
}

// goneSections names the headed sections the earlier copy had that the
// context has no more: the checks' findings, the protocol card, the
// warnings.
func goneSections(before string, secs []Section) []string {
	var out []string
	for _, title := range []string{"Coherence checks", strings.TrimPrefix(protocol.Title, "## "), "Warnings"} {
		if !strings.Contains(before, "\n## "+title+"\n") {
			continue
		}
		if !slices.ContainsFunc(secs, func(s Section) bool { return s.Title == title }) {
			out = append(out, title)
		}
	}
	return out
}

// heldWhole reports whether before holds text as a whole section: the
// diff may put a deletion on either side of a boundary, and a section
// the earlier copy has as it is now is not said again.
func heldWhole(before, text string) bool {
	for i := 0; i <= len(before); {
		j := strings.Index(before[i:], text)
		if j < 0 {
			return false
		}
		rest := before[i+j+len(text):]
		if rest == "" || strings.HasPrefix(rest, "#") || strings.HasPrefix(rest, "\n#") || strings.HasPrefix(rest, "\nHeld back: ") {
			return true
		}
		i += j + 1
	}
	return false
}
