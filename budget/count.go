// Package budget counts tokens exactly and fits text to budgets: the
// tiktoken encoder (offline, built lazily), a content-hash count cache,
// allocation of a tier's budget among its files, and the one [Fitter]
// every output that cuts goes through: pieces cut in priority order from
// the bottom up, within a budget in tokens or in UTF-16 units, each cut
// recorded.
package budget

import (
	"fmt"
	"sync"
	"sync/atomic"
)

// Counter counts the tokens of a text.
type Counter interface {
	Count(text string) int
}

// Encoder counts tokens with a tiktoken encoding: the count of tiktoken's
// encode_ordinary, in O(n log n) time on any text of n bytes however long
// its unbroken runs. The BPE tables are embedded in the binary in a
// compact form of our own (tiktoken-go-loader's offline tables, converted
// by internal/bpegen; never a download); the encoder is built on first use
// only, in a few milliseconds, since a warm session start needs none.
type Encoder struct {
	name  string
	once  sync.Once
	bpe   *bpe
	err   error
	built atomic.Bool
}

// The encodings' names, as tiktoken-go names them (TestEncodingNames):
// the binary counts with tables of its own and does not link tiktoken-go,
// whose regexp engine would cost every process start its initialisation.
const (
	cl100kBase = "cl100k_base"
	o200kBase  = "o200k_base"
)

// NewEncoder returns a lazy encoder for cl100k_base or o200k_base.
func NewEncoder(name string) (*Encoder, error) {
	switch name {
	case cl100kBase, o200kBase:
		return &Encoder{name: name}, nil
	}
	return nil, fmt.Errorf("unknown encoding %q (want cl100k_base or o200k_base)", name)
}

// Name returns the encoding's name.
func (e *Encoder) Name() string { return e.name }

// Built reports whether the encoder has been built.
func (e *Encoder) Built() bool { return e.built.Load() }

func (e *Encoder) build() {
	e.bpe, e.err = newBPE(e.name)
	e.built.Store(true)
}

// Count returns the number of tokens in text under ordinary encoding:
// special-token text counts as plain text.
func (e *Encoder) Count(text string) int {
	if text == "" {
		return 0
	}
	e.once.Do(e.build)
	if e.err != nil {
		// The tables are compiled into the binary; failing to load them is a
		// broken build, not a condition a caller can handle.
		panic(fmt.Sprintf("budget: building %s encoder: %v", e.name, e.err))
	}
	return e.bpe.count(text)
}
