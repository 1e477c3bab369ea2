package budget

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestCacheKeepsLines proves a text the cache has not seen is counted in
// the next process only where it is new: its lines of lineKeep bytes or
// more are kept under their own keys, so a text made of lines counted
// before (a file edited elsewhere, or reordered) is counted without
// building the encoder, and still exactly.
func TestCacheKeepsLines(t *testing.T) {
	t.Parallel()
	lines := make([]string, 12)
	for i := range lines {
		lines[i] = fmt.Sprintf("- Decision %d: keep the ledger append-only, because an audit needs every change of item %d.\n", i, i*7)
		if len(lines[i]) < lineKeep {
			t.Fatalf("line %d is %d bytes, under lineKeep", i, len(lines[i]))
		}
	}
	first := NewCache(cl100kBase, mustEncoder(t), nil)
	whole := strings.Join(lines, "")
	want := mustEncoder(t).Count(whole)
	if n := first.Count(whole); n != want {
		t.Fatalf("first count %d, want %d", n, want)
	}
	// The next process: the lines in another order, one left out.
	enc := mustEncoder(t)
	next := NewCache(cl100kBase, enc, first.Marshal())
	changed := strings.Join(append(append([]string{}, lines[6:]...), lines[:5]...), "")
	if n, want := next.Count(changed), mustEncoder(t).Count(changed); n != want {
		t.Fatalf("changed text counted %d, want %d", n, want)
	}
	if enc.Built() {
		t.Fatal("the encoder was built for a text made of lines the saved cache holds")
	}
	if hits, misses := next.Stats(); hits != 0 || misses != 1 {
		t.Fatalf("stats %d hits, %d misses: want the text's one miss, lines not counted", hits, misses)
	}
	// A new line is counted, alone.
	added := changed + "- Decision 99: a line no process has counted before, long enough to be kept.\n"
	if n, want := next.Count(added), mustEncoder(t).Count(added); n != want {
		t.Fatalf("added text counted %d, want %d", n, want)
	}
	if !enc.Built() {
		t.Fatal("a new line was not counted")
	}
}

// TestCacheKeepsLinesExact counts random texts made of shared lines,
// short and long, with whitespace and slashes at line starts (which are
// no split points), through a chain of caches each loaded from the last
// one's save, against the encoder counting each text whole.
func TestCacheKeepsLinesExact(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(15, 3))
	pool := []string{
		"\n", "\n\n", "  indented continuation of the line above it, long enough to be kept by the cache\n",
		"// a comment line that starts with a slash and runs on past the length the cache keeps\n",
		"short\n", "   \n", "Ünïcödé line with accents and symbols €€€ that is long enough to be kept\n",
		"- a bullet about the ledger, long enough to be kept under a key of its own here\n",
		"\tTabbed line, long enough to be kept under a key of its own in the cache file\n",
		"1234567890 numbers and words 1234567890 numbers and words 1234567890 more\n",
	}
	truth := mustEncoder(t)
	var saved []byte
	for round := range 30 {
		c := NewCache(cl100kBase, mustEncoder(t), saved)
		for range 5 {
			var b strings.Builder
			for range 1 + r.IntN(25) {
				b.WriteString(pool[r.IntN(len(pool))])
			}
			text := b.String()
			if r.IntN(3) == 0 {
				text = strings.TrimSuffix(text, "\n")
			}
			if n, want := c.Count(text), truth.Count(text); n != want {
				t.Fatalf("round %d: %q counted %d, want %d", round, text, n, want)
			}
		}
		saved = c.Marshal()
	}
}

func mustEncoder(t *testing.T) *Encoder {
	t.Helper()
	enc, err := NewEncoder(cl100kBase)
	if err != nil {
		t.Fatal(err)
	}
	return enc
}

// TestCountWholeKeepsNoLine proves CountWhole remembers a text as one: the
// next process finds the text, but none of its lines alone.
func TestCountWholeKeepsNoLine(t *testing.T) {
	t.Parallel()
	text := strings.Repeat("A cold note's line, long enough that Count would keep it under its own key.\n", 3) +
		"And a last line of the note, long enough that Count would keep it alone too.\n"
	c := NewCache(cl100kBase, mustEncoder(t), nil)
	if n, want := Whole(c).Count(text), mustEncoder(t).Count(text); n != want {
		t.Fatalf("CountWhole %d, want %d", n, want)
	}
	enc := mustEncoder(t)
	next := NewCache(cl100kBase, enc, c.Marshal())
	if next.CountTransient(text) == 0 || enc.Built() {
		t.Fatal("the whole text was not kept")
	}
	last := text[strings.LastIndex(text[:len(text)-1], "\n")+1:]
	if next.CountTransient(last); !enc.Built() {
		t.Fatal("CountWhole kept a line alone")
	}
	if f := (countCalls{}); Whole(&f) != Counter(&f) {
		t.Fatal("Whole changed a counter that is no cache")
	}
}

type countCalls struct{ n int }

func (c *countCalls) Count(s string) int { c.n++; return len(s) }

// TestCacheKeepsNoShortLine proves lines under lineKeep bytes are counted
// but not kept: the cache holds the text alone.
func TestCacheKeepsNoShortLine(t *testing.T) {
	t.Parallel()
	c := NewCache(cl100kBase, mustEncoder(t), nil)
	c.Count("- short line one\n- short line two\n- short line three\n")
	if len(c.entries) != 1 {
		t.Fatalf("the cache holds %d entries, want the text's alone", len(c.entries))
	}
}

// TestCacheKeepsLinesInUse proves a kept line lives on while texts that
// miss use it, past cacheKeep saves: a file changed at every start keeps
// its unchanged lines cached.
func TestCacheKeepsLinesInUse(t *testing.T) {
	t.Parallel()
	var lines []string
	for i := range 6 {
		lines = append(lines, fmt.Sprintf("- Kept line %d of a file that changes at every start, long enough to be kept.\n", i))
	}
	r := rand.New(rand.NewPCG(1, 2))
	seen := map[string]bool{}
	var saved []byte
	for round := 0; round < cacheKeep+4; {
		// Each start's text is new (so it misses), made of the kept lines.
		var b strings.Builder
		for _, i := range r.Perm(len(lines)) {
			b.WriteString(lines[i])
		}
		text := b.String()
		if seen[text] {
			continue
		}
		seen[text] = true
		enc := mustEncoder(t)
		c := NewCache(cl100kBase, enc, saved)
		if n, want := c.Count(text), mustEncoder(t).Count(text); n != want {
			t.Fatalf("round %d: count %d, want %d", round, n, want)
		}
		if round > 0 && enc.Built() {
			t.Fatalf("round %d: the lines in use were dropped", round)
		}
		saved = c.Marshal()
		round++
	}
}
