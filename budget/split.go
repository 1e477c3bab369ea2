package budget

import (
	"unicode"
	"unicode/utf8"
)

// The pre-tokenizers of cl100k_base and o200k_base, written out by hand:
// each gives exactly the pieces its split pattern gives in regexp2, the
// backtracking engine tiktoken-go splits with (FuzzSplit and
// TestSplitMatchesRegexp compare them), at a small fraction of its cost.
// The patterns are in bpe_test.go, beside the test that checks they are
// still tiktoken-go's. Every alternative of both patterns matches at least
// one character, and at every position some alternative matches, so the
// pieces tile the text: a piece starts where the last one ended.
//
// Character classes are regexp2's, which tests each rune against Go's
// unicode tables: \p{L} is unicode.L, \s is unicode.IsSpace, and the
// case-insensitive contractions compare unicode.ToLower of each rune.

// Classes of a rune, as bits.
const (
	cL  = 1 << iota // \p{L}
	cN              // \p{N}
	cS              // \s
	cNL             // \r or \n
	cU              // [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]
	cW              // [\p{Ll}\p{Lm}\p{Lo}\p{M}]
)

// latin1 holds the classes of the runes below 256.
var latin1 = func() (t [256]uint8) {
	for r := range t {
		t[r] = classify(rune(r))
	}
	return t
}()

// classify returns the classes of r from the unicode tables. The general
// categories are disjoint, so it stops at the first that r is in, asking
// the commonest first (TestClassify checks every rune against each table
// on its own).
func classify(r rune) uint8 {
	var k uint8
	if unicode.IsSpace(r) {
		k |= cS
	}
	if r == '\r' || r == '\n' {
		k |= cNL
	}
	switch {
	case unicode.Is(unicode.L, r):
		k |= cL
		switch {
		case unicode.Is(unicode.Lo, r), unicode.Is(unicode.Lm, r):
			k |= cU | cW
		case unicode.Is(unicode.Ll, r):
			k |= cW
		case unicode.Is(unicode.Lu, r), unicode.Is(unicode.Lt, r):
			k |= cU
		}
	case unicode.Is(unicode.N, r):
		k |= cN
	case unicode.Is(unicode.M, r):
		k |= cU | cW
	}
	return k
}

// at returns the rune of s at byte i, its width and its classes.
func at(s string, i int) (rune, int, uint8) {
	if c := s[i]; c < utf8.RuneSelf {
		return rune(c), 1, latin1[c]
	}
	r, w := utf8.DecodeRuneInString(s[i:])
	if r < 256 {
		return r, w, latin1[r]
	}
	return r, w, classify(r)
}

// classAt returns the classes of the rune at byte i of s, or 0 past its end.
func classAt(s string, i int) uint8 {
	if i >= len(s) {
		return 0
	}
	_, _, k := at(s, i)
	return k
}

// isPrefix reports whether a rune of classes k is [^\r\n\p{L}\p{N}].
func isPrefix(k uint8) bool { return k&(cL|cN|cNL) == 0 }

// isPunct reports whether a rune of classes k is [^\s\p{L}\p{N}].
func isPunct(k uint8) bool { return k&(cS|cL|cN) == 0 }

// span returns the end of the run of runes from byte i whose classes all
// have a bit of want.
func span(s string, i int, want uint8) int {
	for i < len(s) {
		_, w, k := at(s, i)
		if k&want == 0 {
			break
		}
		i += w
	}
	return i
}

// punctSpan returns the end of the run of [^\s\p{L}\p{N}] from byte i.
func punctSpan(s string, i int) int {
	for i < len(s) {
		_, w, k := at(s, i)
		if !isPunct(k) {
			break
		}
		i += w
	}
	return i
}

// digits returns the end of \p{N}{1,3} at byte i, whose rune is a number.
func digits(s string, i int) int {
	for range 3 {
		_, w, k := at(s, i)
		if k&cN == 0 {
			break
		}
		if i += w; i == len(s) {
			break
		}
	}
	return i
}

// contraction returns the end of (?i:'s|'t|'re|'ve|'m|'ll|'d) at byte i,
// or i when there is none there.
func contraction(s string, i int) int {
	if i+1 >= len(s) || s[i] != '\'' {
		return i
	}
	r, w := utf8.DecodeRuneInString(s[i+1:])
	var second rune
	switch unicode.ToLower(r) {
	case 's', 't', 'm', 'd':
		return i + 1 + w
	case 'r', 'v':
		second = 'e'
	case 'l':
		second = 'l'
	default:
		return i
	}
	j := i + 1 + w
	if j < len(s) {
		if r, w := utf8.DecodeRuneInString(s[j:]); unicode.ToLower(r) == second {
			return j + w
		}
	}
	return i
}

// spaces returns the end of the whitespace piece at byte i, whose rune is
// \s, as the patterns' last three alternatives match it:
// \s*[\r\n]+ ends after the run's last \r or \n; else \s+(?!\S) is the run
// less its last rune when a non-space follows it; else \s+ is the run.
func spaces(s string, i int) int {
	lastNL, lastStart := -1, i
	j := i
	for j < len(s) {
		_, w, k := at(s, j)
		if k&cS == 0 {
			break
		}
		if k&cNL != 0 {
			lastNL = j
		}
		lastStart = j
		j += w
	}
	switch {
	case lastNL >= 0:
		return lastNL + 1 // \r and \n are one byte each
	case j < len(s) && lastStart > i:
		return lastStart
	}
	return j
}

// nextCL100K returns the end of the piece at byte i of s under
//
//	(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}|
//	 ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+
func nextCL100K(s string, i int) int {
	if j := contraction(s, i); j > i {
		return j
	}
	c, w, k := at(s, i)
	switch {
	case k&cL != 0:
		return span(s, i, cL)
	case isPrefix(k) && classAt(s, i+w)&cL != 0:
		return span(s, i+w, cL)
	case k&cN != 0:
		return digits(s, i)
	}
	j := i
	if c == ' ' && isPunct(classAt(s, i+w)) {
		j = i + w
	}
	if j > i || isPunct(k) {
		j = punctSpan(s, j)
		for j < len(s) && (s[j] == '\r' || s[j] == '\n') {
			j++
		}
		return j
	}
	return spaces(s, i)
}

// nextO200K returns the end of the piece at byte i of s under
//
//	[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?|
//	[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?|
//	\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+
func nextO200K(s string, i int) int {
	c, w, k := at(s, i)
	prefixed := isPrefix(k) && i+w < len(s)
	// The first alternative, with its optional first rune and without.
	if prefixed {
		if j := upperLower(s, i+w); j > 0 {
			return contraction(s, j)
		}
	}
	if j := upperLower(s, i); j > 0 {
		return contraction(s, j)
	}
	// The second: U+ W*, with the first rune and without.
	if prefixed && classAt(s, i+w)&cU != 0 {
		return contraction(s, span(s, span(s, i+w, cU), cW))
	}
	if k&cU != 0 {
		return contraction(s, span(s, span(s, i, cU), cW))
	}
	if k&cN != 0 {
		return digits(s, i)
	}
	j := i
	if c == ' ' && isPunct(classAt(s, i+w)) {
		j = i + w
	}
	if j > i || isPunct(k) {
		j = punctSpan(s, j)
		for j < len(s) && (s[j] == '\r' || s[j] == '\n' || s[j] == '/') {
			j++
		}
		return j
	}
	return spaces(s, i)
}

// upperLower returns the end of [U]*[W]+ matched at byte i as a
// backtracking engine matches it (U and W as the cU and cW classes), or 0
// when it does not match. U* takes the longest run; if no W follows it,
// U* gives back runes until one of them, being also a W, can be W+: the
// last W in the run, which W+ cannot extend since no W follows it.
func upperLower(s string, i int) int {
	lastW := 0 // the end of the last rune of the U run that is a W
	j := i
	for j < len(s) {
		_, w, k := at(s, j)
		if k&cU == 0 {
			break
		}
		j += w
		if k&cW != 0 {
			lastW = j
		}
	}
	if classAt(s, j)&cW != 0 {
		return span(s, j, cW)
	}
	return lastW
}
