package budget

import (
	"cmp"
	"math"
	"slices"
	"strings"

	"github.com/wakeproto/wake/tiers"
)

// Unit is what a budget is measured in.
type Unit uint8

const (
	// Tokens are counted with a [Counter].
	Tokens Unit = iota
	// UTF16 are UTF-16 code units, as JavaScript measures a string's
	// length (see [UTF16Len]): Claude Code's hook limit is in these.
	UTF16
	// Bytes are bytes of UTF-8: Codex's hook limit is in these.
	Bytes
)

// Keep is the priority of a piece that is never cut.
const Keep = math.MaxInt

// Piece is a part of a whole that a [Fitter] keeps or cuts whole: a block
// of Markdown, a line, a listing's directory.
type Piece struct {
	// Text is what the piece adds to the whole; counted alone, it is the
	// piece's size.
	Text string
	// Size is Text's size in the fitter's unit when the caller has it
	// already; 0 counts Text when the size is first needed.
	Size int
	// What names the piece in the record; "" takes Text's first line.
	What string
	// Where is the file, and the section in it, that holds the piece:
	// see [Where].
	Where string
	// Priority orders the cuts: the lowest goes first and, among equals,
	// the last piece first. Keep is never cut.
	Priority int
	// Weight, when not 0, is what the piece is taken to weigh while the
	// fitter cuts on its estimate, in place of its size: a cheap floor
	// for pieces too many to count.
	Weight int
}

// Cut records one piece a fitter cut: what it was, where it was, and its
// size alone, in tokens or in UTF-16 units as the budget was measured.
type Cut struct {
	What   string
	Where  string
	Tokens int // when the budget is in tokens
	Units  int // when the budget is in UTF-16 units or bytes
}

// Where names a place for a piece or a [Cut]: a file, and a section of it
// when section is not "".
func Where(file, section string) string {
	if section == "" {
		return file
	}
	return file + " § " + section
}

// Fitter fits a whole made of pieces to a limit: it cuts pieces, the
// lowest priority first and within a priority from the bottom up, until
// the whole measures within the limit or nothing is left to cut, and it
// records every cut.
//
// It cuts in two stages. While an estimate of the whole (Estimate less
// what the pieces cut so far weigh) is over the limit, it cuts without
// measuring. Then it measures the whole after each further cut. A whole
// measured once costs little; one measured a piece at a time would cost
// a count of the whole for each piece.
type Fitter struct {
	Unit    Unit
	Counter Counter // counts the pieces when Unit is Tokens
	Limit   int
	Pieces  []Piece
	// Estimate is what the whole is taken to weigh before any cut. 0
	// measures the whole instead, and a whole that fits is not cut.
	Estimate int
	// Measure returns the exact size of the whole as it stands: the
	// pieces not cut and whatever marks the cuts.
	Measure func() int
	// Gallop is for a whole whose size only falls as pieces go, and
	// whose measuring is dear: after a measure over the limit the fitter
	// cuts as many pieces as the excess is a share of the estimate, then
	// steps back while one cut fewer fits. That finds the least cutting
	// that fits in a few measures. Cuts made on the estimate alone are
	// never stepped back, so a Gallop fitter wants weights that are
	// floors.
	Gallop bool

	order []int // the cuttable pieces, in cut order
	next  int   // how many of order are cut
	est   int   // the estimate with order[:next] cut
	cut   []bool
	seq   []int // the pieces cut, in the order they went
	sizes []int // counted sizes; -1 not yet counted
}

// Fit cuts until the whole fits and returns its last measure, which is
// over the limit only when nothing more may be cut.
func (f *Fitter) Fit() int {
	f.start()
	if f.est == 0 {
		n := f.Measure()
		if n <= f.Limit {
			return n
		}
		f.est = n
	}
	for f.next < len(f.order) && f.est > f.Limit {
		f.step()
	}
	lastFail := f.next - 1 // cuts made on the estimate stand
	n := f.Measure()
	for n > f.Limit && f.next < len(f.order) {
		lastFail = f.next
		f.ahead(n)
		n = f.Measure()
	}
	for f.Gallop && n <= f.Limit && f.next-1 > lastFail {
		f.unstep()
		if m := f.Measure(); m <= f.Limit {
			n = m
			continue
		}
		f.step()
		n = f.Measure()
		break
	}
	return n
}

func (f *Fitter) start() {
	f.order = f.order[:0]
	for i := len(f.Pieces) - 1; i >= 0; i-- {
		if f.Pieces[i].Priority != Keep {
			f.order = append(f.order, i)
		}
	}
	slices.SortStableFunc(f.order, func(a, b int) int { return cmp.Compare(f.Pieces[a].Priority, f.Pieces[b].Priority) })
	f.next, f.est, f.seq = 0, f.Estimate, f.seq[:0]
	f.cut = slices.Grow(f.cut[:0], len(f.Pieces))[:len(f.Pieces)]
	clear(f.cut)
	f.sizes = slices.Grow(f.sizes[:0], len(f.Pieces))[:len(f.Pieces)]
	for i := range f.sizes {
		f.sizes[i] = -1
	}
}

// ahead cuts the next piece of the order, or with Gallop as many as the
// excess of the measure n over the limit suggests at the pieces' weights.
func (f *Fitter) ahead(n int) {
	need := 0
	if f.Gallop {
		need = max(1, f.est*(n-f.Limit)/n)
	}
	from := f.est
	f.step()
	for f.next < len(f.order) && from-f.est < need {
		f.step()
	}
}

// step cuts the next piece of the order.
func (f *Fitter) step() {
	i := f.order[f.next]
	f.next++
	f.est -= f.weight(i)
	f.cutAlso(i)
}

// unstep puts back the last piece the order cut.
func (f *Fitter) unstep() {
	f.next--
	i := f.order[f.next]
	f.est += f.weight(i)
	f.cut[i] = false
	if k := slices.Index(f.seq, i); k >= 0 {
		f.seq = slices.Delete(f.seq, k, k+1)
	}
}

// cutAlso cuts piece i, when it is not cut already, outside the order:
// for a Measure of this package that finds a cut left another piece
// pointless (a heading whose section was emptied).
func (f *Fitter) cutAlso(i int) {
	if !f.cut[i] {
		f.cut[i] = true
		f.seq = append(f.seq, i)
	}
}

// IsCut reports whether piece i is cut.
func (f *Fitter) IsCut(i int) bool { return f.cut[i] }

// Steps returns how many pieces the order has cut so far.
func (f *Fitter) Steps() int { return f.next }

// size returns piece i's size alone in the fitter's unit.
func (f *Fitter) size(i int) int {
	if f.sizes[i] < 0 {
		switch p := f.Pieces[i]; {
		case p.Size != 0:
			f.sizes[i] = p.Size
		case f.Unit == UTF16:
			f.sizes[i] = UTF16Len(p.Text)
		case f.Unit == Bytes:
			f.sizes[i] = len(p.Text)
		default:
			f.sizes[i] = f.Counter.Count(p.Text)
		}
	}
	return f.sizes[i]
}

func (f *Fitter) weight(i int) int {
	if w := f.Pieces[i].Weight; w != 0 {
		return w
	}
	return f.size(i)
}

// Cuts returns the record of the pieces cut, in the order they went.
func (f *Fitter) Cuts() []Cut {
	out := make([]Cut, 0, len(f.seq))
	for _, i := range f.seq {
		p := f.Pieces[i]
		c := Cut{What: p.What, Where: p.Where}
		if c.What == "" {
			c.What = firstLine(strings.TrimLeft(p.Text, " \t\r\n"))
		}
		c.What = tiers.ShortLine(c.What)
		if f.Unit != Tokens {
			c.Units = f.size(i)
		} else {
			c.Tokens = f.size(i)
		}
		out = append(out, c)
	}
	return out
}

// UTF16Len is the length of s as JavaScript measures a string, in UTF-16
// code units: a character outside the Basic Multilingual Plane (most
// emoji) counts 2; an invalid UTF-8 byte counts 1, as the replacement
// character it decodes to.
func UTF16Len(s string) int {
	n := 0
	for _, r := range s {
		n++
		if r > 0xFFFF {
			n++
		}
	}
	return n
}
