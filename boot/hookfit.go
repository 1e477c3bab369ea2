package boot

import (
	"fmt"
	"slices"
	"strings"

	"github.com/wakeproto/wake/budget"
	"github.com/wakeproto/wake/protocol"
	"github.com/wakeproto/wake/tiers"
)

// sectionRank is how much a section of the boot context is worth to a
// session that gets only part of it, lowest first: the announcement and
// the checks; what the last sessions handed on (main.md's HANDOFF, the
// trajectory); the decisions in force; the open tasks, questions and
// reminders; the protocol card, the last session's summary and the
// warnings; then the rest, in the context's order. A phase's heading goes
// with the files of its phase that are shown.
func sectionRank(title string) int {
	switch title {
	case announcement, "Boot context", "Coherence checks":
		return 0
	case tiers.MainPath, strings.TrimPrefix(TrajectoryTitle, "## "):
		return 1
	case tiers.DecisionsPath:
		return 2
	case tiers.TasksPath, tiers.QuestionsPath, strings.TrimPrefix(RemindersTitle, "## "):
		return 3
	case strings.TrimPrefix(protocol.Title, "## "), tiers.LatestPath, "Warnings":
		return 4
	}
	return 5
}

// rankGroups are the ranks whose sections share the room left when not
// all of them fit whole: the decisions in force and the open work, each
// shown from its head, come together.
var rankGroups = [][]int{{0}, {1}, {2, 3}, {4}, {5}}

// hookFit renders the boot context within client h's limit, a whole
// section at a time in the order of [sectionRank]: a section that does
// not fit whole is shown from its head, as far as there is fair room,
// and the sections kept come in the context's order. What is left out is
// named at the end with where to read it: no section is cut from the
// end of the rendering unseen.
func hookFit(c *Context, t HookTarget, h HookClient) string {
	// The note at the end names what was left out: room is kept for it
	// up front, first a generous guess, then what the note took, while
	// the text stays within the limit.
	reserve := min(h.Limit/5, 1200)
	text, note := hookFitWith(c, t, h, reserve)
	for range 3 {
		next := h.Len(note) + 8
		if next >= reserve {
			break
		}
		more, moreNote := hookFitWith(c, t, h, next)
		if h.Len(more) > h.Limit {
			break
		}
		text, note, reserve = more, moreNote, next
	}
	return text
}

// hookFitWith is [hookFit] with reserve units kept for the closing note;
// it returns the text and the note.
func hookFitWith(c *Context, t HookTarget, h HookClient, reserve int) (string, string) {
	head := "# wake: memory loaded (part of the boot context: what did not fit in " + h.Name + "'s limit is named at the end)\n\n"
	secs := c.Sections()
	// Budget is the context's own accounting, which this text is not.
	secs = slices.DeleteFunc(secs, func(s Section) bool { return s.Title == "Budget" })
	order := make([]int, len(secs))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return sectionRank(secs[a].Title) - sectionRank(secs[b].Title) })
	where := "read " + t.BootPath + " (the whole boot context)"
	if t.BootPath == "" {
		where = "run `wake load` for the whole boot context"
	}
	room := h.Limit - h.Len(head) - h.Len(problems(t)) - reserve
	// A phase's heading is shown above the files of it that are shown:
	// its room is kept whatever is shown.
	for i, s := range secs {
		if phaseHeading(secs, i) {
			room -= h.Len(s.Text)
		}
	}
	shown := make([]string, len(secs))
	var left []string
	// A section is shown whole while it fits; a rank's sections that do
	// not are shown from their head, sharing what room is left; once a
	// rank could not be shown whole, no section of a lower one is: what
	// is worth less never takes the room of what is worth more.
	full := false
	for _, group := range rankGroups {
		var in []int
		for _, i := range order {
			if slices.Contains(group, sectionRank(secs[i].Title)) && !phaseHeading(secs, i) {
				in = append(in, i) // a phase's heading alone is shown with its files
			}
		}
		// The smallest first: a short section (the reminders, the open
		// questions) is shown whole rather than cut for a long one, which
		// then shows its head in what is left.
		bySize := slices.Clone(in)
		slices.SortStableFunc(bySize, func(a, b int) int { return h.Len(secs[a].Text) - h.Len(secs[b].Text) })
		for _, i := range bySize {
			if n := h.Len(secs[i].Text); !full && n <= room {
				shown[i], room = secs[i].Text, room-n
			}
		}
		var rest []int
		for _, i := range in {
			if shown[i] == "" {
				rest = append(rest, i)
			}
		}
		for k, i := range rest {
			s := secs[i]
			share := room / (len(rest) - k)
			if share <= minCutLine*2 {
				// Too little to share: the first takes what there is.
				share = room
			}
			if !full && share > minCutLine*2 {
				cut, lines, total := headLines(s.Text, share-minCutLine, h)
				if lines > 1 {
					cut += fmt.Sprintf("[wake: %d of the %s of %s left out here]\n", total-lines, budget.Plural(total, "line"), s.Title)
					shown[i], room = cut, room-h.Len(cut)
					left = append(left, fmt.Sprintf("%s (%d of its %d lines)", s.Title, total-lines, total))
					continue
				}
			}
			left = append(left, s.Title)
		}
		full = full || len(rest) > 0
	}
	var b strings.Builder
	b.WriteString(head)
	for i, s := range secs {
		if phaseHeading(secs, i) {
			// The heading of a phase some of whose files are shown.
			for j := i + 1; j < len(secs) && isFileSection(secs[j].Title); j++ {
				if shown[j] != "" {
					shown[i] = s.Text
					break
				}
			}
		}
		b.WriteString(shown[i])
	}
	note := ""
	if len(left) > 0 {
		note = h.cut(fmt.Sprintf("\n## Left out\n\nLeft out to stay within %s's %s-%s limit: %s. For them, %s.\n",
			h.Name, budget.Thousands(h.Limit), h.unitName(), strings.Join(left, ", "), where), reserve+room)
		b.WriteString(note)
	}
	b.WriteString(problems(t))
	return b.String(), note
}

// phaseHeading reports whether section i is a phase's heading alone (the
// files of the phase follow it as sections of their own), not a phase
// that is its own content, as the cold tier's listing is.
func phaseHeading(secs []Section, i int) bool {
	return strings.HasPrefix(secs[i].Title, "Phase ") && i+1 < len(secs) && isFileSection(secs[i+1].Title)
}

// isFileSection reports whether a section's title names a memory file.
func isFileSection(title string) bool {
	return strings.HasSuffix(title, ".md") || strings.Contains(title, "/")
}

// headLines is the head of text within room of h's units, whole lines,
// with how many lines it keeps of how many.
func headLines(text string, room int, h HookClient) (string, int, int) {
	lines := strings.SplitAfter(text, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	used, n := 0, 0
	for _, l := range lines {
		if used+h.Len(l) > room {
			break
		}
		used += h.Len(l)
		n++
	}
	return strings.Join(lines[:n], ""), n, len(lines)
}
