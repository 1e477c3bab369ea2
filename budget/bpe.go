package budget

import (
	"fmt"
	"sync"
	"unicode/utf8"
)

// bpe is one tiktoken encoding: how text splits into pieces and the ranks
// of the byte strings that pieces are merged into.
type bpe struct {
	// next returns the end of the piece of text that starts at byte i, as
	// the encoding's split pattern (in tiktoken-go's regular expression
	// engine) would match it; see split.go.
	next  func(text string, i int) int
	ranks *table
}

// newBPE loads the named encoding's embedded table.
func newBPE(name string) (*bpe, error) {
	var b bpe
	var enc string
	switch name {
	case cl100kBase:
		b.next, enc = nextCL100K, cl100kTable
	case o200kBase:
		b.next, enc = nextO200K, o200kTable
	default:
		return nil, fmt.Errorf("unknown encoding %q (want cl100k_base or o200k_base)", name)
	}
	var err error
	if b.ranks, err = loadTable(enc); err != nil {
		return nil, fmt.Errorf("loading the %s ranks: %w", name, err)
	}
	return &b, nil
}

// mergers keeps the merge buffers from text to text: a cache counts a new
// text line by line.
var mergers = sync.Pool{New: func() any { return new(merger) }}

// count returns the number of tokens tiktoken's encode_ordinary gives text.
// Invalid UTF-8 counts as tiktoken-go counts it: each bad byte is U+FFFD.
func (b *bpe) count(text string) int {
	if !utf8.ValidString(text) {
		text = string([]rune(text))
	}
	m := mergers.Get().(*merger)
	defer mergers.Put(m)
	n := 0
	for i := 0; i < len(text); {
		j := b.next(text, i)
		if piece := text[i:j]; len(piece) == 1 {
			n++ // every byte is a token
		} else if _, ok := b.ranks.rank(piece); ok {
			n++
		} else {
			n += m.count(piece, b.ranks)
		}
		i = j
	}
	return n
}
