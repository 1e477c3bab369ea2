package boot

import (
	"fmt"
	"slices"
	"strings"

	"github.com/wakeproto/wake/budget"
	"github.com/wakeproto/wake/tiers"
)

// The decision log as the boot context shows it (DESIGN section 11): a
// view of what is in force, never a cut of the file from its bottom, which
// kept the oldest entries (reversed ones in full) and dropped the newest,
// the ones in force. In order:
//   - the file's head (its front matter and title);
//   - the decisions in force (active, contested), newest first, in full,
//     as far as the share goes;
//   - the rest of them one line each (number, ID, date, title), newest
//     first: every decision in force appears, whole or in that index,
//     while the share can hold the index;
//   - the reversed decisions one line each, newest first, only after
//     every decision in force, as far as the share goes, the rest counted.
//
// The file is never rewritten: this is what is shown of it.

// viewIndexTitle and viewReversedTitle head the one-line lists.
const (
	viewIndexTitle    = "In force, one line each (`wake decisions ID` shows one whole):\n"
	viewReversedTitle = "Reversed, one line each (`wake decisions --all` lists them whole):\n"
)

// viewResult is the decision log as a view shows it.
type viewResult struct {
	Text   string
	Tokens int // exact
	// Truncated: a decision in force is not shown whole, or a reversed
	// one not listed.
	Truncated bool
	Cuts      []budget.Cut // one an entry not shown whole
}

// decisionsView is the view of the log text (the policy's admitted and
// scrubbed content) within share tokens; ok is false for a log with no
// entry, which is shown as a document.
func decisionsView(text string, share int, c budget.Counter) (viewResult, bool) {
	log := tiers.ParseDecisions([]byte(text))
	if len(log.Entries) == 0 {
		return viewResult{}, false
	}
	head := strings.TrimRight(text[:log.Entries[0].Bytes.Start], "\n") + "\n\n"
	var inForce, reversed []tiers.Decision
	for _, e := range slices.Backward(log.Entries) {
		if e.Status == tiers.StatusReversed {
			reversed = append(reversed, e)
		} else {
			inForce = append(inForce, e)
		}
	}
	v := viewPlan{head: head, inForce: inForce, reversed: reversed, malformed: len(log.Malformed), c: c}
	v.plan(share)
	view := v.render()
	tokens := c.Count(view)
	// Pieces are counted apart; their join may count otherwise. Shown is
	// what the whole counts, kept within the share.
	for tokens > share && v.shrink() {
		view = v.render()
		tokens = c.Count(view)
	}
	return viewResult{Text: view, Tokens: tokens, Cuts: v.cuts(),
		Truncated: v.whole < len(v.inForce) || v.revLines < len(v.reversed)}, true
}

// viewPlan is how much of each part of the view is shown.
type viewPlan struct {
	head              string
	inForce, reversed []tiers.Decision // newest first
	malformed         int
	c                 budget.Counter

	whole    int // in-force entries shown whole, the newest
	indexed  int // in-force entries after them shown one line each
	revLines int // reversed entries shown one line each, the newest
}

// plan fills the share: the index of every decision in force first, then
// the newest promoted to whole, then reversed lines.
func (v *viewPlan) plan(share int) {
	cost := func(s string) int { return v.c.Count(s) }
	used := cost(v.head) + cost(v.tail())
	idx := make([]int, len(v.inForce))
	if len(v.inForce) > 0 {
		used += cost(viewIndexTitle) + 1
	}
	for i, e := range v.inForce {
		idx[i] = cost(indexLine(e))
		if used+idx[i] > share {
			break
		}
		used += idx[i]
		v.indexed++
	}
	for v.whole < v.indexed {
		e := v.inForce[v.whole]
		more := cost(wholeEntry(e)) - idx[v.whole]
		if used+more > share {
			break
		}
		used += more
		v.whole++
	}
	if v.whole == len(v.inForce) && len(v.inForce) > 0 {
		used -= cost(viewIndexTitle) + 1
	}
	if len(v.reversed) > 0 && v.indexed == len(v.inForce) {
		used += cost(viewReversedTitle) + 1
		for _, e := range v.reversed {
			n := cost(reversedLine(e))
			if used+n > share {
				break
			}
			used += n
			v.revLines++
		}
	}
	v.indexed -= v.whole
}

// shrink takes one piece out of the plan, the least useful first: a
// reversed line, a whole entry back to its index line, then an index line.
func (v *viewPlan) shrink() bool {
	switch {
	case v.revLines > 0:
		v.revLines--
	case v.whole > 0:
		v.whole--
		v.indexed++
	case v.indexed > 0:
		v.indexed--
	default:
		return false
	}
	return true
}

func (v *viewPlan) render() string {
	var b strings.Builder
	b.WriteString(v.head)
	for _, e := range v.inForce[:v.whole] {
		b.WriteString(wholeEntry(e))
	}
	if v.indexed > 0 {
		b.WriteString(viewIndexTitle)
		for _, e := range v.inForce[v.whole : v.whole+v.indexed] {
			b.WriteString(indexLine(e))
		}
		b.WriteString("\n")
	}
	if v.revLines > 0 {
		b.WriteString(viewReversedTitle)
		for _, e := range v.reversed[:v.revLines] {
			b.WriteString(reversedLine(e))
		}
		b.WriteString("\n")
	}
	b.WriteString(v.tail())
	return strings.TrimRight(b.String(), "\n") + "\n"
}

// tail counts what the view does not list.
func (v *viewPlan) tail() string {
	var parts []string
	if n := len(v.inForce) - v.whole - v.indexed; n > 0 {
		parts = append(parts, fmt.Sprintf("%d older decision(s) in force not listed here: `wake decisions` lists every one, newest first", n))
	}
	if n := len(v.reversed) - v.revLines; n > 0 {
		parts = append(parts, fmt.Sprintf("%d reversed decision(s) not listed: `wake decisions --all`", n))
	}
	if v.malformed > 0 {
		parts = append(parts, fmt.Sprintf("%d line(s) of the file that are not part of an entry are not shown: `wake check` names them", v.malformed))
	}
	if len(parts) == 0 {
		return ""
	}
	return "[wake: " + strings.Join(parts, "; ") + "]\n"
}

// cuts is the record of what the view leaves out: each entry not shown
// whole (in force or reversed), as the block of the file it is.
func (v *viewPlan) cuts() []budget.Cut {
	var out []budget.Cut
	for _, e := range append(slices.Clone(v.inForce[v.whole:]), v.reversed...) {
		first, _, _ := strings.Cut(e.Raw, "\n")
		out = append(out, budget.Cut{What: tiers.ShortLine(first), Where: tiers.DecisionsPath, Tokens: v.c.Count(wholeEntry(e))})
	}
	return out
}

// wholeEntry is an entry as the file holds it, then a blank line.
func wholeEntry(e tiers.Decision) string {
	return strings.TrimRight(e.Raw, "\n") + "\n\n"
}

// indexLine is a decision in force in one line: number, ID, date, title,
// and its status when contested.
func indexLine(e tiers.Decision) string {
	status := ""
	if e.Status != "" && e.Status != tiers.StatusActive {
		status = " (" + e.Status + ")"
	}
	return fmt.Sprintf("- #%d %s%s%s\n", e.Number, idPart(e), e.Title(), status)
}

// reversedLine is a reversed decision in one line, with the first words
// of what reversed it.
func reversedLine(e tiers.Decision) string {
	by := tiers.OneLine(e.Value(tiers.KeyReversedBy))
	if r := []rune(by); len(r) > 80 {
		by = string(r[:79]) + "…"
	}
	if by != "" {
		by = "; reversed by " + by
	}
	return fmt.Sprintf("- #%d %s%s%s\n", e.Number, idPart(e), e.Title(), by)
}

func idPart(e tiers.Decision) string {
	if tiers.ValidID(e.ID) {
		return e.ID + " "
	}
	return ""
}
