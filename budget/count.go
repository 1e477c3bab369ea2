// Package budget counts tokens exactly and fits text to token budgets: the
// tiktoken encoder (offline, built lazily), a content-hash count cache,
// allocation of a tier's budget among its files, and bottom-up compression
// of Markdown.
package budget

import (
	"fmt"
	"sync"
	"sync/atomic"

	tiktoken "github.com/pkoukk/tiktoken-go"
	loader "github.com/pkoukk/tiktoken-go-loader"
)

// Counter counts the tokens of a text.
type Counter interface {
	Count(text string) int
}

// CounterFunc adapts a function to [Counter].
type CounterFunc func(string) int

// Count calls f.
func (f CounterFunc) Count(s string) int { return f(s) }

// Encoder counts tokens with a tiktoken encoding. The BPE tables are
// embedded in the binary; the encoder is built on first use only, since
// building it costs far more than a warm session start.
type Encoder struct {
	name  string
	once  sync.Once
	enc   *tiktoken.Tiktoken
	err   error
	built atomic.Bool
}

// setLoader installs the offline BPE loader exactly once per process. It is
// done here rather than in main so that no caller of this package, test or
// tool, can ever reach tiktoken-go's default loader, which downloads.
var setLoader sync.Once

// NewEncoder returns a lazy encoder for cl100k_base or o200k_base.
func NewEncoder(name string) (*Encoder, error) {
	switch name {
	case tiktoken.MODEL_CL100K_BASE, tiktoken.MODEL_O200K_BASE:
		return &Encoder{name: name}, nil
	}
	return nil, fmt.Errorf("unknown encoding %q (want cl100k_base or o200k_base)", name)
}

// Name returns the encoding's name.
func (e *Encoder) Name() string { return e.name }

// Built reports whether the encoder has been built.
func (e *Encoder) Built() bool { return e.built.Load() }

func (e *Encoder) build() {
	setLoader.Do(func() { tiktoken.SetBpeLoader(loader.NewOfflineLoader()) })
	e.enc, e.err = tiktoken.GetEncoding(e.name)
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
	return len(e.enc.EncodeOrdinary(text))
}
