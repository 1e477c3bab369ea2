package budget

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/dlclark/regexp2"
)

// splitters are the hand-written splitters and the patterns they stand
// for, compiled as tiktoken-go compiles them.
var splitters = []struct {
	name    string
	next    func(string, int) int
	pattern *regexp2.Regexp
}{
	{"cl100k_base", nextCL100K, regexp2.MustCompile(cl100kPattern, regexp2.None)},
	{"o200k_base", nextO200K, regexp2.MustCompile(o200kPattern, regexp2.None)},
}

// regexpPieces returns the pieces re matches in text, as tiktoken-go
// splits: matched over the text's runes.
func regexpPieces(t testing.TB, re *regexp2.Regexp, text string) []string {
	t.Helper()
	var out []string
	m, err := re.FindStringMatch(text)
	for m != nil && err == nil {
		out = append(out, m.String())
		m, err = re.FindNextMatch(m)
	}
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// ourPieces returns the pieces next splits text into.
func ourPieces(next func(string, int) int, text string) []string {
	var out []string
	for i := 0; i < len(text); {
		j := next(text, i)
		out = append(out, text[i:j])
		i = j
	}
	return out
}

// checkSplit fails t unless both splitters give text the pieces of their
// pattern. text must be valid UTF-8, as it is by the time it is split.
func checkSplit(t testing.TB, label, text string) {
	t.Helper()
	for _, s := range splitters {
		want := regexpPieces(t, s.pattern, text)
		if got := ourPieces(s.next, text); !slices.Equal(got, want) {
			for i := range min(len(got), len(want)) {
				if got[i] != want[i] {
					t.Fatalf("%s %s: piece %d is %q, the pattern's %q (text %.200q)", s.name, label, i, got[i], want[i], text)
				}
			}
			t.Fatalf("%s %s: %d pieces, the pattern gives %d (text %.200q)", s.name, label, len(got), len(want), text)
		}
	}
}

// splitAlphabet holds runes of every class the patterns tell apart, and of
// every border between them: ASCII, the contractions' letters in both
// cases and their Unicode look-alikes, every kind of space, letters of
// each category, marks, numbers of each kind, symbols.
var splitAlphabet = []rune("aAsSdDtTmMlLrRvVeEzZ09'’ \t\n\r\v\f!/.-_,;:\"#(){}<>=+*&|\\`~@$%^?" +
	"\u0085\u00a0\u1680\u2000\u2028\u2029\u202f\u205f\u3000\u200b\ufeff" + // spaces and near-spaces
	"ſKİıßÀàǅǈᾈΣσς" + // case oddities: long s, Kelvin, dotted I, titlecase
	"ʰʼˆ々ー" + // Lm
	"日本語אבاب" + // Lo
	"\u0301\u0308\u0903\u20dd\u0488" + // Mn, Mc, Me
	"٣۴१²½Ⅻ〇" + // Nd, No, Nl
	"🎉👩\u200d💻€©\ufffd\U0001F1E6") // symbols, ZWJ, replacement

// splitFragments are strings of several runes that random runs rarely
// make: contractions, glued to letters, of both cases.
var splitFragments = []string{"'s", "'S", "'t", "'re", "'RE", "'rE", "'ve", "'Ve", "'m", "'ll", "'lL", "'d", "'D", "'r", "'l", "'v", "'ſ", "'K",
	"Ab", "aB", "ǅa", "\u0301a", " a", " !", " 1", "\r\n", " \n ", "!/\n/", "1234", "x'sy"}

// randomText returns a text of up to n bytes from the alphabet, in runs,
// and the fragments.
func randomText(rng *rand.Rand, n int) string {
	var b strings.Builder
	for b.Len() < n {
		if rng.IntN(4) == 0 {
			b.WriteString(splitFragments[rng.IntN(len(splitFragments))])
		}
		r := splitAlphabet[rng.IntN(len(splitAlphabet))]
		for range 1 + rng.IntN(4) {
			b.WriteRune(r)
		}
		if rng.IntN(8) == 0 { // any rune at all, now and then
			b.WriteRune(rune(rng.IntN(0x110000)))
		}
	}
	return strings.ToValidUTF8(b.String(), "\ufffd")
}

// TestSplitMatchesPatterns compares the splitters with the patterns on
// random texts over the alphabet of every class, the adversarial texts,
// the reference cases, the repository's own Markdown files and the seed
// documents beside the checkout.
func TestSplitMatchesPatterns(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range 3000 {
		checkSplit(t, "random text", randomText(rng, 1+i%200))
	}
	for _, text := range adversarial() {
		checkSplit(t, "adversarial text", string([]rune(text)))
	}
	// Every text of up to three runes over an alphabet of one rune of each
	// class and case that the patterns tell apart, and of four over a
	// smaller one.
	all := func(alphabet []rune, n int) {
		text := make([]rune, n)
		var walk func(int)
		walk = func(i int) {
			if i == n {
				checkSplit(t, "short text", string(text))
				return
			}
			for _, r := range alphabet {
				text[i] = r
				walk(i + 1)
			}
		}
		walk(0)
	}
	wide := []rune("asSdlLerv'A \t\n\r!/1\u00a0ǅʰ日\u0301²٣ſKİ\u2028🎉")
	for n := 1; n <= 3; n++ {
		all(wide, n)
	}
	all([]rune("aAs'Ll \n!/1\u0301"), 4)
	cases, err := os.ReadFile(filepath.Join("..", "testdata", "tokens", "cases.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	for i, line := range strings.Split(strings.TrimSpace(string(cases)), "\n") {
		var c struct{ Text string }
		if err := json.Unmarshal([]byte(line), &c); err != nil {
			t.Fatalf("cases.jsonl line %d: %v", i+1, err)
		}
		checkSplit(t, fmt.Sprintf("cases.jsonl line %d", i+1), strings.ToValidUTF8(c.Text, "\ufffd"))
	}
	var docs int
	err = filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != ".." && strings.HasPrefix(d.Name(), ".") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".md") {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		docs++
		checkSplit(t, path, strings.ToValidUTF8(string(data), "\ufffd"))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if docs < 10 {
		t.Fatalf("only %d Markdown files found", docs)
	}
	// The seed documents of ../shared, where CI has them.
	seeds, _ := filepath.Glob(filepath.Join("..", "..", "shared", "seeds", "*.txt"))
	for _, path := range seeds {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		checkSplit(t, path, strings.ToValidUTF8(string(data), "\ufffd"))
	}
}

// FuzzSplit compares the splitters with the patterns on any text.
func FuzzSplit(f *testing.F) {
	for _, s := range []string{"", "hello world", "don't 'LL 'Re", "  \n\n  x", " !!\n/\n", "ǅungla Ǆ", "a\u0301\u0301b", "x\u00a0\u00a0y", "١٢٣٤", "A'sB'T"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if !utf8.ValidString(text) {
			text = string([]rune(text))
		}
		checkSplit(t, "fuzz input", text)
	})
}

// TestClassify checks the rune classes against the unicode tables for
// every rune, each class on its own: \s, \r\n, \p{L}, \p{N},
// [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}] and [\p{Ll}\p{Lm}\p{Lo}\p{M}].
func TestClassify(t *testing.T) {
	t.Parallel()
	in := func(r rune, tabs ...*unicode.RangeTable) bool { return unicode.IsOneOf(tabs, r) }
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if !utf8.ValidRune(r) {
			continue // surrogates: never in valid UTF-8
		}
		_, _, k := at(string(r), 0)
		for _, c := range []struct {
			bit  uint8
			want bool
		}{
			{cS, unicode.IsSpace(r)},
			{cNL, r == '\r' || r == '\n'},
			{cL, in(r, unicode.L)},
			{cN, in(r, unicode.N)},
			{cU, in(r, unicode.Lu, unicode.Lt, unicode.Lm, unicode.Lo, unicode.M)},
			{cW, in(r, unicode.Ll, unicode.Lm, unicode.Lo, unicode.M)},
		} {
			if (k&c.bit != 0) != c.want {
				t.Fatalf("U+%04X: class bit %d is %v, want %v", r, c.bit, k&c.bit != 0, c.want)
			}
		}
	}
}
