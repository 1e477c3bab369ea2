package cold

import (
	"slices"
	"sync"
	"unsafe"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/tiers"
)

// ParsedIndex keeps the last index file opened through it, parsed, for
// the next open of the same bytes: the builds of one hand-off (the
// unlocked precount, the build under the lock, a second one when it
// recorded edits, the start it primes) open the index three or four
// times, and parsing it is the part of opening that grows with the
// history, a line a cold document. The file is still read at every open,
// so that whatever records what a start read (the start cache's key)
// sees the read, and only the very bytes parsed before are taken from
// here: an index saved since, by this process or another, is parsed
// again. The zero value is ready for use, and safe for concurrent use;
// a Memory keeps one for its life (a command's), not the process's.
type ParsedIndex struct {
	mu       sync.Mutex
	encoding string
	data     string // the file's bytes; the entries' strings share them
	x        *Index // as parsed, without its entries: never handed out
	paths    []string
	slab     []Entry // the entry of paths[i], as parsed
}

// Open is [OpenIndex] through p: a copy of the index p parsed last when
// the file holds the same bytes for the same encoding. A nil p parses.
func (p *ParsedIndex) Open(fsys afero.Fs, root, encoding string) *Index {
	data, _ := tiers.ReadOwn(fsys, root, tiers.StateDir+"/"+IndexFile)
	// The bytes read are this call's own and nothing writes to them: the
	// entries share them as they are, without a copy of the whole file
	// at every start.
	s := unsafe.String(unsafe.SliceData(data), len(data))
	if p == nil {
		return newIndex(encoding, s)
	}
	return p.open(encoding, s)
}

// OpenSettled is [OpenIndexSettled] through p (see [ParsedIndex.Open]).
func (p *ParsedIndex) OpenSettled(fsys afero.Fs, root, encoding string) *Index {
	x := p.Open(fsys, root, encoding)
	x.settled = &settled{after: RotationAfter(fsys, root)}
	x.settled.next = x.settled.after
	return x
}

// open is [newIndex] of data, a copy of the last parse when data and
// encoding are those it parsed. A parse that loaded no entry is not
// kept: it is cheap, and a missing file is the common case.
func (p *ParsedIndex) open(encoding, data string) *Index {
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
func (p *ParsedIndex) copy() *Index {
	c := *p.x
	slab := slices.Clone(p.slab)
	c.entries = make(map[string]*Entry, len(slab))
	for i, path := range p.paths {
		c.entries[path] = &slab[i]
	}
	return &c
}
