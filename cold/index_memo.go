package cold

import (
	"slices"
	"sync"
)

// parsedIndex is the last index file this process parsed, kept for the
// next [OpenIndex] of the same bytes. A hand-off opens the index three
// or four times (the unlocked precount, the build under the lock, a
// second one when it recorded edits, the start it primes), and parsing
// it is the part of opening that grows with the history: a line a cold
// document, about 2 ms at a thousand of them. The file is still read at
// every open, so whatever records what a start read (the start cache's
// key) sees the read, and only the very bytes parsed before are taken
// from here: an index saved since, by this process or another, is
// parsed again.
var parsedIndex parsedIndexT

// parsedIndexT is what parsedIndex keeps.
type parsedIndexT struct {
	mu       sync.Mutex
	encoding string
	data     string // the file's bytes; the entries' strings share them
	x        *Index // as parsed, without its entries: never handed out
	paths    []string
	slab     []Entry // the entry of paths[i], as parsed
}

// openParsed is [newIndex] of data, a copy of the last parse when data
// and encoding are those it parsed. A parse that loaded no entry is not
// kept: it is cheap, and a missing file is the common case.
func openParsed(encoding, data string) *Index {
	p := &parsedIndex
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.x != nil && p.encoding == encoding && p.data == data {
		return p.copy()
	}
	x := newIndex(encoding, data)
	if x.loaded == 0 {
		return x
	}
	kept := *x
	kept.entries = nil
	p.encoding, p.data, p.x = encoding, data, &kept
	p.paths, p.slab = make([]string, 0, len(x.entries)), make([]Entry, 0, len(x.entries))
	for path, e := range x.entries {
		p.paths = append(p.paths, path)
		p.slab = append(p.slab, *e)
	}
	return x
}

// copy is a copy of the index kept, each entry its own: a scan marks and
// replaces them.
func (p *parsedIndexT) copy() *Index {
	c := *p.x
	slab := slices.Clone(p.slab)
	c.entries = make(map[string]*Entry, len(slab))
	for i, path := range p.paths {
		c.entries[path] = &slab[i]
	}
	return &c
}
