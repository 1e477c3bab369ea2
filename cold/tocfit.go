package cold

import (
	"fmt"
	"path"
	"strings"

	"github.com/wakeproto/wake/budget"
	"github.com/wakeproto/wake/tiers"
)

// minTOCLineTokens is a floor on one listing line's tokens (a list marker,
// a name, a count and "tokens" at the least): a folding that leaves more
// than limit/minTOCLineTokens lines cannot fit and is not even counted.
const minTOCLineTokens = 4

// fit folds directories in t.order until the listing fits limit tokens,
// counted exactly: the directories are the Fitter's pieces, in fold order.
// Folding only ever removes lines, so the line totals of each step are
// known in advance and make a floor for its estimate; its gallop counts a
// handful of candidate listings, all small, and settles on the least
// folding that fits.
func (t *TOC) fit(limit int, c budget.Counter) {
	t.fitter, t.cuts, t.Omitted = nil, nil, false
	if limit == NoFold {
		t.setFolding(0)
		t.Tokens = c.Count(t.Text())
		return
	}
	lines := t.lineCounts()
	k := len(t.order)
	f := &budget.Fitter{Counter: c, Limit: limit, Gallop: true, Estimate: lines[0] * minTOCLineTokens, Pieces: make([]budget.Piece, k)}
	for i, d := range t.order {
		f.Pieces[i] = budget.Piece{What: d.path + " folded", Where: tocWhere, Priority: i, Weight: (lines[i] - lines[i+1]) * minTOCLineTokens}
	}
	f.Measure = func() int {
		t.setFolding(f.Steps())
		return c.Count(t.Text())
	}
	t.fitter = f
	n := limit + 1
	// When not even every directory folded can fit, nothing is counted.
	if lines[k]*minTOCLineTokens <= limit {
		n = f.Fit()
	}
	if n > limit {
		t.Omitted, t.Lines, t.Tokens, t.Folded = true, nil, 0, 0
		return
	}
	t.Tokens = n
}

// tocWhere is where the record says a folding cut.
var tocWhere = budget.Where(tiers.ColdDir+"/", "table of contents")

// Cuts records what fitting the listing cut: each directory folded, with
// the lines it hid, or the whole listing when it was left out, with what
// it takes folded whole. It counts those lines on the first call.
func (t *TOC) Cuts() []budget.Cut {
	if t.cuts != nil || t.fitter == nil {
		return t.cuts
	}
	if t.Omitted {
		var b strings.Builder
		writeTOCLine(&b, TOCLine{Path: t.root.path, Dir: true, Folded: true, Documents: t.root.ndocs, Tokens: t.root.tokens})
		if h := t.heldBack(); h != "" {
			b.WriteString("- " + h + "\n")
		}
		t.cuts = []budget.Cut{{What: "the whole listing", Where: tocWhere, Tokens: t.fitter.Counter.Count(b.String())}}
		return t.cuts
	}
	for i, d := range t.order[:t.fitter.Steps()] {
		t.fitter.Pieces[i].Text = d.hidden()
	}
	t.cuts = t.fitter.Cuts()
	return t.cuts
}

// hidden renders the lines folding d hides: its documents, and its
// directories, which, being deeper, were folded before it.
func (d *tocDir) hidden() string {
	var b strings.Builder
	for _, doc := range d.docs {
		writeTOCLine(&b, docLine(d, doc))
	}
	for _, c := range d.dirs {
		writeTOCLine(&b, TOCLine{Depth: c.depth, Path: c.path, Dir: true, Folded: true, Documents: c.ndocs, Tokens: c.tokens})
	}
	return b.String()
}

// refit folds the listing further to fit a smaller limit than its budget,
// to keep the whole context under the memory maximum.
func (t *TOC) Refit(limit int, c budget.Counter) {
	t.Omitted, t.Squeezed = false, true
	t.fit(limit, c)
}

// lineCounts returns, for each number of folded directories i, how many
// lines the listing has.
func (t *TOC) lineCounts() []int {
	var count func(d *tocDir) int
	count = func(d *tocDir) int {
		d.visible = 1 + len(d.docs)
		for _, c := range d.dirs {
			d.visible += count(c)
		}
		return d.visible
	}
	held := 0
	if t.heldBack() != "" {
		held = 1
	}
	out := []int{count(t.root) + held}
	for _, d := range t.order {
		shed := d.visible - 1
		d.visible = 1
		for a := d.parent; a != nil; a = a.parent {
			a.visible -= shed
		}
		out = append(out, out[len(out)-1]-shed)
	}
	return out
}

// setFolding lays out the listing with the first i directories of the
// fold order folded.
func (t *TOC) setFolding(i int) {
	t.Lines, t.Folded, t.folds = t.Lines[:0], 0, i
	var walk func(d *tocDir)
	walk = func(d *tocDir) {
		folded := d.pos < i
		t.Lines = append(t.Lines, TOCLine{Depth: d.depth, Path: d.path, Dir: true, Folded: folded, Documents: d.ndocs, Tokens: d.tokens})
		if folded {
			t.Folded++
			return
		}
		for _, doc := range d.docs {
			t.Lines = append(t.Lines, docLine(d, doc))
		}
		for _, c := range d.dirs {
			walk(c)
		}
	}
	walk(t.root)
}

// docLine is the listing's line for doc, in directory d.
func docLine(d *tocDir, doc *tocDoc) TOCLine {
	l := TOCLine{Depth: d.depth + 1, Path: doc.path, Title: doc.title, Tokens: doc.tokens, Confidential: doc.conf, Huge: doc.huge}
	if doc.conf {
		l.Path = ""
	}
	return l
}

// Text renders the listing: a nested Markdown list, then what was held
// back. It is what the TOC's budget is counted against.
func (t *TOC) Text() string {
	if t.Omitted {
		return ""
	}
	var b strings.Builder
	// Grown once to about the listing's size: a fit renders the listing
	// of a long history a few times over.
	size := 0
	for _, l := range t.Lines {
		size += 2*l.Depth + len(l.Path) + len(l.Title) + 40
	}
	b.Grow(size)
	for _, l := range t.Lines {
		writeTOCLine(&b, l)
	}
	if h := t.heldBack(); h != "" {
		b.WriteString("- " + h + "\n")
	}
	return b.String()
}

func writeTOCLine(b *strings.Builder, l TOCLine) {
	// Written piece by piece, not formatted: a fit renders the listing of
	// a long history a few times over.
	for range l.Depth {
		b.WriteString("  ")
	}
	b.WriteString("- ")
	switch {
	case l.Dir && l.Documents == 0:
		b.WriteString(l.Path)
		b.WriteString(" — no documents\n")
		return
	case l.Dir:
		b.WriteString(l.Path)
		b.WriteString(" — ")
		b.WriteString(budget.Plural(l.Documents, "document"))
		b.WriteString(", ")
		b.WriteString(budget.Thousands(l.Tokens))
		b.WriteString(" tokens")
		if l.Folded {
			b.WriteString(" (folded)")
		}
		b.WriteString("\n")
		return
	case l.Confidential:
		title := l.Title
		if title == "" {
			title = "no summary"
		}
		b.WriteString("(confidential) ")
		b.WriteString(title)
	default:
		b.WriteString(path.Base(l.Path))
		if l.Title != "" {
			b.WriteString(" — ")
			b.WriteString(l.Title)
		}
	}
	if l.Huge {
		fmt.Fprintf(b, " (over %d MiB; %s+ tokens)\n", tiers.MaxDocBytes>>20, budget.Thousands(l.Tokens))
		return
	}
	b.WriteString(" (")
	b.WriteString(budget.Thousands(l.Tokens))
	b.WriteString(" tokens)\n")
}

// heldBack says what the listing leaves out, or "".
func (t *TOC) heldBack() string {
	var parts []string
	if t.Secret > 0 {
		parts = append(parts, budget.Plural(t.Secret, "secret document")+" (counted, not listed)")
	}
	if t.Confidential > 0 {
		parts = append(parts, budget.Plural(t.Confidential, "confidential document")+" (summary only)")
	}
	if t.Unreadable > 0 {
		parts = append(parts, budget.Plural(t.Unreadable, "document")+" with unreadable front matter")
	}
	if t.Binary > 0 {
		parts = append(parts, budget.Plural(t.Binary, "binary file"))
	}
	if len(parts) == 0 {
		return ""
	}
	return "Held back: " + strings.Join(parts, "; ") + "."
}
