// Package startcache is the start cache's file: the output of the last
// session start of each view (`wake load`, a client's hook), with the key
// that says when it still holds (the files the start read, by identity or
// content: see package fsrecord), the notices it gave and its
// checksum. What goes in it and when it is served is the library's
// session start; this package only reads and writes the file, whole and
// atomically, and never trusts an offset it did not check.
package startcache

import (
	"bytes"
	"encoding/json"
	"hash/crc32"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/store"
	"github.com/wakeproto/wake/tiers"
)

// File is the cache's name in the state directory.
const File = "start-cache"

const magic = "wake start cache 4\n"

// MaxViews is how many views the cache keeps (load, the hooks).
const MaxViews = 6

// Entry is one view's kept start.
type Entry struct {
	Name  string `json:"name"`
	Env   string `json:"env"`            // configuration and environment, hashed
	Boot  uint8  `json:"boot,omitempty"` // the boot files the start wrote, for a priming
	Built int64  `json:"built"`          // the clock at the build, Unix ns
	// Trusted is when the recording began, by the system's clock, Unix
	// ns: a name of the cold tier that was no document then (see Names)
	// and is a regular file changed since makes a start served from the
	// entry a miss.
	Trusted int64 `json:"trusted"`
	// Names is the sum of the names of the cold tier's directories the
	// recording kept with what it knew of each document (the library's
	// .state/start-names): the starts served from the cache compare the
	// documents with those names, and with no others. Empty when none
	// were kept.
	Names  string `json:"names,omitempty"`
	Until  int64  `json:"until"` // 0: no moment the output changes by itself
	Tokens int    `json:"tokens"`
	// The key's files (see [fsrecord.AppendKey]) and the output are in
	// the file's body, at these offsets.
	KeyOff int      `json:"key_off"`
	KeyLen int      `json:"key_len"`
	Pre    []Notice `json:"pre,omitempty"`  // notices before the cold accounting
	Post   []Notice `json:"post,omitempty"` // and after
	Off    int      `json:"off"`
	Len    int      `json:"len"`
	// CRC is the output's CRC-32: the file is written whole (atomic
	// rename) and the offsets are checked, so what is left to catch is
	// damage from outside, which a CRC catches as surely as a
	// cryptographic hash (neither stops a deliberate edit: the file is
	// the user's), at a tenth of the cost on a warm start.
	CRC uint32 `json:"crc"`

	key, out []byte // read: the parts of the body the offsets name
}

// Notice is a notice a kept start gave, given again when it is served.
type Notice struct {
	Kind string `json:"kind"`
	Msg  string `json:"msg"`
	Hint string `json:"hint,omitempty"`
}

// Key is the entry's key as read; Output its output.
func (e *Entry) Key() []byte    { return e.key }
func (e *Entry) Output() []byte { return e.out }

// Set gives a new entry its key and output, and the output's CRC.
func (e *Entry) Set(key, out []byte) {
	e.key, e.out, e.CRC = key, out, CRC(out)
}

// Intact reports whether the output read is the one kept.
func (e *Entry) Intact() bool { return CRC(e.out) == e.CRC }

// Cache is the file as read: its entries, the most recent last.
type Cache struct {
	Entries []Entry
}

// Read reads the cache of the root; ok is false when there is none or it
// cannot be read as one (a damaged cache is a miss, never an error). An
// entry whose offsets lie outside the file is left out.
func Read(fsys afero.Fs, root string) (c Cache, ok bool) {
	data, err := tiers.ReadOwn(fsys, root, tiers.StateDir+"/"+File)
	if err != nil {
		return c, false
	}
	return Parse(data)
}

// Parse reads a cache file's bytes (see [Read]).
func Parse(data []byte) (c Cache, ok bool) {
	rest, ok := bytes.CutPrefix(data, []byte(magic))
	if !ok {
		return c, false
	}
	head, payload, ok := bytes.Cut(rest, []byte{'\n'})
	var sc struct {
		Views []Entry `json:"views"`
	}
	if !ok || json.Unmarshal(head, &sc) != nil {
		return c, false
	}
	for _, e := range sc.Views {
		if !inside(e.Off, e.Len, payload) || !inside(e.KeyOff, e.KeyLen, payload) {
			continue
		}
		e.key, e.out = payload[e.KeyOff:e.KeyOff+e.KeyLen], payload[e.Off:e.Off+e.Len]
		c.Entries = append(c.Entries, e)
	}
	return c, true
}

// Lookup is the entry of the view named name, nil when there is none.
func (c *Cache) Lookup(name string) *Entry {
	for i := range c.Entries {
		if c.Entries[i].Name == name {
			return &c.Entries[i]
		}
	}
	return nil
}

// Names lists the views the cache holds, the most recent last.
func (c *Cache) Names() []string {
	out := make([]string, 0, len(c.Entries))
	for _, e := range c.Entries {
		out = append(out, e.Name)
	}
	return out
}

// With is the cache with e as its most recent entry, in place of the
// view's older one, keeping at most [MaxViews] views.
func (c Cache) With(e Entry) Cache {
	var keep []Entry
	for _, o := range c.Entries {
		if o.Name != e.Name {
			keep = append(keep, o)
		}
	}
	if n := len(keep) - (MaxViews - 1); n > 0 {
		keep = keep[n:] // the least recent go
	}
	return Cache{Entries: append(keep, e)}
}

// Write writes the cache whole, atomically, into the root's state
// directory, each entry's offsets set to where its key and output go.
func Write(fsys afero.Fs, root string, c Cache) error {
	var body bytes.Buffer
	views := make([]Entry, len(c.Entries))
	for i, e := range c.Entries {
		e.KeyOff, e.KeyLen = body.Len(), len(e.key)
		body.Write(e.key)
		e.Off, e.Len = body.Len(), len(e.out)
		body.Write(e.out)
		views[i] = e
	}
	head, err := json.Marshal(struct {
		Views []Entry `json:"views"`
	}{views})
	if err != nil {
		return err
	}
	data := make([]byte, 0, len(magic)+len(head)+1+body.Len())
	data = append(append(append(append(data, magic...), head...), '\n'), body.Bytes()...)
	return store.WriteState(fsys, root, File, data)
}

// CRC is the CRC-32 of a kept output: the IEEE polynomial, whose tables
// cost next to nothing to make (the Castagnoli one's hardware tables take
// longer to build than a warm start's whole check).
func CRC(out []byte) uint32 {
	return crc32.ChecksumIEEE(out)
}

// inside reports whether off and n name a part of payload.
func inside(off, n int, payload []byte) bool {
	return off >= 0 && n >= 0 && off <= len(payload) && n <= len(payload)-off
}
