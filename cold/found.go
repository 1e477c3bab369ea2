package cold

import (
	"encoding/binary"
	"encoding/hex"
	"hash/crc32"
	"slices"
	"strings"
	"time"

	"github.com/wakeproto/wake/store"
)

// What the index learnt of the cold documents in this run, for
// [store.EditScan], which records the changes made to them outside wake.

// HasScan reports whether a scan of cold/ went through the index in this
// run: without one, nothing can be taken as gone.
func (x *Index) HasScan() bool { return x != nil && x.scanned }

// Unchanged reports whether the scan of cold/ this run learnt nothing the
// index did not know when it was loaded: no document was read (none new,
// none changed) and none it knew is gone.
func (x *Index) Unchanged() bool {
	return x.HasScan() && !x.learnt && !x.Dirty()
}

// Found returns the documents the scan of cold/ found, by path, as they
// are now (size and modification time); those the index knew unchanged
// were not opened. A document the scan found but could not read is left
// out.
func (x *Index) Found() map[string]store.Observed {
	found := map[string]store.Observed{}
	if !x.HasScan() {
		return found
	}
	for p, e := range x.entries {
		if e.seen && e.fresh {
			found[p] = e.observed(p)
		}
	}
	return found
}

// Learnt returns the documents the scan of cold/ read in this run, by
// path, as they are now: those the index did not know, or knew with
// another size or time. Any other document the scan found is one the
// index knew as it was loaded (see [Index.LoadedSum]).
func (x *Index) Learnt() map[string]store.Observed {
	found := map[string]store.Observed{}
	if !x.HasScan() {
		return found
	}
	for p, e := range x.entries {
		if e.seen && e.fresh && !e.loaded {
			found[p] = e.observed(p)
		}
	}
	return found
}

// Has returns the document at p as the scan of cold/ in this run found
// it: false for one it did not find, or could not read (see
// [Index.Found]).
func (x *Index) Has(p string) (store.Observed, bool) {
	e := x.entries[p]
	if !x.HasScan() || e == nil || !e.seen || !e.fresh {
		return store.Observed{}, false
	}
	return e.observed(p), true
}

func (e *Entry) observed(p string) store.Observed {
	return store.Observed{Path: p, Exists: true, Size: e.Size, ModTime: time.Unix(0, e.MTime), CTime: e.CTime}
}

// LoadedSum identifies the index's file as this run loaded it, whatever
// it saved since; "" when it loaded none whole.
func (x *Index) LoadedSum() string {
	if x == nil {
		return ""
	}
	return x.loadSum
}

// Sum identifies the index's file as this run left it: as it was loaded,
// or as it was last saved; "" when it was not read whole. Another
// command saving the index changes it, so that a start comparing it with
// the one of its last look knows whether the index may have learnt of a
// change it never saw.
func (x *Index) Sum() string {
	if x == nil {
		return ""
	}
	return x.sum
}

// indexSum is the CRC-32C and the length of an index file, in hex: cheap
// enough for a warm start to take of the index it reads anyway.
func indexSum(data []byte) string {
	var b [8]byte
	binary.BigEndian.PutUint32(b[:4], crc32.Checksum(data, crc32.MakeTable(crc32.Castagnoli)))
	binary.BigEndian.PutUint32(b[4:], uint32(len(data)))
	return hex.EncodeToString(b[:])
}

// Document is a cold document as the index knows it.
type Document struct {
	Path string
	Entry
}

// Documents returns what the scan of cold/ in this run knows of each
// document it found and read, in path order: the listing a builder
// outside the table of contents (the wake-up packet) routes by without
// opening them. Secret documents keep no text (see [Entry.kept]).
func (x *Index) Documents() []Document {
	if !x.HasScan() {
		return nil
	}
	out := make([]Document, 0, len(x.entries))
	for p, e := range x.entries {
		if e.seen && e.fresh {
			out = append(out, Document{Path: p, Entry: *e})
		}
	}
	slices.SortFunc(out, func(a, b Document) int { return strings.Compare(a.Path, b.Path) })
	return out
}
