package budget

import (
	"fmt"
	"strings"
	"testing"
)

// BenchmarkFit fits a 2,400-block document to a tenth of its size, counting
// with a warm cache in front of a cheap counter: the fitting itself, not
// the tokenizer, is what it measures.
func BenchmarkFit(b *testing.B) {
	var d strings.Builder
	for i := range 400 {
		fmt.Fprintf(&d, "## Section %d\n\nSome prose about topic %d, which goes on for a while.\n\n- a point\n- another point\n\n", i, i)
	}
	d.WriteString("## HANDOFF\nsession_summary: kept\n")
	text := d.String()
	c := NewCache("words", words, nil)
	keep := func(s string) bool { return s == "HANDOFF" }
	budget := words.Count(text) / 10
	Fit(text, budget, c, "warm/x.md", keep)
	for b.Loop() {
		Fit(text, budget, c, "warm/x.md", keep)
	}
}
