package cold

import (
	"errors"
	"iter"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unsafe"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/internal/fsrecord"
	"github.com/wakeproto/wake/policy"
	"github.com/wakeproto/wake/store"
	"github.com/wakeproto/wake/tiers"
)

// IndexFile is the cold index's file name inside the state directory.
const IndexFile = "cold-index.tsv"

// coldIndexHeader opens the file; the encoding is part of it because token
// counts depend on it. v2 files may hold the text of secret documents, and
// v3 files unscrubbed summaries, v4 files lack the front matter the
// wake-up packet routes by, and v5 files took front matter after a
// byte-order mark, or with its keys spelled in capitals, for none (so
// a secret document for an internal one), and v6 files lack the session
// records' next priority and risk the boot context's trajectory shows,
// so they are not read: the first start rebuilds the index.
const coldIndexHeader = "wake cold index v7 "

// racyWindow: a file modified this close to the moment it was read may be
// modified again without its size or modification time changing (coarse
// file-system clocks), so its entry is used for this run but not saved.
const racyWindow = 2 * time.Second

// Index remembers what the table of contents learned of each cold
// document, keyed by path, size and modification time, so that a start
// whose cold files did not change opens none of them. It is a cache: a
// missing or corrupt file only costs a rescan.
type Index struct {
	// TrustBefore, when not 0, is a moment (Unix ns, by the system's
	// clock the files' times are stamped by) that a document a trusting
	// scan vouches for (see [OpenIndexSettled]) was last changed before,
	// whatever the scan's own clock says: a start recorded for the start
	// cache sets it to when it began (a simulation's clock may run ahead
	// of the system's). Such a scan vouches for documents as any trusting
	// scan does; the starts served from the cache compare those they look
	// at with what it knew of them (see [Index.Known]).
	TrustBefore int64

	encoding string
	entries  map[string]*Entry
	scanned  bool // a whole scan of cold/ went through the index
	loaded   int  // entries read from the file
	seen     int  // loaded entries a scan found again
	dirty    bool
	learnt   bool   // a document was read in this run: see [Index.Unchanged]
	sum      string // of the file as loaded, or as last saved: see [Index.Sum]
	loadSum  string // of the file as loaded: see [Index.LoadedSum]
	// versions are those of the documents read whole in this run, kept
	// when asked for: see [Index.KeepVersions].
	versions map[string]store.DocVersion
	// settled, when the index trusts itself: see [OpenIndexSettled].
	settled *settled
}

type Entry struct {
	Size  int64
	MTime int64 // UnixNano
	// CTime is the document's change time, UnixNano; 0 when unknown (an
	// index an older wake wrote, a stat without one): then size and
	// modification time alone tell it unchanged.
	CTime int64
	// Ino is the document's inode number as its directory lists it; 0
	// when unknown. A scan that trusts the index (see
	// [OpenIndexSettled]) takes a settled document whose directory still
	// lists it with this number as unchanged, without an lstat.
	Ino     uint64
	Tokens  int
	Binary  bool
	Huge    bool
	Sens    string
	Summary string
	Heading string
	MetaErr string
	Session string // front matter `session`, for skill.md's History
	// MemoryType, ProjectID and SourceOfTruth are the front matter the
	// wake-up packet routes and scores by, so that it opens no cold
	// document it will not use.
	MemoryType    string
	ProjectID     string
	SourceOfTruth bool
	// Next and Risk are a session record's next priority and open risk,
	// for the boot context's trajectory.
	Next, Risk string
	racy       bool
	seen       bool
	loaded     bool // read from the file, not learned in this run
	fresh      bool // matches the file as this run found it
	todo       bool // read in this run, not yet put in the index
	version    bool // read whole in this run: see [Index.Version]
}

// NewIndex returns an index for counts in the named encoding, loaded
// from data when data is a valid index of that encoding.
func NewIndex(encoding string, data []byte) *Index {
	return newIndex(encoding, string(data))
}

// newIndex is [NewIndex] of the index file's text, whose strings the
// entries share.
func newIndex(encoding, data string) *Index {
	// A missing or corrupt index is dirty, so that it is written once
	// even when it has nothing to keep yet.
	x := &Index{encoding: encoding, entries: map[string]*Entry{}, dirty: true}
	header := coldIndexHeader + encoding + "\n"
	if !strings.HasPrefix(data, header) {
		return x
	}
	text := data[len(header):]
	if text != "" && !strings.HasSuffix(text, "\n") {
		return x // cut short
	}
	// The lines are parsed in a few parts at once, each into its own
	// slab, then filed in the file's order (a path written twice keeps
	// its last entry, as one at a time).
	parts := splitLines(text, indexParts(len(text)))
	type parsed struct {
		paths []string
		slab  []Entry
		ok    bool
	}
	done := make([]parsed, len(parts))
	var wg sync.WaitGroup
	for k, part := range parts {
		wg.Go(func() {
			n := strings.Count(part, "\n")
			r := parsed{paths: make([]string, 0, n), slab: make([]Entry, n), ok: true}
			for line := range strings.Lines(part) {
				i := len(r.paths)
				p, _, ok := parseColdEntry(line[:len(line)-1], &r.slab[i])
				if !ok {
					r.ok = false
					break
				}
				r.slab[i].loaded = true
				r.paths = append(r.paths, p)
			}
			done[k] = r
		})
	}
	wg.Wait()
	total := 0
	for _, r := range done {
		if !r.ok {
			return x
		}
		total += len(r.paths)
	}
	entries := make(map[string]*Entry, total)
	for _, r := range done {
		for i, p := range r.paths {
			entries[p] = &r.slab[i]
		}
	}
	x.entries, x.loaded, x.dirty = entries, len(entries), false
	x.sum = indexSum(unsafe.Slice(unsafe.StringData(data), len(data)))
	x.loadSum = x.sum
	return x
}

// indexParts is how many parts an index of size bytes is parsed in: one a
// core, each of at least a megabyte.
var indexParts = func(size int) int { return max(1, min(runtime.GOMAXPROCS(0), size>>20)) }

// splitLines cuts text, whole lines each ending in a newline, into at
// most n parts of about the same size, each of whole lines.
func splitLines(text string, n int) []string {
	var parts []string
	for k := n; k > 1 && text != ""; k-- {
		cut := len(text) / k
		i := strings.IndexByte(text[cut:], '\n')
		if i < 0 {
			break
		}
		parts = append(parts, text[:cut+i+1])
		text = text[cut+i+1:]
	}
	if text != "" {
		parts = append(parts, text)
	}
	return parts
}

// OpenIndex loads the root's cold index for the given encoding.
func OpenIndex(fsys afero.Fs, root, encoding string) *Index {
	return (*ParsedIndex)(nil).Open(fsys, root, encoding)
}

// SaveIndex writes the index back, atomically, when it changed: a
// document was read, or one it knew is gone.
func SaveIndex(fsys afero.Fs, root string, x *Index) error {
	if x == nil {
		return nil
	}
	if err := saveVerified(fsys, root, x); err != nil {
		return err
	}
	if !x.Dirty() {
		return nil
	}
	data := x.Marshal()
	if err := store.WriteState(fsys, root, IndexFile, data); err != nil {
		return err
	}
	x.sum = indexSum(data)
	return nil
}

// KeepVersions has the scans that follow keep the version of each
// document they read whole (see [store.VersionOf]), for a look at the
// edits made outside wake that follows them in the same run (a session
// start's): on a first start, that look then reads no cold document
// again.
func (x *Index) KeepVersions() {
	if x.versions == nil {
		x.versions = map[string]store.DocVersion{}
	}
}

// Version returns the version of the document at p as a scan in this run
// read it whole, when [Index.KeepVersions] asked for it; false for any
// other document. It is safe for concurrent use, the scans done.
func (x *Index) Version(p string) (store.DocVersion, bool) {
	v, ok := x.versions[p]
	return v, ok
}

// Dirty reports whether the index differs from what was loaded.
func (x *Index) Dirty() bool {
	if x.dirty {
		return true
	}
	if !x.scanned {
		return false
	}
	return x.seen < x.loaded
}

func (x *Index) lookup(f tiers.ColdFile) (Entry, bool) {
	e := x.entries[f.Path]
	if e == nil {
		return Entry{}, false
	}
	if e.loaded && !e.seen {
		e.seen = true
		x.seen++
	}
	// The change time tells a document edited with its size kept and its
	// modification time set back (touch -d), which nothing else would.
	e.fresh = e.Size == f.Size && e.MTime == f.ModTime.UnixNano() && (e.CTime == 0 || f.CTime == 0 || e.CTime == f.CTime)
	if e.fresh && e.CTime == 0 && f.CTime != 0 && !e.racy {
		// An entry of an older index: it learns the change time, saved
		// once.
		e.CTime = f.CTime
		x.dirty = true
	}
	if e.fresh && f.Ino != 0 && e.Ino != f.Ino && !e.racy {
		// An entry of an older index, or a document replaced by a copy
		// with its size and times: it learns the inode number.
		e.Ino = f.Ino
		x.dirty = true
	}
	return *e, e.fresh
}

// Known is what the index knows of the document at rel (slash-separated,
// relative to the root) as the last scan found it: its size and its
// modification and change times (Unix ns). ok is false for a path the
// scan did not list as a document.
func (x *Index) Known(rel string) (size, mtime, ctime int64, ok bool) {
	if x == nil {
		return 0, 0, 0, false
	}
	e := x.entries[rel]
	if e == nil || !e.seen {
		return 0, 0, 0, false
	}
	return e.Size, e.MTime, e.CTime, true
}

// put records what reading f found, as [Entry.kept], and returns what
// it recorded. The index is dirty only when the file it saves changes: a
// document modified within the racy window is neither saved nor, when it
// was not saved before, a change.
func (x *Index) put(f tiers.ColdFile, e Entry, now time.Time) Entry {
	e = e.kept()
	old := x.entries[f.Path]
	if old != nil && old.loaded && !old.seen {
		x.seen++
	}
	e.Size, e.MTime, e.CTime, e.Ino = f.Size, f.ModTime.UnixNano(), f.CTime, f.Ino
	e.racy = isRacy(f, now)
	e.seen, e.loaded, e.fresh, e.todo = true, false, true, false
	x.entries[f.Path] = &e
	x.learnt = true
	if changesFile(old, &e) {
		x.dirty = true
	}
	return e
}

// secret reports whether the sensitivity policy holds the document back
// whole: secret, or with front matter that does not parse.
func (e Entry) secret() bool {
	return !e.Binary && policy.Level(e.Sens, metaError(e.MetaErr)) == policy.Secret
}

// kept is what the index keeps of a document: of a secret one (see
// [Entry.secret]) nothing of its text, only its size, time, level and
// count, and a front-matter error with every value it quotes cut out. Its
// listing is never shown, so there is nothing to lose; and a cache must not
// be one more place a secret is written to.
//
// The texts it keeps of any other document are scrubbed of
// secret-looking strings (see [policy.Scrub]) when they are learned, so
// that the listings built from the index never show one and a warm start
// scrubs nothing.
func (e Entry) kept() Entry {
	if !e.secret() {
		e.Summary, _ = policy.Scrub(e.Summary)
		e.Heading, _ = policy.Scrub(e.Heading)
		e.Next, _ = policy.Scrub(e.Next)
		e.Risk, _ = policy.Scrub(e.Risk)
		return e
	}
	e.Summary, e.Heading, e.Session, e.MemoryType, e.ProjectID, e.SourceOfTruth = "", "", "", "", "", false
	e.Next, e.Risk = "", ""
	if e.MetaErr != "" {
		// Its level is secret whatever it declares ("secrte" is text too).
		e.Sens, e.MetaErr = "", unquoted(e.MetaErr)
	}
	return e
}

// unquoted cuts what an error quotes (YAML's `value`, a "value"): from
// the first quote to the last, so that a quote inside a value cannot end
// the cut early.
func unquoted(msg string) string {
	i, j := strings.IndexAny(msg, "`\""), strings.LastIndexAny(msg, "`\"")
	switch {
	case i < 0:
		return msg
	case j == i:
		return msg[:i+1] + "…"
	}
	return msg[:i+1] + "…" + msg[j:]
}

// changesFile reports whether replacing old (nil when there was none) with
// e changes what Marshal writes.
func changesFile(old, e *Entry) bool {
	saved := old != nil && (old.loaded || !old.racy)
	switch {
	case saved != !e.racy:
		return true
	case !saved:
		return false
	}
	return old.Size != e.Size || old.MTime != e.MTime || old.CTime != e.CTime || old.Ino != e.Ino || old.Tokens != e.Tokens || old.Binary != e.Binary ||
		old.Huge != e.Huge || old.Sens != e.Sens || old.Summary != e.Summary || old.Heading != e.Heading || old.MetaErr != e.MetaErr ||
		old.MemoryType != e.MemoryType || old.ProjectID != e.ProjectID || old.SourceOfTruth != e.SourceOfTruth
}

// level is the sensitivity of the cold document at p as this run found it,
// for the ledger digest; false when the run did not list it.
func (x *Index) Level(p string) (string, bool) {
	e := x.entries[p]
	switch {
	case e == nil || !e.fresh:
		return "", false
	case e.Binary:
		return "", true
	case e.MetaErr != "":
		return policy.Secret, true
	}
	return policy.Level(e.Sens, nil), true
}

// isRacy reports whether f was modified so close to now that it may change
// again without its size or modification time changing.
func isRacy(f tiers.ColdFile, now time.Time) bool {
	d := now.Sub(f.ModTime)
	return d < racyWindow && d > -racyWindow
}

// Marshal encodes the entries, one tab-separated line each, in path order.
// After a whole scan of cold/ only the documents it found are kept.
func (x *Index) Marshal() []byte {
	paths := make([]string, 0, len(x.entries))
	for p, e := range x.entries {
		if (!x.scanned || e.seen) && !e.racy {
			paths = append(paths, p)
		}
	}
	slices.Sort(paths)
	// Appended field by field, not formatted: a hand-off saves the index
	// of every cold document, one a session.
	b := make([]byte, 0, 64+len(paths)*256)
	b = append(b, coldIndexHeader+x.encoding+"\n"...)
	for _, p := range paths {
		e := x.entries[p]
		b = appendField(b, esc(p))
		b = strconv.AppendInt(b, e.Size, 10)
		b = append(b, '\t')
		b = strconv.AppendInt(b, e.MTime, 10)
		b = append(b, '\t')
		b = strconv.AppendInt(b, int64(e.Tokens), 10)
		b = append(b, '\t')
		if e.Binary {
			b = append(b, 'b')
		}
		if e.Huge {
			b = append(b, 'h')
		}
		if e.SourceOfTruth {
			b = append(b, 't')
		}
		if e.Ino != 0 {
			b = append(b, '#')
			b = strconv.AppendUint(b, e.Ino, 10)
		}
		if e.CTime != 0 {
			b = append(b, '@')
			b = strconv.AppendInt(b, e.CTime, 10)
		}
		b = append(b, '\t')
		for _, f := range [...]string{e.Sens, e.Summary, e.Heading, e.MetaErr, e.Session, e.MemoryType, e.ProjectID, e.Next} {
			b = appendField(b, esc(f))
		}
		b = append(b, esc(e.Risk)...)
		b = append(b, '\n')
	}
	return b
}

// appendField appends s and a tab.
func appendField(b []byte, s string) []byte { return append(append(b, s...), '\t') }

// parseColdEntry reads a line of the index: fourteen fields, the change
// time in the flags (see fsrecord.WithChangeTime; a line an older wake
// wrote has none: 0), and before it the inode number after a "#" (a line
// an older wake wrote has none: 0; an older wake reading a newer line
// takes the number for flags it does not know).
func parseColdEntry(line string, e *Entry) (string, *Entry, bool) {
	var f [14]string
	for i := range 13 {
		var ok bool
		if f[i], line, ok = strings.Cut(line, "\t"); !ok {
			return "", nil, false
		}
	}
	if f[13] = line; strings.Contains(line, "\t") {
		return "", nil, false
	}
	var err1, err2, err3 error
	e.Size, err1 = strconv.ParseInt(f[1], 10, 64)
	e.MTime, err2 = strconv.ParseInt(f[2], 10, 64)
	e.Tokens, err3 = strconv.Atoi(f[3])
	flags, ctime, ok := fsrecord.SplitChangeTime(f[4])
	if err1 != nil || err2 != nil || err3 != nil || !ok || e.Tokens < 0 {
		return "", nil, false
	}
	e.CTime = ctime
	if flags, ino, ok := strings.Cut(flags, "#"); ok {
		n, err := strconv.ParseUint(ino, 10, 64)
		if err != nil || n == 0 || strings.ContainsAny(flags, "#") {
			return "", nil, false
		}
		e.Ino = n
	}
	e.Binary, e.Huge = strings.Contains(flags, "b"), strings.Contains(flags, "h")
	e.SourceOfTruth = strings.Contains(flags, "t")
	e.Sens, e.Summary, e.Heading, e.MetaErr = unesc(f[5]), unesc(f[6]), unesc(f[7]), unesc(f[8])
	e.Session, e.MemoryType, e.ProjectID = unesc(f[9]), unesc(f[10]), unesc(f[11])
	e.Next, e.Risk = unesc(f[12]), unesc(f[13])
	*e = e.kept()
	return unesc(f[0]), e, true
}

var (
	escaper   = strings.NewReplacer(`\`, `\\`, "\t", `\t`, "\n", `\n`, "\r", `\r`)
	unescaper = strings.NewReplacer(`\\`, `\`, `\t`, "\t", `\n`, "\n", `\r`, "\r")
)

func esc(s string) string {
	if !strings.ContainsAny(s, "\\\t\n\r") {
		return s
	}
	return escaper.Replace(s)
}

func unesc(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	return unescaper.Replace(s)
}

// metaError is the front-matter error an index entry keeps, as an error.
func metaError(msg string) error {
	if msg == "" {
		return nil
	}
	return errors.New(msg)
}

// Scanned yields the documents the last scan of cold/ found directly in
// dir (slash-separated, relative to the root, such as "cold/sessions"), by
// path, with what the index keeps of each: so that skill.md's History and
// the boot context's trajectory list the sessions without opening one. It
// builds nothing: its callers keep only the few newest.
func (x *Index) Scanned(dir string) iter.Seq2[string, *Entry] {
	return func(yield func(string, *Entry) bool) {
		prefix := dir + "/"
		for rel, e := range x.entries {
			if name, ok := strings.CutPrefix(rel, prefix); ok && e.seen && !strings.Contains(name, "/") {
				if !yield(rel, e) {
					return
				}
			}
		}
	}
}
