package tiers

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/spf13/afero"
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
}

// ScanCold lists the files under cold/ in path order without opening any of
// them, so that a warm start costs one directory read and one lstat a file.
// The lstats, which are most of that cost, run on a few goroutines. Names
// starting with "." (editor and temporary files) are passed over. A
// symlink is followed only when it leads to a file inside the root; a link
// leading outside the root, or to a directory, is skipped with a warning.
// A missing cold/ is empty. What cannot be read (cold/ itself not a
// directory, a subdirectory without permission) is skipped with a warning
// naming it, so that one bad entry never stops a session start; only a
// root that cannot be resolved is an error.
func ScanCold(fsys afero.Fs, root string) ([]ColdFile, []string, error) {
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
	w := &coldWalker{fsys: fsys, root: root, realRoot: realRoot, sem: make(chan struct{}, scanWorkers())}
	w.wg.Add(1)
	w.dir(ColdDir)
	w.wg.Wait()
	slices.SortFunc(w.files, func(a, b ColdFile) int { return strings.Compare(a.Path, b.Path) })
	slices.Sort(w.warnings)
	return w.files, w.warnings, nil
}

// scanChunk is how many names one goroutine lstats at a time.
const scanChunk = 256

func scanWorkers() int { return min(8, 2*runtime.GOMAXPROCS(0)) }

type coldWalker struct {
	fsys     afero.Fs
	root     string
	realRoot string        // root with its symlinks resolved
	sem      chan struct{} // bounds the goroutines doing file-system calls
	wg       sync.WaitGroup

	mu       sync.Mutex
	files    []ColdFile
	warnings []string
}

func (w *coldWalker) abs(rel string) string { return filepath.Join(w.root, filepath.FromSlash(rel)) }

// dir lists one directory and lstats its entries in chunks, each chunk on
// its own goroutine. The caller has added dir to w.wg.
func (w *coldWalker) dir(dir string) {
	defer w.wg.Done()
	w.sem <- struct{}{}
	names, err := w.readNames(dir)
	<-w.sem
	if err != nil {
		w.warn(fmt.Sprintf("%s: skipped: %s", dir, Cause(err)))
		return
	}
	for i := 0; i < len(names); i += scanChunk {
		chunk := names[i:min(i+scanChunk, len(names))]
		w.wg.Add(1)
		go func() {
			defer w.wg.Done()
			w.sem <- struct{}{}
			defer func() { <-w.sem }()
			for _, name := range chunk {
				w.entry(path.Join(dir, name))
			}
		}()
	}
}

func (w *coldWalker) readNames(dir string) ([]string, error) {
	f, err := w.fsys.Open(w.abs(dir))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	names, err := f.Readdirnames(-1)
	if err != nil {
		return nil, err
	}
	kept := names[:0]
	for _, n := range names {
		if !strings.HasPrefix(n, ".") {
			kept = append(kept, n)
		}
	}
	return kept, nil
}

func (w *coldWalker) entry(rel string) {
	fi, err := w.lstat(rel)
	if err != nil {
		w.warn(fmt.Sprintf("%s: skipped: %s", rel, Cause(err)))
		return
	}
	switch mode := fi.Mode(); {
	case mode&fs.ModeSymlink != 0:
		w.link(rel)
	case mode.IsDir():
		w.wg.Add(1)
		go w.dir(rel)
	case mode.IsRegular():
		w.add(ColdFile{Path: rel, Size: fi.Size(), ModTime: fi.ModTime()})
	default:
		w.warn(fmt.Sprintf("%s: skipped: %s", rel, NotRegular(fi)))
	}
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
func (w *coldWalker) link(rel string) {
	reason, err := insideReal(w.fsys, w.realRoot, rel)
	switch {
	case errorsIsNotExist(err):
		w.warn(fmt.Sprintf("%s: skipped: dangling symlink", rel))
		return
	case err != nil:
		w.warn(fmt.Sprintf("%s: skipped: %s", rel, Cause(err)))
		return
	case reason != "":
		w.warn(fmt.Sprintf("%s: skipped: %s", rel, reason))
		return
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
		w.add(ColdFile{Path: rel, Size: fi.Size(), ModTime: fi.ModTime()})
	}
}

func (w *coldWalker) add(f ColdFile) {
	w.mu.Lock()
	w.files = append(w.files, f)
	w.mu.Unlock()
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
