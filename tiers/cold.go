package tiers

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/internal/fsrecord"
)

// ColdHeadBytes bounds what the table of contents looks at in a cold
// document: enough for its front matter and first heading. A listing never
// depends on more of the file than this.
const ColdHeadBytes = 16 << 10

// ColdFile is one file under cold/ as the walk found it, before it is read.
type ColdFile struct {
	Path    string // relative to the root, slash-separated: "cold/2025/a.md"
	Size    int64
	ModTime time.Time
	// CTime is the inode's change time, Unix nanoseconds, which no one
	// sets back as touch -d sets the modification time: 0 where the stat
	// has none.
	CTime int64
	// Ino is the file's inode number as its directory lists it, where the
	// file system gives it with the listing (see [ScanColdKnown]); 0 when
	// unknown.
	Ino uint64
}

// Known tells a walk of cold/ the file at rel, whose directory lists it as
// a regular file with the inode number ino, as the caller knows it, so
// that the walk takes it without an lstat ([Vouched]); otherwise it is
// lstat'ed. It is called from several goroutines at once.
type Known func(rel string, ino uint64) (ColdFile, Vouch)

// Vouch is what a [Known] says of a file.
type Vouch uint8

const (
	// Unknown: the file is lstat'ed.
	Unknown Vouch = iota
	// Vouched: the file is taken as the ColdFile says, without an lstat.
	Vouched
	// Looked: the caller would vouch for the file but has it lstat'ed in
	// turn, to see an edit in place. The lstat goes through the
	// directory's descriptor even where a recording file system hides
	// it, when the directory is stamped (see fsrecord.FS.Stamped): like
	// the files vouched for, it stands for no more than the directory's
	// stamp in what the recording keeps; a file it shows changed is read
	// again, and that is recorded.
	Looked
)

// ScanCold lists the files under cold/ in path order without opening any of
// them, so that a warm start costs one directory read and one lstat a file.
// The lstats, which are most of that cost, run on a few goroutines, each
// relative to its open directory where the file system allows (see
// statAt). Names
// starting with "." (editor and temporary files) are passed over. A
// symlink is followed only when it leads to a file inside the root; a link
// leading outside the root, or to a directory, is skipped with a warning.
// A missing cold/ is empty. What cannot be read (cold/ itself not a
// directory, a subdirectory without permission) is skipped with a warning
// naming it, so that one bad entry never stops a session start; only a
// root that cannot be resolved is an error.
func ScanCold(fsys afero.Fs, root string) ([]ColdFile, []string, error) {
	return ScanColdKnown(fsys, root, nil)
}

// ScanColdKnown is [ScanCold] taking from known, instead of an lstat, each
// file it vouches for (see [Known]): a file replaced under its name
// (written to a temporary file renamed over it, as wake and most editors
// write) has another inode number, and a file added or removed changes the
// listing, so these are seen whatever known says; only a file rewritten in
// place, its inode kept, is not, where known vouches for it. Where the
// file system lists no inode numbers (another afero.Fs, another system)
// every file is lstat'ed, as ScanCold does. A nil known is ScanCold.
func ScanColdKnown(fsys afero.Fs, root string, known Known) ([]ColdFile, []string, error) {
	realRoot, err := realPath(fsys, filepath.Clean(root), false)
	if errorsIsNotExist(err) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("resolving the memory root %s: %w", root, err)
	}
	skip := func(why string) ([]ColdFile, []string, error) {
		return nil, []string{fmt.Sprintf("%s: skipped: %s", ColdDir, why)}, nil
	}
	reason, err := insideReal(fsys, realRoot, ColdDir)
	if err == nil && reason == "" {
		var fi fs.FileInfo
		if fi, err = fsys.Stat(filepath.Join(root, ColdDir)); err == nil && !fi.IsDir() {
			reason = "not a directory"
		}
	}
	switch {
	case errorsIsNotExist(err):
		return nil, nil, nil
	case err != nil:
		return skip(Cause(err))
	case reason != "":
		return skip(reason)
	}
	w := &coldWalker{fsys: fsys, root: root, realRoot: realRoot, sem: make(chan struct{}, scanWorkers()), known: known}
	top := &coldDir{rel: ColdDir}
	w.wg.Add(1)
	w.dir(top)
	w.wg.Wait()
	files := make([]ColdFile, 0, w.files.Load())
	top.flatten(&files)
	slices.Sort(w.warnings)
	return files, w.warnings, nil
}

// scanChunk is how many names one goroutine stats at a time.
const scanChunk = 256

func scanWorkers() int { return min(8, 2*runtime.GOMAXPROCS(0)) }

type coldWalker struct {
	fsys     afero.Fs
	root     string
	realRoot string        // root with its symlinks resolved
	sem      chan struct{} // bounds the goroutines doing file-system calls
	wg       sync.WaitGroup
	known    Known        // nil: every file is lstat'ed
	files    atomic.Int64 // entries listed: about the files found

	mu       sync.Mutex
	warnings []string
}

// coldDir is one directory of the walk: its entries, each filled in by
// the goroutine that stats it, in the order the directory listed them.
type coldDir struct {
	rel   string
	items []coldItem  // in name order
	subs  atomic.Bool // an entry is a directory
}

// coldItem is one entry of a directory: a file to list, a directory to
// descend, or neither (skipped, with a warning).
type coldItem struct {
	key  string // the name, with a "/" after a directory's: see flatten
	file ColdFile
	sub  *coldDir
}

// flatten appends the files under d in path order. Sorting each
// directory's entries by name, a directory's followed by "/", gives the
// order of the whole paths: every path under a directory starts with that
// key, and no other entry's name has it as a prefix. This spares a sort
// of every path, each compared from its common prefix on.
func (d *coldDir) flatten(out *[]ColdFile) {
	if d.subs.Load() {
		// The names are sorted; only a directory's key sorts differently.
		slices.SortFunc(d.items, func(a, b coldItem) int { return strings.Compare(a.key, b.key) })
	}
	for i := range d.items {
		switch it := &d.items[i]; {
		case it.sub != nil:
			it.sub.flatten(out)
		case it.key != "":
			*out = append(*out, it.file)
		}
	}
}

func (w *coldWalker) abs(rel string) string { return filepath.Join(w.root, filepath.FromSlash(rel)) }

// dir lists one directory and stats its entries in chunks, each chunk on
// its own goroutine. The caller has added d to w.wg.
func (w *coldWalker) dir(d *coldDir) {
	defer w.wg.Done()
	w.sem <- struct{}{}
	h, names, err := w.readDir(d.rel)
	<-w.sem
	if err != nil {
		w.warn(fmt.Sprintf("%s: skipped: %s", d.rel, Cause(err)))
		return
	}
	d.items = make([]coldItem, len(names))
	w.files.Add(int64(len(names)))
	chunks := (len(names) + scanChunk - 1) / scanChunk
	if chunks == 0 {
		h.Close()
		return
	}
	var left atomic.Int32
	left.Store(int32(chunks))
	for i := 0; i < len(names); i += scanChunk {
		w.wg.Add(1)
		go func(i int) {
			defer w.wg.Done()
			w.sem <- struct{}{}
			defer func() { <-w.sem }()
			for j := i; j < min(i+scanChunk, len(names)); j++ {
				w.entry(h, d, j, names[j])
			}
			if left.Add(-1) == 0 {
				h.Close()
			}
		}(i)
	}
}

// readDir opens the directory rel and lists it, without the names
// starting with ".", in name order, with their inode numbers where the
// file system lists them (see direntsAt), so that every walk records
// them for the trusting walks that follow; the directory is left open for
// [statAt].
func (w *coldWalker) readDir(rel string) (afero.File, []dirent, error) {
	f, err := w.fsys.Open(w.abs(rel))
	if err != nil {
		return nil, nil, err
	}
	// A directory a recording file system hides (see fsrecord.FS) is
	// listed by its names alone, unless it is stamped: then its entries'
	// inode numbers may vouch for them as they do for any other.
	ents, ok := direntsAt(fsrecord.ListingFile(f))
	if !ok {
		names, err := f.Readdirnames(-1)
		if err != nil {
			f.Close()
			return nil, nil, err
		}
		ents = make([]dirent, len(names))
		for i, n := range names {
			ents[i].name = n
		}
	}
	kept := ents[:0]
	for _, e := range ents {
		if !strings.HasPrefix(e.name, ".") {
			kept = append(kept, e)
		}
	}
	slices.SortFunc(kept, func(a, b dirent) int { return strings.Compare(a.name, b.name) })
	return f, kept, nil
}

// entry stats the entry de of d, open as h, and fills in d.items[j]; a
// regular file the walk's known vouches for is taken as it says.
func (w *coldWalker) entry(h afero.File, d *coldDir, j int, de dirent) {
	name := de.name
	rel := d.rel + "/" + name
	it := &d.items[j]
	at := h
	if de.typ == direntRegular && de.ino != 0 && w.known != nil {
		switch f, v := w.known(rel, de.ino); v {
		case Vouched:
			f.Path, f.Ino = rel, de.ino
			it.key, it.file = name, f
			return
		case Looked:
			if l := fsrecord.ListingFile(h); l != nil {
				at = l
			}
		}
	}
	if st, ok := statAt(at, name); ok {
		switch {
		case st.mode.IsRegular():
			it.key, it.file = name, ColdFile{Path: rel, Size: st.size, ModTime: st.mtime, CTime: st.ctime, Ino: de.ino}
			return
		case st.mode.IsDir():
			w.descend(d, it, name, rel)
			return
		}
		// Anything else, rarer, goes the common way.
	}
	fi, err := w.lstat(rel)
	if err != nil {
		w.warn(fmt.Sprintf("%s: skipped: %s", rel, Cause(err)))
		return
	}
	switch mode := fi.Mode(); {
	case mode&fs.ModeSymlink != 0:
		if f, ok := w.link(rel); ok {
			it.key, it.file = name, f
		}
	case mode.IsDir():
		w.descend(d, it, name, rel)
	case mode.IsRegular():
		it.key, it.file = name, ColdFile{Path: rel, Size: fi.Size(), ModTime: fi.ModTime(), CTime: fsrecord.ChangeTime(fi), Ino: de.ino}
	default:
		w.warn(fmt.Sprintf("%s: skipped: %s", rel, NotRegular(fi)))
	}
}

// descend walks the subdirectory rel, the entry it of d.
func (w *coldWalker) descend(d *coldDir, it *coldItem, name, rel string) {
	it.key, it.sub = name+"/", &coldDir{rel: rel}
	d.subs.Store(true)
	w.wg.Add(1)
	go w.dir(it.sub)
}

func (w *coldWalker) lstat(rel string) (fs.FileInfo, error) {
	if l, ok := w.fsys.(afero.Lstater); ok {
		fi, _, err := l.LstatIfPossible(w.abs(rel))
		return fi, err
	}
	return w.fsys.Stat(w.abs(rel))
}

// link keeps a symlink that leads to a file inside the root. Linked
// directories are not descended: their targets are listed where they live,
// and a link cycle cannot make the walk loop.
func (w *coldWalker) link(rel string) (ColdFile, bool) {
	reason, err := insideReal(w.fsys, w.realRoot, rel)
	switch {
	case errorsIsNotExist(err):
		w.warn(fmt.Sprintf("%s: skipped: dangling symlink", rel))
		return ColdFile{}, false
	case err != nil:
		w.warn(fmt.Sprintf("%s: skipped: %s", rel, Cause(err)))
		return ColdFile{}, false
	case reason != "":
		w.warn(fmt.Sprintf("%s: skipped: %s", rel, reason))
		return ColdFile{}, false
	}
	fi, err := w.fsys.Stat(w.abs(rel))
	switch {
	case errorsIsNotExist(err):
		w.warn(fmt.Sprintf("%s: skipped: dangling symlink", rel))
	case err != nil:
		w.warn(fmt.Sprintf("%s: skipped: %s", rel, Cause(err)))
	case fi.IsDir():
		w.warn(fmt.Sprintf("%s: skipped: symlink to a directory; not followed", rel))
	case !fi.Mode().IsRegular():
		w.warn(fmt.Sprintf("%s: skipped: symlink to a file that is %s", rel, NotRegular(fi)))
	default:
		return ColdFile{Path: rel, Size: fi.Size(), ModTime: fi.ModTime(), CTime: fsrecord.ChangeTime(fi)}, true
	}
	return ColdFile{}, false
}

func (w *coldWalker) warn(msg string) {
	w.mu.Lock()
	w.warnings = append(w.warnings, msg)
	w.mu.Unlock()
}

func errorsIsNotExist(err error) bool { return errors.Is(err, os.ErrNotExist) }

// Cause is what went wrong, without the absolute path a *fs.PathError
// carries, for a warning that already names the file by its root-relative
// path: "permission denied".
func Cause(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// ColdHead is what the table of contents knows of a cold document: its
// front matter and first heading, taken from at most ColdHeadBytes.
type ColdHead struct {
	Meta    FrontMatter
	Heading string
	Binary  bool
	// MetaErr says why the front matter could not be read; the document's
	// sensitivity is then unknown.
	MetaErr string
}

// ParseColdHead reads the listing fields from the start of a document.
// whole says data is the entire file; otherwise data is cut to its last
// whole line within ColdHeadBytes first.
func ParseColdHead(data []byte, whole bool) ColdHead {
	if len(data) > ColdHeadBytes {
		data, whole = data[:ColdHeadBytes], false
	}
	if !whole {
		if i := bytes.LastIndexByte(data, '\n'); i >= 0 {
			data = data[:i+1]
		}
	}
	var h ColdHead
	if bytes.IndexByte(data, 0) >= 0 {
		h.Binary = true
		return h
	}
	meta, body, err := ParseFrontMatter(data)
	switch {
	case !whole && errors.Is(err, ErrUnclosedFrontMatter):
		h.MetaErr = fmt.Sprintf("front matter runs past the first %d KiB", ColdHeadBytes>>10)
	case err != nil:
		h.MetaErr = err.Error()
	}
	h.Meta = meta
	if h.Meta.Summary == "" {
		// A context capsule says what it is for in its objective.
		h.Meta.Summary = h.Meta.Objective
	}
	h.Heading = FirstHeading(StripComments(string(body)))
	return h
}

// ReadHead reads the listing fields of the document at rel from at most
// ColdHeadBytes of it. ok is false, without an error, when there is no
// such document to read: missing, not a regular file, or reached through a
// symlink leading outside the root.
func ReadHead(fsys afero.Fs, root, rel string) (h ColdHead, ok bool, err error) {
	reason, err := Inside(fsys, root, rel)
	if errorsIsNotExist(err) || err == nil && reason != "" {
		return h, false, nil
	}
	if err != nil {
		return h, false, fmt.Errorf("reading %s: %w", rel, err)
	}
	f, _, why, err := OpenRegular(fsys, filepath.Join(root, filepath.FromSlash(rel)))
	if errorsIsNotExist(err) || err == nil && why != "" {
		return h, false, nil
	}
	if err != nil {
		return h, false, fmt.Errorf("reading %s: %w", rel, err)
	}
	defer f.Close()
	buf := make([]byte, ColdHeadBytes+1)
	n, err := io.ReadFull(f, buf)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return h, false, fmt.Errorf("reading %s: %w", rel, err)
	}
	return ParseColdHead(buf[:n], n <= ColdHeadBytes), true, nil
}

// ColdReader reads the cold documents a scan found, with the memory root
// resolved once for all of them. It is safe for concurrent use. Close it
// when done.
type ColdReader struct {
	fsys     afero.Fs
	root     string
	realRoot string

	// On the operating system's file system (recorded or not: see
	// fsrecord.FS.OpenWith), the real root is opened once and each
	// document opened beneath it in one call (see openBeneath).
	once sync.Once
	dir  afero.File   // the real root, open; nil: every document the common way
	rec  *fsrecord.FS // the recording fsys is, if it is one
	off  atomic.Bool  // openat2 is not to be had here: the common way
}

// fastResult is what opening a document beneath the root found.
type fastResult uint8

const (
	fastNo          fastResult = iota // not answered: resolve the path, say why
	fastOpened                        // a regular file, open
	fastMissing                       // not there
	fastUnsupported                   // no openat2 here: the common way
)

// NewColdReader resolves root for reading cold documents under it.
func NewColdReader(fsys afero.Fs, root string) (*ColdReader, error) {
	realRoot, err := realPath(fsys, filepath.Clean(root), false)
	if err != nil {
		return nil, fmt.Errorf("resolving the memory root %s: %w", root, err)
	}
	return &ColdReader{fsys: fsys, root: root, realRoot: realRoot}, nil
}

// ReadInto reads the document at rel as [ReadDoc] does, with the same
// Missing, Skipped, Huge and Content, but none of what only a reader of
// its whole text needs: its front matter is not parsed (Meta is empty)
// and no warnings are collected, since the table of contents takes what it
// lists from the document's head (see [ParseColdHead]). It reads into buf
// when buf is large enough: the returned Content is then buf's, valid
// until buf is used again. It returns the buffer to use next, so that a
// worker reading thousands of documents allocates one.
func (r *ColdReader) ReadInto(rel string, buf []byte) (Doc, []byte, error) {
	d, err := r.read(rel, buf[:0])
	if c := d.Content; cap(c) > cap(buf) {
		buf = c[:0]
	}
	return d, buf, err
}

// Close releases what the reader holds open. A read after it, or during
// it, takes the common way: the closed root answers no openat2.
func (r *ColdReader) Close() error {
	r.once.Do(func() {}) // no root is opened after this
	if r.dir != nil {
		return r.dir.Close()
	}
	return nil
}

// realDir is the real root opened for [openBeneath] (see [openRoot]), nil
// where the file system is not the operating system's (or a recording of
// it), on a system other than Linux, or when the root cannot be opened as
// a directory.
func (r *ColdReader) realDir() afero.File {
	r.once.Do(func() {
		base := r.fsys
		if rec, ok := base.(*fsrecord.FS); ok {
			r.rec, base = rec, rec.Fs
		}
		if _, ok := base.(*afero.OsFs); !ok {
			return
		}
		r.dir = openRoot(base, r.realRoot)
	})
	return r.dir
}

// openFast opens openRel beneath the real root (see [openBeneath]),
// through the recording when fsys is one, which notes the document by
// its own path, rel.
func (r *ColdReader) openFast(openRel, rel string) (afero.File, int64, time.Time, fastResult) {
	dir := r.realDir()
	if dir == nil || r.off.Load() {
		return nil, 0, time.Time{}, fastUnsupported
	}
	name := filepath.Join(r.root, filepath.FromSlash(rel))
	var size int64
	var mtime time.Time
	res := fastNo
	open := func() (afero.File, error) {
		f, n, t, got := openBeneath(dir, openRel, name)
		size, mtime, res = n, t, got
		if f == nil {
			return nil, os.ErrNotExist // the recording notes no file
		}
		return f, nil
	}
	var f afero.File
	if r.rec != nil {
		f, _ = r.rec.OpenWith(name, open)
	} else {
		f, _ = open()
	}
	if res == fastUnsupported {
		r.off.Store(true)
	}
	return f, size, mtime, res
}

func (r *ColdReader) read(rel string, buf []byte) (Doc, error) {
	d := Doc{Path: rel}
	f, size, mtime, res := r.openFast(rel, rel)
	switch res {
	case fastMissing:
		d.Missing = true
		return d, nil
	case fastOpened:
		return r.readOpen(d, f, size, mtime, buf)
	}
	target, reason, err := insideRealTarget(r.fsys, r.realRoot, rel)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			d.Missing = true
			return d, nil
		}
		return d, fmt.Errorf("reading %s: %w", rel, err)
	} else if reason != "" {
		d.Skipped = reason
		return d, nil
	}
	if res == fastNo {
		return r.readResolved(d, rel, target, buf)
	}
	return r.readPath(d, rel, buf, true)
}

// readPath reads the document at rel by its whole path, the common way,
// checked by the caller; with read unset it only says why it is not
// read (missing, skipped), and skips a regular file as changed: see
// [ColdReader.readResolved].
func (r *ColdReader) readPath(d Doc, rel string, buf []byte, read bool) (Doc, error) {
	f, fi, why, err := OpenRegular(r.fsys, filepath.Join(r.root, filepath.FromSlash(rel)))
	switch {
	case errors.Is(err, os.ErrNotExist):
		d.Missing = true
		return d, nil
	case err != nil:
		return d, fmt.Errorf("reading %s: %w", rel, err)
	case why != "":
		d.Skipped = why
		return d, nil
	case !read:
		f.Close()
		d.Skipped = "changed while being read (a symlink on its way came or went); not read"
		return d, nil
	}
	return r.readOpen(d, f, fi.Size(), fi.ModTime(), buf)
}

// readOpen reads the document f, open beneath the root, of size bytes
// and modification time mtime, into d.
func (r *ColdReader) readOpen(d Doc, f afero.File, size int64, mtime time.Time, buf []byte) (Doc, error) {
	defer f.Close()
	d.Size, d.ModTime = size, mtime
	data, err := readBody(f, d.Size, buf, &d)
	if err != nil || d.Skipped != "" {
		return d, err
	}
	d.Content = data
	return d, nil
}

// readResolved reads the document at rel, which an openat2 beneath the
// root did not open (a symlink on its way, or not a regular file) and
// whose path leads, every symlink resolved, to target inside the root.
// It opens target beneath the root with no symlink followed, not the
// whole path: a directory on the way swapped for a link leading out
// after the check (or back, after the first openat2 met it) is then not
// followed. What that does not open is opened the common way only to say
// why it is skipped; a regular file found that way now is one a link put
// on the way since leads to, and is not read.
func (r *ColdReader) readResolved(d Doc, rel, target string, buf []byte) (Doc, error) {
	tRel, err := filepath.Rel(r.realRoot, target)
	if err != nil {
		return r.readPath(d, rel, buf, false)
	}
	switch f, size, mtime, res := r.openFast(filepath.ToSlash(tRel), rel); res {
	case fastOpened:
		return r.readOpen(d, f, size, mtime, buf)
	case fastMissing:
		d.Missing = true
		return d, nil
	case fastUnsupported:
		return r.readPath(d, rel, buf, true)
	}
	return r.readPath(d, rel, buf, false)
}

// readBody reads the document of size bytes f holds into buf, reused when
// it is large enough: whole up to MaxDocBytes, else its head up to its last
// newline within HeadBytes (d.Huge); a NUL byte makes it skipped as binary
// (d.Skipped). One read into a buffer of the file's size, plus one byte to
// see its end, rather than io.ReadAll's growing buffer.
func readBody(f io.Reader, size int64, buf []byte, d *Doc) ([]byte, error) {
	limit := int64(MaxDocBytes)
	if size > MaxDocBytes {
		d.Huge, limit = true, HeadBytes
	}
	data := slices.Grow(buf[:0], int(min(size, limit)+1))
	data, err := readLimited(f, data, limit)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", d.Path, err)
	}
	if d.Huge {
		// Never cut mid-line: keep the head up to its last newline.
		if i := bytes.LastIndexByte(data, '\n'); i >= 0 {
			data = data[:i+1]
		}
	}
	if i := bytes.IndexByte(data, 0); i >= 0 {
		d.Skipped = fmt.Sprintf("binary file (NUL byte at offset %d)", i)
		return nil, nil
	}
	return data, nil
}

// readLimited appends to buf what f holds, up to limit bytes, as
// io.ReadAll of an io.LimitReader does.
func readLimited(f io.Reader, buf []byte, limit int64) ([]byte, error) {
	for int64(len(buf)) < limit {
		if len(buf) == cap(buf) {
			buf = slices.Grow(buf, int(min(int64(max(cap(buf), 512)), limit-int64(len(buf)))))
		}
		room := buf[len(buf):min(int64(cap(buf)), limit)]
		n, err := f.Read(room)
		buf = buf[:len(buf)+n]
		if errors.Is(err, io.EOF) {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
	}
	return buf, nil
}
