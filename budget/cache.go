package budget

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unsafe"
)

// CacheFile is the count cache's file name inside the state directory.
const CacheFile = "tokens.json"

// cacheKeep is how many saves an entry survives without being used.
const cacheKeep = 16

// lineKeep is the length from which a line of a text the cache has not
// seen is kept under a key of its own: a text that misses is counted line
// by line (see lineMemo), and its lines of this many bytes or more are
// looked up first, so that a file changed in one place is counted again
// only there, in the next process as in this one. A shorter line costs
// less to count than to hash and keep.
const lineKeep = 64

// Cache is a [Counter] that remembers counts by a hash of the encoding and
// the text, so that unchanged content is never tokenized twice across runs.
type Cache struct {
	mu       sync.Mutex
	encoding string
	next     Counter
	enc      *Encoder  // next, when it is an *Encoder: then a text that misses is counted line by line
	lines    *lineMemo // the process's line counts, with enc
	gen      int
	entries  map[string]cacheEntry
	dirty    bool
	hits     int
	misses   int
}

type cacheEntry struct {
	N   int `json:"n"`
	Gen int `json:"g"`
}

type cacheFile struct {
	Version int                   `json:"version"`
	Gen     int                   `json:"gen"`
	Entries map[string]cacheEntry `json:"entries"`
}

// NewCache returns a cache in front of next, which must count with the
// named encoding. data is the saved cache; a corrupt or empty one is
// ignored.
func NewCache(encoding string, next Counter, data []byte) *Cache {
	c := &Cache{encoding: encoding, next: next, entries: map[string]cacheEntry{}}
	if enc, ok := next.(*Encoder); ok {
		c.enc, c.lines = enc, newLineMemo()
	}
	if f, ok := parsePlain(data); ok {
		c.gen, c.entries = f.Gen, f.Entries
	} else if f := (cacheFile{}); len(data) > 0 && json.Unmarshal(data, &f) == nil && f.Version == 1 && f.Entries != nil {
		c.gen, c.entries = f.Gen, f.Entries
	}
	c.gen++
	return c
}

func (c *Cache) key(text string) string { return c.keyJoined(text, "") }

// keyJoined is the key of head+tail, hashed without joining them.
func (c *Cache) keyJoined(head, tail string) string {
	h := sha256.New()
	h.Write(bytesOf(c.encoding))
	h.Write([]byte{0})
	h.Write(bytesOf(head))
	h.Write(bytesOf(tail))
	return hex.EncodeToString(h.Sum(nil)[:16])
}

// bytesOf is s's bytes without a copy, for a writer that only reads them,
// as io.Writer's contract requires (a hash does not implement
// io.StringWriter, and copying every text counted costs a start more than
// hashing it).
func bytesOf(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }

// Count returns the cached count of text, counting and remembering it on a
// miss, and with it each of its lines of lineKeep bytes or more (see
// [Cache.countLine]): for the tier files and what is made of them, which
// the next start counts again when one of them changed.
func (c *Cache) Count(text string) int { return c.count(text, keepLines) }

// CountWhole returns the cached count of text, counting and remembering it
// on a miss as one text, none of its lines kept alone: for a cold
// document pulled or listed, which no start counts again in part, so
// that this cache, which every start loads, stays the size of the tiers.
func (c *Cache) CountWhole(text string) int { return c.count(text, keepWhole) }

// CountTransient returns the cached count of text, or counts it without
// remembering it: for texts that another cache already keeps (the cold
// index keeps each cold document's count), so that this cache stays the
// size of the tiers.
func (c *Cache) CountTransient(text string) int { return c.count(text, keepNothing) }

// What a count that misses keeps in the cache.
const (
	keepNothing = iota
	keepWhole
	keepLines
)

func (c *Cache) count(text string, keep int) int {
	if text == "" {
		return 0
	}
	count := c.next.Count
	switch {
	case keep == keepNothing || c.enc == nil:
	case keep == keepWhole:
		count = func(text string) int { return c.lines.Count(text, c.enc.Count) }
	default:
		count = func(text string) int { return c.lines.Count(text, c.countLine) }
	}
	return c.lookup(c.key(text), keep != keepNothing, func() int { return count(text) })
}

// countLine counts a line of a text that missed (see lineMemo): one of
// lineKeep bytes or more through the cache, remembered there under its own
// key, without counting towards the hits and misses of [Cache.Stats],
// which are of the texts asked for. A line's entry is kept alive by the
// texts that miss with it: one of a file unchanged for cacheKeep saves
// goes, and that file's next change is counted whole again.
func (c *Cache) countLine(line string) int {
	if len(line) < lineKeep {
		return c.enc.Count(line)
	}
	return c.find(c.key(line), true, false, func() int { return c.enc.Count(line) })
}

// countJoined is [CountJoined] for the cache: head+tail is looked up, and
// on a miss counted near the join when the next counter can.
func (c *Cache) countJoined(head string, n int, tail string) int {
	if tail == "" {
		return n
	}
	return c.lookup(c.keyJoined(head, tail), true, func() int { return CountJoined(c.next, head, n, tail) })
}

// lookup returns the count remembered under k, or the count of count,
// remembered when remember is set.
func (c *Cache) lookup(k string, remember bool, count func() int) int {
	return c.find(k, remember, true, count)
}

// find is lookup, the hit or miss counted in [Cache.Stats] when stats is
// set.
func (c *Cache) find(k string, remember, stats bool, count func() int) int {
	c.mu.Lock()
	e, ok := c.entries[k]
	if ok {
		if stats {
			c.hits++
		}
		if e.Gen != c.gen {
			e.Gen = c.gen
			c.entries[k] = e
		}
	}
	c.mu.Unlock()
	if ok {
		return e.N
	}
	n := count()
	if remember {
		c.mu.Lock()
		c.entries[k] = cacheEntry{N: n, Gen: c.gen}
		c.dirty = true
		if stats {
			c.misses++
		}
		c.mu.Unlock()
	}
	return n
}

// Dirty reports whether the cache learned new counts since it was loaded.
func (c *Cache) Dirty() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.dirty
}

// Saved records that everything counted so far has been saved, so a later
// save in the same run writes only what is new since.
func (c *Cache) Saved() {
	c.mu.Lock()
	c.dirty = false
	c.mu.Unlock()
}

// Stats returns the hits and misses so far.
func (c *Cache) Stats() (hits, misses int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.hits, c.misses
}

// Marshal encodes the cache for saving, dropping entries that have gone
// unused for many saves.
func (c *Cache) Marshal() []byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	keys := make([]string, 0, len(c.entries))
	plain := true
	for k, e := range c.entries {
		if c.gen-e.Gen < cacheKeep {
			keys = append(keys, k)
			plain = plain && plainKey(k)
		}
	}
	if !plain { // a key wake did not make, from an edited file
		keep := make(map[string]cacheEntry, len(keys))
		for _, k := range keys {
			keep[k] = c.entries[k]
		}
		data, _ := json.Marshal(cacheFile{Version: 1, Gen: c.gen, Entries: keep})
		return data
	}
	// What json.Marshal writes, keys sorted, without its reflection: a
	// cache of many blocks is saved in a fifth of the time.
	slices.Sort(keys)
	b := make([]byte, 0, 48+len(keys)*(len(`"":{"n":,"g":},`)+32+12))
	b = append(b, `{"version":1,"gen":`...)
	b = strconv.AppendInt(b, int64(c.gen), 10)
	b = append(b, `,"entries":{`...)
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		e := c.entries[k]
		b = append(b, '"')
		b = append(b, k...)
		b = append(b, `":{"n":`...)
		b = strconv.AppendInt(b, int64(e.N), 10)
		b = append(b, `,"g":`...)
		b = strconv.AppendInt(b, int64(e.Gen), 10)
		b = append(b, '}')
	}
	return append(b, "}}"...)
}

// plainKey reports whether k is lower-case hex, as [Cache.key] makes keys:
// JSON needs no escape in it.
func plainKey(k string) bool {
	for i := 0; i < len(k); i++ {
		if c := k[i]; (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// parsePlain reads a cache file in the form [Cache.Marshal] writes when
// every key is wake's (lowercase hex): what encoding/json would read of
// it, in a tenth of the time, for a start loads the cache before all
// else. Anything else, an edited file or another layout, is not read
// here (false), and encoding/json decides.
func parsePlain(data []byte) (cacheFile, bool) {
	const head, open = `{"version":1,"gen":`, `,"entries":{`
	s, ok := strings.CutPrefix(string(data), head)
	if !ok {
		return cacheFile{}, false
	}
	num := func() (int, bool) {
		i := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' && i < 18 {
			i++
		}
		if i == 0 || (s[0] == '0' && i > 1) || (i < len(s) && s[i] >= '0' && s[i] <= '9') {
			return 0, false
		}
		n, _ := strconv.Atoi(s[:i])
		s = s[i:]
		return n, true
	}
	lit := func(l string) bool {
		var ok bool
		s, ok = strings.CutPrefix(s, l)
		return ok
	}
	gen, ok := num()
	if !ok || !lit(open) {
		return cacheFile{}, false
	}
	f := cacheFile{Version: 1, Gen: gen, Entries: make(map[string]cacheEntry, strings.Count(s, `"n":`))}
	for first := true; !lit("}}"); first = false {
		if !first && !lit(",") || !lit(`"`) {
			return cacheFile{}, false
		}
		end := strings.IndexByte(s, '"')
		if end <= 0 || !plainKey(s[:end]) {
			return cacheFile{}, false
		}
		k := s[:end]
		s = s[end+1:]
		if _, dup := f.Entries[k]; dup || !lit(`:{"n":`) {
			return cacheFile{}, false
		}
		var e cacheEntry
		if e.N, ok = num(); !ok || !lit(`,"g":`) {
			return cacheFile{}, false
		}
		if e.Gen, ok = num(); !ok || !lit("}") {
			return cacheFile{}, false
		}
		f.Entries[k] = e
	}
	return f, s == ""
}
