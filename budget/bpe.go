package budget

import (
	"fmt"
	"unicode/utf8"

	"github.com/dlclark/regexp2"
	tiktoken "github.com/pkoukk/tiktoken-go"
)

// The split patterns of tiktoken-go's encoding definitions, which it does
// not export; TestSplitPatternsAreTiktokenGos checks they are still its.
const (
	cl100kPattern = `(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`
	o200kPattern  = `[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?` +
		`|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?` +
		`|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+`
)

// bpe is one tiktoken encoding: the pattern that splits text into pieces
// and the ranks of the byte strings that pieces are merged into.
type bpe struct {
	split *regexp2.Regexp
	ranks map[string]int
}

// newBPE loads the named encoding's ranks with l and compiles its split
// pattern, with the same regular expression engine as tiktoken-go.
func newBPE(name string, l tiktoken.BpeLoader) (*bpe, error) {
	var pat string
	switch name {
	case tiktoken.MODEL_CL100K_BASE:
		pat = cl100kPattern
	case tiktoken.MODEL_O200K_BASE:
		pat = o200kPattern
	default:
		return nil, fmt.Errorf("unknown encoding %q (want cl100k_base or o200k_base)", name)
	}
	split, err := regexp2.Compile(pat, regexp2.None)
	if err != nil {
		return nil, fmt.Errorf("compiling the %s split pattern: %w", name, err)
	}
	// The offline loader reads the table named by the file name alone.
	ranks, err := l.LoadTiktokenBpe(name + ".tiktoken")
	if err != nil {
		return nil, fmt.Errorf("loading the %s ranks: %w", name, err)
	}
	return &bpe{split: split, ranks: ranks}, nil
}

// count returns the number of tokens tiktoken's encode_ordinary gives text.
// Invalid UTF-8 counts as tiktoken-go counts it: each bad byte is U+FFFD.
func (b *bpe) count(text string) int {
	runes := []rune(text)
	if !utf8.ValidString(text) {
		text = string(runes)
	}
	var m merger
	n := 0
	b.pieces(text, runes, func(piece string) {
		if _, ok := b.ranks[piece]; ok {
			n++
			return
		}
		n += m.count(piece, b.ranks)
	})
	return n
}

// pieces calls f with each piece of text that the split pattern matches,
// in order. runes is text as runes, which the pattern matches against;
// regexp2 reports rune offsets, turned here into byte offsets in one pass.
func (b *bpe) pieces(text string, runes []rune, f func(piece string)) {
	m, err := b.split.FindRunesMatch(runes)
	r, pos := 0, 0 // a rune offset and its byte offset in text
	for m != nil && err == nil {
		for ; r < m.Index; r++ {
			pos += utf8.RuneLen(runes[r])
		}
		start := pos
		for ; r < m.Index+m.Length; r++ {
			pos += utf8.RuneLen(runes[r])
		}
		f(text[start:pos])
		m, err = b.split.FindNextMatch(m)
	}
	if err != nil {
		// regexp2 fails only on a match timeout, and none is set.
		panic(fmt.Sprintf("budget: splitting text into pieces: %v", err))
	}
}
