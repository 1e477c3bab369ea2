package budget

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// lineWhole is a whole of one-line pieces measured as their joined text
// and a note of how many were cut, two words: for the fitter's own tests.
func lineWhole(f *Fitter, measures *int) func() int {
	return func() int {
		*measures++
		var b strings.Builder
		cut := 0
		for i, p := range f.Pieces {
			if f.IsCut(i) {
				cut++
				continue
			}
			b.WriteString(p.Text)
		}
		fmt.Fprintf(&b, "(%d cut)\n", cut)
		if f.Unit == UTF16 {
			return UTF16Len(b.String())
		}
		return f.Counter.Count(b.String())
	}
}

func TestFitterCutsLowestPriorityFromTheBottom(t *testing.T) {
	t.Parallel()
	f := &Fitter{Counter: words, Pieces: []Piece{
		{Text: "a one\n", Where: "x.md § A", Priority: 1},
		{Text: "b one two\n", Where: "x.md § A", Priority: 0},
		{Text: "c one two three\n", Where: "x.md § B", Priority: Keep},
		{Text: "d one\n", Where: "x.md § B", Priority: 1},
		{Text: "e one two\n", Where: "x.md § B", Priority: 0},
	}}
	var measures int
	f.Measure = lineWhole(f, &measures)
	for limit, want := range map[int][]Cut{
		// The whole: 2+3+4+2+3 words and the note's 2.
		16: {},
		15: {{What: "e one two", Where: "x.md § B", Tokens: 3}},
		10: {{What: "e one two", Where: "x.md § B", Tokens: 3}, {What: "b one two", Where: "x.md § A", Tokens: 3}},
		6: {{What: "e one two", Where: "x.md § B", Tokens: 3}, {What: "b one two", Where: "x.md § A", Tokens: 3},
			{What: "d one", Where: "x.md § B", Tokens: 2}, {What: "a one", Where: "x.md § A", Tokens: 2}},
	} {
		f.Limit = limit
		n := f.Fit()
		if got := f.Cuts(); fmt.Sprint(got) != fmt.Sprint(want) || n > limit {
			t.Errorf("limit %d: %d words, cuts %+v, want %+v", limit, n, got, want)
		}
	}
	// Only what is never cut is left, and it is over: the fitter says so.
	f.Limit = 5
	if n := f.Fit(); n != 6 || len(f.Cuts()) != 4 || f.IsCut(2) {
		t.Fatalf("over: %d words, %d cuts, kept piece cut %v", n, len(f.Cuts()), f.IsCut(2))
	}
}

// TestFitterMeasuresOnlyPastTheEstimate: cuts that bring the estimate
// within the limit are made without measuring the whole; then it is
// measured after each cut.
func TestFitterMeasuresOnlyPastTheEstimate(t *testing.T) {
	t.Parallel()
	f := &Fitter{Counter: words}
	for i := range 100 {
		f.Pieces = append(f.Pieces, Piece{Text: fmt.Sprintf("line %d\n", i)})
	}
	var measures int
	f.Measure = lineWhole(f, &measures)
	// 200 words: the estimate cuts 50 lines, and the note costs one
	// more, found by measuring.
	f.Limit, f.Estimate = 100, 200
	if n := f.Fit(); n != 100 || f.Steps() != 51 || measures != 2 {
		t.Fatalf("%d words after %d cuts and %d measures", n, f.Steps(), measures)
	}
	// No estimate: the whole is measured first, and one that fits is
	// left as it is.
	measures, f.Estimate, f.Limit = 0, 0, 202
	if n := f.Fit(); n != 202 || f.Steps() != 0 || measures != 1 {
		t.Fatalf("%d words after %d cuts and %d measures", n, f.Steps(), measures)
	}
}

// TestFitterGallop: on a whole whose size only falls as pieces go, the
// gallop finds the least cutting that fits, as cutting one piece at a
// time does, in far fewer measures.
func TestFitterGallop(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		pieces := make([]Piece, 1+r.IntN(400))
		floors := make([]Piece, len(pieces))
		for i := range pieces {
			pieces[i] = Piece{Text: strings.Repeat("w ", 1+r.IntN(9)) + "\n", Priority: r.IntN(3)}
			// A floor: no more words than the piece has.
			floors[i] = pieces[i]
			floors[i].Weight = 1
		}
		limit := 1 + r.IntN(2000)
		var slow, fast int
		// An estimate within the limit: one piece at a time.
		one := &Fitter{Counter: words, Limit: limit, Pieces: pieces, Estimate: 1}
		one.Measure = lineWhole(one, &slow)
		gallop := &Fitter{Counter: words, Limit: limit, Pieces: floors, Gallop: true, Estimate: len(pieces)}
		gallop.Measure = lineWhole(gallop, &fast)
		a, b := one.Fit(), gallop.Fit()
		if a != b || one.Steps() != gallop.Steps() || fmt.Sprint(one.Cuts()) != fmt.Sprint(gallop.Cuts()) {
			t.Fatalf("limit %d: one at a time %d words after %d cuts, gallop %d after %d", limit, a, one.Steps(), b, gallop.Steps())
		}
		if one.Steps() > 40 && fast*4 > slow {
			t.Fatalf("the gallop measured %d times, one at a time %d", fast, slow)
		}
	}
}

func TestFitterUTF16(t *testing.T) {
	t.Parallel()
	f := &Fitter{Unit: UTF16, Limit: 12, Pieces: []Piece{{Text: "abc\n"}, {Text: "😀é\n", Where: "hook § Warnings"}}}
	var measures int
	f.Measure = lineWhole(f, &measures)
	if n := f.Fit(); n != 12 || fmt.Sprint(f.Cuts()) != fmt.Sprint([]Cut{{What: "😀é", Where: "hook § Warnings", Units: 4}}) {
		t.Fatalf("%d units, cuts %+v", n, f.Cuts())
	}
}
