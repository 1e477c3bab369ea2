package budget

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/wakeproto/wake/tiers"
)

// Allocate divides total among files that want the given token counts: a
// file wanting no more than an equal share gets all it wants, and what it
// leaves is shared by the others (water-filling). Every share is at least 0
// and the shares add up to at most total.
func Allocate(total int, wants []int) []int {
	out := make([]int, len(wants))
	left, open := total, 0
	for _, w := range wants {
		if w > 0 {
			open++
		}
	}
	done := make([]bool, len(wants))
	for open > 0 {
		share := left / open
		progressed := false
		for i, w := range wants {
			if done[i] || w <= 0 {
				continue
			}
			if w <= share {
				out[i], done[i] = w, true
				left -= w
				open--
				progressed = true
			}
		}
		if !progressed {
			for i, w := range wants {
				if !done[i] && w > 0 {
					out[i] = share
				}
			}
			break
		}
	}
	return out
}

// Block is a unit of Markdown that compression keeps or drops whole.
type Block struct {
	Text    string
	Heading int    // heading level, 0 when not a heading
	Section string // title of the enclosing H2 (or H1) section
}

var listItem = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*([-*+]|\d{1,9}[.)])(\s|$)`) })

// Blocks splits Markdown into blocks: headings, list items (with their
// continuation lines), paragraphs and fenced code blocks. Blank lines stay
// with the block before them, so joining the blocks gives back the text.
// A fence never closed is not a fence (tiers.HeadingLines), so it cannot
// pull the sections below it, a protected one among them, into its block.
func Blocks(text string) []Block {
	var out []Block
	section := ""
	var cur *Block
	inPara, inFence := false, false
	for _, l := range tiers.HeadingLines(text) {
		raw := text[l.Start:l.End]
		lv, title := 0, ""
		if !l.InFence {
			lv, title = tiers.HeadingLevel(l.Text)
		}
		blank := strings.TrimSpace(l.Text) == ""
		startNew := cur == nil
		switch {
		case l.InFence:
			startNew = startNew || !inFence
		case lv > 0:
			startNew = true
			if lv <= 2 {
				section = title
			}
		case blank:
		case listItem().MatchString(l.Text):
			startNew = true
		case !inPara && !isContinuation(cur, l.Text):
			startNew = true
		}
		if startNew {
			out = append(out, Block{Heading: lv, Section: section})
			cur = &out[len(out)-1]
		}
		cur.Text += raw
		inFence = l.InFence
		inPara = !blank && lv == 0 && !l.InFence
	}
	return out
}

// isContinuation reports whether a non-blank line continues the current
// block: an indented line under a list item, or a lazy continuation.
func isContinuation(cur *Block, line string) bool {
	if cur == nil || cur.Heading > 0 || strings.HasSuffix(cur.Text, "\n\n") {
		return false
	}
	return listItem().MatchString(firstLine(cur.Text)) && (strings.HasPrefix(line, " ") || strings.HasPrefix(line, "\t"))
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// Fitted is the result of fitting a text to a budget.
type Fitted struct {
	Text          string
	Tokens        int // exact count of Text
	Original      int // exact count of the input
	Truncated     bool
	DroppedBlocks int
	DroppedTokens int  // sum of the dropped blocks' counts
	Over          bool // still over budget: protected content alone exceeds it
	Cuts          []Cut
}

// Fit returns text unchanged when it fits budget; otherwise it drops whole
// blocks from the bottom up (never cutting a line) until it fits, skipping
// blocks in sections for which keep returns true, and puts a marker in each
// place where content was dropped. name is the file's path, used in the
// markers, which say the text was cut to fit only when it does. A heading
// left with nothing under it goes too.
func Fit(text string, budget int, c Counter, name string, keep func(section string) bool) Fitted {
	var rank func(Block) int
	if keep != nil {
		rank = func(b Block) int {
			if keep(b.Section) {
				return Keep
			}
			return 0
		}
	}
	return FitRanked(text, budget, c, name, rank)
}

// FitRanked is [Fit] with the blocks cut in the order rank gives them: the
// lowest rank first and, among equals, from the bottom up; a block ranked
// [Keep] is never cut. A nil rank ranks every block alike.
func FitRanked(text string, budget int, c Counter, name string, rank func(Block) int) Fitted {
	total := c.Count(text)
	f := Fitted{Text: text, Tokens: total, Original: total}
	if total <= budget {
		return f
	}
	blocks := Blocks(text)
	fr := &Fitter{Counter: c, Limit: budget, Pieces: make([]Piece, len(blocks))}
	counts := make([]int, len(blocks))
	sum, where := 0, name
	for i, b := range blocks {
		counts[i] = c.Count(b.Text)
		sum += counts[i]
		if i == 0 || b.Section != blocks[i-1].Section {
			where = Where(name, b.Section)
		}
		fr.Pieces[i] = Piece{Text: b.Text, Size: counts[i], Where: where}
		if rank != nil {
			fr.Pieces[i].Priority = rank(b)
		}
	}
	kept := protectedSections(blocks, fr.Pieces)
	over := false
	quiet := func(i int) bool { return fr.Pieces[i].Priority < 0 }
	render := func() string {
		return joinKept(blocks, fr.IsCut, quiet, counts, markerFor(name, budget, over, kept), quietMarkerFor(name, budget, over))
	}
	// Cut on the blocks' counts until they leave room for a marker.
	fr.Estimate = sum + c.Count(markerFor(name, budget, false, kept)(len(blocks), sum)) + 2
	out := ""
	fr.Measure = func() int {
		dropOrphanHeadings(blocks, fr)
		out = render()
		return c.Count(out)
	}
	n := fr.Fit()
	if n > budget {
		// Nothing more may go: the markers say so rather than claim the
		// file was cut to fit.
		over = true
		out = render()
		n = c.Count(out)
	}
	f.Text, f.Tokens, f.Over, f.Truncated, f.Cuts = out, n, n > budget, true, fr.Cuts()
	f.DroppedBlocks = len(f.Cuts)
	for _, cut := range f.Cuts {
		f.DroppedTokens += cut.Tokens
	}
	return f
}

// dropOrphanHeadings cuts kept headings left with no kept content before
// the next heading of the same or a higher level.
func dropOrphanHeadings(blocks []Block, fr *Fitter) {
	for i, b := range blocks {
		if fr.IsCut(i) || b.Heading == 0 {
			continue
		}
		empty, anyDropped := true, false
		for j := i + 1; j < len(blocks); j++ {
			if blocks[j].Heading > 0 && blocks[j].Heading <= b.Heading {
				break
			}
			if fr.IsCut(j) {
				anyDropped = true
			} else {
				empty = false
				break
			}
		}
		if empty && anyDropped {
			fr.cutAlso(i)
		}
	}
}

// joinKept joins the kept blocks with a marker in each place where a run
// of blocks was dropped, saying what that run held.
func joinKept(blocks []Block, dropped, quiet func(int) bool, counts []int, mark func(blocks, tokens int) string, markQuiet func(blocks, tokens int) string) string {
	var b strings.Builder
	qn, qtok := 0, 0
	for i := 0; i < len(blocks); {
		if !dropped(i) {
			b.WriteString(blocks[i].Text)
			i++
			continue
		}
		n, tok, loud := 0, 0, false
		for ; i < len(blocks) && dropped(i); i++ {
			n, tok = n+1, tok+counts[i]
			loud = loud || !quiet(i)
		}
		if !loud {
			// Blocks ranked below the rest (done items, what happened)
			// are scattered through a text: one marker at its end
			// counts them, rather than one between every kept line.
			qn, qtok = qn+n, qtok+tok
			continue
		}
		if b.Len() > 0 && !strings.HasSuffix(b.String(), "\n") {
			b.WriteByte('\n')
		}
		b.WriteString(mark(n, tok))
	}
	if qn > 0 {
		if b.Len() > 0 && !strings.HasSuffix(b.String(), "\n") {
			b.WriteByte('\n')
		}
		b.WriteString(markQuiet(qn, qtok))
	}
	return b.String()
}

// protectedSections names the sections whose blocks are never cut (ranked
// Keep), in text order.
func protectedSections(blocks []Block, pieces []Piece) []string {
	var out []string
	for i, b := range blocks {
		if b.Section != "" && pieces[i].Priority == Keep && !slices.Contains(out, b.Section) {
			out = append(out, b.Section)
		}
	}
	return out
}

// markerFor returns the marker put where blocks were left out. It says
// only what is true of the output: "cut to fit" when the text fits the
// budget, and otherwise that it is still over it and why (a section that
// is never cut).
func markerFor(name string, budget int, over bool, kept []string) func(blocks, tokens int) string {
	head := fmt.Sprintf("%s cut to fit %s tokens", name, Thousands(budget))
	if over {
		head = fmt.Sprintf("%s cut, but still over its %s-token budget", name, Thousands(budget))
		switch len(kept) {
		case 0:
		case 1:
			head += fmt.Sprintf(" (the %s section is never cut)", kept[0])
		default:
			head += fmt.Sprintf(" (the %s sections are never cut)", strings.Join(kept, ", "))
		}
	}
	return func(blocks, tokens int) string {
		return fmt.Sprintf("[wake: %s: %d block(s) left out here, %s tokens; read the file itself for them]\n\n",
			head, blocks, Thousands(tokens))
	}
}

// quietMarkerFor returns the one marker that counts, at the end of the
// text, the blocks ranked below the rest that were left out wherever they
// stood.
func quietMarkerFor(name string, budget int, over bool) func(blocks, tokens int) string {
	head := fmt.Sprintf("%s cut to fit %s tokens", name, Thousands(budget))
	if over {
		head = fmt.Sprintf("%s cut, but still over its %s-token budget", name, Thousands(budget))
	}
	return func(blocks, tokens int) string {
		return fmt.Sprintf("[wake: %s: %d finished or past block(s) (done items, what happened) left out here, %s tokens, from wherever they stood above; read the file itself for them]\n\n",
			head, blocks, Thousands(tokens))
	}
}

// Thousands formats n with comma separators: 31204 -> "31,204".
func Thousands(n int) string {
	if 0 <= n && n < 1000 {
		return strconv.Itoa(n)
	}
	s := fmt.Sprint(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}
