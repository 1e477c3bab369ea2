package cold

import "sync"

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
var parsedIndex struct {
	mu       sync.Mutex
	encoding string
	data     string // the file's bytes; the entries' strings share them
	x        *Index // as parsed; never handed out, only copies of it
}

// openParsed is [newIndex] of data, a copy of the last parse when data
// and encoding are those it parsed. A parse that loaded no entry is not
// kept: it is cheap, and a missing file is the common case.
func openParsed(encoding, data string) *Index {
	parsedIndex.mu.Lock()
	defer parsedIndex.mu.Unlock()
	if p := parsedIndex.x; p != nil && parsedIndex.encoding == encoding && parsedIndex.data == data {
		return p.copyLoaded()
	}
	x := newIndex(encoding, data)
	if x.loaded == 0 {
		return x
	}
	parsedIndex.encoding, parsedIndex.data, parsedIndex.x = encoding, data, x.copyLoaded()
	return x
}

// copyLoaded copies an index as [newIndex] made it, before any scan:
// each entry is the copy's own, since a scan marks and replaces them.
func (x *Index) copyLoaded() *Index {
	c := *x
	slab := make([]Entry, len(x.entries))
	c.entries = make(map[string]*Entry, len(x.entries))
	i := 0
	for p, e := range x.entries {
		slab[i] = *e
		c.entries[p] = &slab[i]
		i++
	}
	return &c
}
