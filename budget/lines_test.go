package budget

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestNextSplit checks that the line memo splits text at exactly the
// points where CountJoined may join two counts (TestSplitAtNewline checks
// those points against the encoders).
func TestNextSplit(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(5, 6))
	for range 5000 {
		s := joinText(r, 40)
		var want, got []int
		for p := 1; p < len(s); p++ {
			if joinPoint(s[:p], s[p:]) == p {
				want = append(want, p)
			}
		}
		for at := 0; at < len(s); {
			p := at + nextSplit(s[at:])
			if p < len(s) {
				got = append(got, p)
			}
			at = p
		}
		if !slices.Equal(got, want) {
			t.Fatalf("%q: the memo splits at %v, the join points are %v", s, got, want)
		}
	}
}

// TestLineMemo checks a cache's line-by-line counts against the encoder's
// counts of whole texts, texts that share lines among them, and that a
// memo over its bound starts afresh.
func TestLineMemo(t *testing.T) {
	t.Parallel()
	encs := sharedEncoders(t)
	r := rand.New(rand.NewPCG(7, 8))
	for _, name := range encodings {
		enc := encs[name]
		m := newLineMemo()
		var lines []string
		for range 200 {
			lines = append(lines, joinText(r, 12))
		}
		for range 3000 {
			var s string
			for n := r.IntN(12); n > 0; n-- {
				s += lines[r.IntN(len(lines))] + "\n"
			}
			s += joinText(r, 10)
			if got, want := m.Count(s, enc.Count), enc.Count(s); got != want {
				t.Fatalf("%s: the line memo counts %q as %d tokens, the encoder %d", name, s, got, want)
			}
		}
		if len(m.n) < 200 {
			t.Fatalf("%s: the memo holds %d lines", name, len(m.n))
		}
		m.bytes = lineMemoMax
		m.Count("memo bound\nmemo bound's second line", enc.Count) // two lines, in no text above
		if len(m.n) != 2 {
			t.Fatalf("%s: over its bound the memo kept %d lines, want the 2 just counted", name, len(m.n))
		}
	}
}
