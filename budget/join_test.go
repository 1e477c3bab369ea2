package budget

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/wakeproto/wake/internal/countfn"
)

// joinParts are what the random texts of the join tests are made of: the
// runes and runs the split patterns treat apart, most of all around a
// newline (whitespace, "/", apostrophes, case, digits, marks, bad bytes).
var joinParts = []string{
	"\n", "\n", "\n", "\n\n", "\r\n", "\r", " ", " ", "  ", "\t", "\u00a0", "\u3000", "\v", "\f",
	"/", "//", "./", "-", "#", "## ", "* ", "- ", "|", "`", "```", ".", ",", ":", "!?", "(", ")", "\"", "'",
	"'s", "'S", "'re", "'ll", "'d", "'ve", "'m", "'t", "'x",
	"a", "word", "Word", "WORD", "iPhone", "McDonald", "x", "é", "É", "ǅ", "ß", "ʰ", "漢字", "ひらがな", "\u0301", "\u0903",
	"1", "12", "123", "1234", "٣", "½", "Ⅻ",
	"\xe2\x82", "\xac", "\xff", "🙂", "👩‍💻", "\u200d",
	"This context: 36,319 tokens.", "Left for work: 163,681\n",
}

func joinText(r *rand.Rand, max int) string {
	var b strings.Builder
	for n := r.IntN(max + 1); n > 0; n-- {
		b.WriteString(joinParts[r.IntN(len(joinParts))])
	}
	return b.String()
}

// TestSplitAtNewline checks the property CountJoined rests on, at every
// point where it applies: after a newline, before a rune that is neither
// whitespace nor "/", a text counts as its two sides do.
func TestSplitAtNewline(t *testing.T) {
	t.Parallel()
	encs := sharedEncoders(t)
	r := rand.New(rand.NewPCG(1, 2))
	for _, name := range encodings {
		enc := encs[name]
		points := 0
		for range 3000 {
			s := joinText(r, 40)
			whole := enc.Count(s)
			for p := 1; p < len(s); p++ {
				if joinPoint(s[:p], s[p:]) != p {
					continue
				}
				points++
				if got := enc.Count(s[:p]) + enc.Count(s[p:]); got != whole {
					t.Fatalf("%s: %q splits at %d into %d tokens, whole it is %d", name, s, p, got, whole)
				}
			}
		}
		if points < 1000 {
			t.Fatalf("%s: only %d split points tried", name, points)
		}
	}
}

// TestCountJoined compares CountJoined with counting the whole text, on
// random heads and tails, with the join far from, near and at the last
// line of the head.
func TestCountJoined(t *testing.T) {
	t.Parallel()
	encs := sharedEncoders(t)
	r := rand.New(rand.NewPCG(3, 4))
	for _, name := range encodings {
		enc := encs[name]
		inside, atEnd, whole := 0, 0, 0
		for range 8000 {
			head, tail := joinText(r, 30), joinText(r, 8)
			if r.IntN(3) == 0 {
				head += "\n"
			}
			if r.IntN(4) == 0 {
				head += strings.Repeat("word ", joinReach/5+r.IntN(20)) // no newline within reach
			}
			want := enc.Count(head + tail)
			if got := CountJoined(enc, head, enc.Count(head), tail); got != want {
				t.Fatalf("%s: CountJoined(%q, %q) = %d, counting the whole gives %d", name, head, tail, got, want)
			}
			switch p := joinPoint(head, tail); {
			case p < 0:
				whole++
			case p == len(head):
				atEnd++
			default:
				inside++
			}
		}
		if inside < 1000 || atEnd < 1000 || whole < 1000 {
			t.Fatalf("%s: joins inside the head %d, at its end %d, none %d: each wants 1,000 or more", name, inside, atEnd, whole)
		}
	}
}

// FuzzCountJoined compares CountJoined with counting the whole text.
func FuzzCountJoined(f *testing.F) {
	f.Add("# Boot context\n\nsome text\n", "This context: 1 token.\n")
	f.Add("a\n", "/b")
	f.Add("a.\n", "/b")
	f.Add("a\n \n", "b")
	f.Add("x\xe2\x82", "\xac")
	encs := sharedEncoders(f)
	f.Fuzz(func(t *testing.T, head, tail string) {
		for _, name := range encodings {
			enc := encs[name]
			if got, want := CountJoined(enc, head, enc.Count(head), tail), enc.Count(head+tail); got != want {
				t.Fatalf("%s: CountJoined(%q, %q) = %d, counting the whole gives %d", name, head, tail, got, want)
			}
		}
	})
}

// TestCacheCountJoined checks that a cache remembers the joined text, so
// that counting it whole later is a hit, and that a counter that is not an
// encoder counts the whole text.
func TestCacheCountJoined(t *testing.T) {
	t.Parallel()
	enc := sharedEncoders(t)["cl100k_base"]
	c := NewCache("cl100k_base", enc, nil)
	head, tail := "# Boot context\n\nMemory root: /tmp/x\n", "This context: 12 tokens.\n"
	n := c.Count(head)
	want := enc.Count(head + tail)
	if got := CountJoined(c, head, n, tail); got != want {
		t.Fatalf("CountJoined = %d, want %d", got, want)
	}
	hits, misses := c.Stats()
	if c.Count(head+tail) != want {
		t.Fatal("the cache gave another count for the joined text")
	}
	if h, m := c.Stats(); h != hits+1 || m != misses {
		t.Fatalf("counting the joined text whole: hits %d→%d, misses %d→%d; want one more hit", hits, h, misses, m)
	}
	calls := 0
	words := countfn.Func(func(s string) int { calls++; return len(strings.Fields(s)) })
	if got := CountJoined(words, "a b\n", 2, "c"); got != 3 || calls != 1 {
		t.Fatalf("CountJoined with a word counter = %d after %d calls, want 3 after 1", got, calls)
	}
}
