package checks

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/sergi/go-diff/diffmatchpatch"
)

// Word lists for comparing decisions. They are small on purpose: the
// comparison is lexical, and every word here is one more way for two
// unrelated decisions to look alike.
var (
	negations   = set("not", "no", "never", "without")
	auxiliaries = set("do", "does", "did", "should", "must", "will", "can", "shall", "we", "to")
	stopwords   = set("a", "an", "the", "for", "of", "to", "in", "on", "at", "by", "with", "and", "or", "as",
		"is", "are", "be", "it", "its", "this", "that", "we", "our", "all", "every", "each", "from", "into",
		"via", "per", "than", "then", "so", "only")
	// choiceMarkers are the words after which a text names its choice
	// ("use YAML", "store entries in SQLite", "represent money as
	// cents"), as against its scope ("a cache for tokens", "run tests
	// in CI": run is not a marker, so tests is the scope).
	choiceMarkers = set("use", "uses", "using", "choose", "chose", "pick", "prefer", "adopt", "switch", "in", "as",
		"with", "to", "via", "on", "at", "over", "into", "is", "are", "be", "stay", "stays")
	articles = set("a", "an", "the", "our", "its")
	// identifiers are words after which a number names a thing rather
	// than a quantity: "practice number 4" and "practice number 7" are two
	// practices, not two choices.
	identifiers = set("number", "no", "#", "issue", "pr", "ticket", "step", "phase", "version", "v", "item",
		"rule", "decision", "entry", "section", "part", "chapter", "task", "milestone", "sprint", "release")
	antonymPairs = [][2]string{
		{"enable", "disable"}, {"allow", "forbid"}, {"allow", "disallow"}, {"allow", "deny"},
		{"use", "avoid"}, {"include", "exclude"}, {"add", "remove"}, {"keep", "drop"}, {"keep", "remove"},
		{"always", "never"}, {"require", "forbid"}, {"on", "off"}, {"accept", "reject"}, {"public", "private"},
		{"sync", "async"}, {"synchronous", "asynchronous"}, {"before", "after"}, {"yes", "no"}, {"true", "false"},
	}
)

func set(ws ...string) map[string]bool {
	m := make(map[string]bool, len(ws))
	for _, w := range ws {
		m[w] = true
	}
	return m
}

// comparer diffs decision texts word by word, one rune per distinct word,
// so that many pairs can be compared with each text split only once.
type comparer struct {
	dmp  *diffmatchpatch.DiffMatchPatch
	ids  map[string]rune
	byID map[rune]string
}

// phrase is a decision text split into words and encoded as runes.
type phrase struct {
	words []string
	runes []rune
}

func newComparer() *comparer {
	return &comparer{dmp: diffmatchpatch.New(), ids: map[string]rune{}, byID: map[rune]string{}}
}

func (c *comparer) phrase(s string) phrase {
	p := phrase{words: words(s)}
	p.runes = make([]rune, len(p.words))
	for i, w := range p.words {
		r, ok := c.ids[w]
		if !ok {
			// Private use and above: never a surrogate, so the runes
			// survive go-diff's conversions to string.
			r = rune(0xE000 + len(c.ids))
			c.ids[w], c.byID[r] = r, w
		}
		p.runes[i] = r
	}
	return p
}

// maxNegationWords bounds the words a negation adds ("we must not").
const maxNegationWords = 4

// contradicts compares two decision phrases word by word with go-diff. They
// contradict when they differ in one place only and that place is
//   - a negation added to the other, identical, text ("Use cgo" / "Do not
//     use cgo");
//   - a word swapped for its opposite ("Enable telemetry" / "Disable
//     telemetry");
//   - one or two words of substance swapped for others where the text names
//     its choice (at the start, after "use", "in", "as" and the like, or a
//     number for a number) while most of the text, with at least two words
//     of substance, stays the same ("Use YAML for config" / "Use TOML for
//     config"): the same subject, another choice. "Run tests in CI" / "Run
//     lint in CI" differ in scope, not choice, and are not reported.
//
// The reason says which.
func (c *comparer) contradicts(pa, pb phrase) (string, bool) {
	wa, wb := pa.words, pb.words
	if len(wa) == 0 || len(wb) == 0 || abs(len(wa)-len(wb)) > maxNegationWords {
		return "", false
	}
	hunks, equal := c.wordDiff(pa.runes, pb.runes)
	if len(hunks) != 1 {
		return "", false
	}
	h := hunks[0]
	if len(h.del) == 0 || len(h.ins) == 0 {
		added := append(h.del, h.ins...)
		if isNegation(added) && content(equal) >= 1 {
			return fmt.Sprintf("one negates the other with %q", strings.Join(added, " ")), true
		}
		return "", false
	}
	if len(h.del) == 1 && len(h.ins) == 1 && opposite(h.del[0], h.ins[0]) && content(equal) >= 1 {
		return fmt.Sprintf("%q is the opposite of %q", h.del[0], h.ins[0]), true
	}
	switch {
	case len(h.del) > 2 || len(h.ins) > 2:
	case !choiceSlot(equal[:h.at], h):
	case content(h.del) == 0 || content(h.ins) == 0:
	case stem(h.del) == stem(h.ins):
	case content(equal) < 2:
	case 10*len(equal) <= 6*max(len(wa), len(wb)):
	default:
		return fmt.Sprintf("the same subject with another choice: %q against %q", strings.Join(h.del, " "), strings.Join(h.ins, " ")), true
	}
	return "", false
}

// hunk is a run of words deleted from the first text and inserted in the
// second between two stretches they share; at is how many shared words
// come before it.
type hunk struct {
	del, ins []string
	at       int
}

// choiceSlot reports whether the hunk, after the shared words before it,
// sits where a text names its choice: at the start, after a choice marker
// (articles skipped), or where one number stands for another.
func choiceSlot(before []string, h hunk) bool {
	numbers := len(h.del) == 1 && len(h.ins) == 1 && isNumber(h.del[0]) && isNumber(h.ins[0])
	if numbers && (len(before) == 0 || !identifiers[before[len(before)-1]]) {
		return true
	}
	for i := len(before) - 1; i >= 0; i-- {
		if !articles[before[i]] {
			return choiceMarkers[before[i]]
		}
	}
	return true
}

func isNumber(w string) bool {
	return strings.IndexFunc(w, unicode.IsDigit) == 0
}

// wordDiff diffs two encoded texts with go-diff and returns the changed
// hunks and the shared words.
func (c *comparer) wordDiff(a, b []rune) ([]hunk, []string) {
	var hunks []hunk
	var equal []string
	open := false
	for _, d := range c.dmp.DiffMainRunes(a, b, false) {
		var ws []string
		for _, r := range d.Text {
			ws = append(ws, c.byID[r])
		}
		if d.Type == diffmatchpatch.DiffEqual {
			equal, open = append(equal, ws...), false
			continue
		}
		if !open {
			hunks, open = append(hunks, hunk{at: len(equal)}), true
		}
		h := &hunks[len(hunks)-1]
		if d.Type == diffmatchpatch.DiffDelete {
			h.del = append(h.del, ws...)
		} else {
			h.ins = append(h.ins, ws...)
		}
	}
	return hunks, equal
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// words splits a decision into lower-case words, spelling out "don't" and
// "cannot" so that negations compare as words.
func words(s string) []string {
	s = strings.ToLower(strings.ReplaceAll(s, "’", "'"))
	var out []string
	for _, w := range strings.FieldsFunc(s, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && !strings.ContainsRune("'-+#./_", r)
	}) {
		w = strings.Trim(w, "'-./_")
		switch {
		case w == "":
		case w == "cannot":
			out = append(out, "can", "not")
		case strings.HasSuffix(w, "n't"):
			stem := strings.TrimSuffix(w, "n't")
			switch stem {
			case "ca":
				stem = "can"
			case "wo":
				stem = "will"
			case "sha":
				stem = "shall"
			}
			out = append(out, stem, "not")
		default:
			out = append(out, w)
		}
	}
	return out
}

func isNegation(ws []string) bool {
	neg := false
	for _, w := range ws {
		switch {
		case negations[w]:
			neg = true
		case !auxiliaries[w]:
			return false
		}
	}
	return neg
}

func opposite(a, b string) bool {
	for _, p := range antonymPairs {
		if p == [2]string{a, b} || p == [2]string{b, a} {
			return true
		}
	}
	return false
}

// content counts the words of substance: not stop words, negations or
// auxiliaries.
func content(ws []string) int {
	n := 0
	for _, w := range ws {
		if !stopwords[w] && !negations[w] && !auxiliaries[w] {
			n++
		}
	}
	return n
}

// stem joins the words of substance with plural endings dropped, so "a
// test" and "tests" are not a different choice.
func stem(ws []string) string {
	var out []string
	for _, w := range ws {
		if stopwords[w] {
			continue
		}
		w = strings.TrimSuffix(w, "es")
		out = append(out, strings.TrimSuffix(w, "s"))
	}
	return strings.Join(out, " ")
}
