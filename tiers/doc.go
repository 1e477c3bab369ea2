package tiers

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/afero"
)

// Limits on what wake reads of one document.
const (
	// MaxDocBytes is the largest document read whole. Anything bigger has only
	// its head read, so one runaway file cannot stall a session start.
	MaxDocBytes = 4 << 20
	// HeadBytes is how much of an oversized document is read.
	HeadBytes = 64 << 10
)

// Doc is one document of the memory root as read from disk.
type Doc struct {
	Path    string // relative to the root, slash-separated
	Content []byte // the bytes on disk (only the head when Huge)
	Meta    FrontMatter
	Size    int64
	ModTime time.Time
	Missing bool   // the file does not exist
	Skipped string // why the document was not read ("" when it was)
	Huge    bool   // over MaxDocBytes: Content holds only the head
	// MetaErr is why the front matter could not be read (Meta is then
	// empty), so that no caller need parse it again to know.
	MetaErr error
	// Warnings are problems that did not stop the read (malformed front
	// matter, invalid UTF-8).
	Warnings []string
}

// Readable reports whether the document's content can be used.
func (d Doc) Readable() bool { return !d.Missing && d.Skipped == "" }

// ReadDoc reads the document at rel under root. A missing file, a binary file
// and a symlink leading outside the root are reported in the Doc, not as
// errors; an error means the file exists but could not be read.
func ReadDoc(fsys afero.Fs, root, rel string) (Doc, error) {
	d := Doc{Path: rel}
	name := filepath.Join(root, filepath.FromSlash(rel))
	if reason, err := Inside(fsys, root, rel); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			d.Missing = true
			return d, nil
		}
		return d, fmt.Errorf("reading %s: %w", rel, err)
	} else if reason != "" {
		d.Skipped = reason
		return d, nil
	}
	f, fi, why, err := OpenRegular(fsys, name)
	if errors.Is(err, os.ErrNotExist) {
		d.Missing = true
		return d, nil
	}
	if err != nil {
		return d, fmt.Errorf("reading %s: %w", rel, err)
	}
	if why != "" {
		d.Skipped = why
		return d, nil
	}
	defer f.Close()
	d.Size, d.ModTime = fi.Size(), fi.ModTime()
	data, err := readBody(f, d.Size, nil, &d)
	if err != nil || d.Skipped != "" {
		return d, err
	}
	d.Content = data
	if line := firstInvalidUTF8Line(data); line > 0 {
		d.Warnings = append(d.Warnings, fmt.Sprintf("%s:%d: invalid UTF-8; shown as it is", rel, line))
	}
	for _, n := range UnclosedFences(string(data)) {
		d.Warnings = append(d.Warnings, fmt.Sprintf("%s:%d: code fence opened here is never closed; wake reads the headings after it as headings", rel, n))
	}
	meta, _, ferr := ParseFrontMatter(data)
	if ferr != nil {
		d.Warnings = append(d.Warnings, fmt.Sprintf("%s: %v", rel, ferr))
	}
	d.Meta, d.MetaErr = meta, ferr
	return d, nil
}

// OpenRegular opens name for reading only when it is a regular file (after
// symlinks). Anything else comes back as a reason, unopened: a directory
// ("is a directory"), and a named pipe, socket or device ("not a regular
// file (named pipe)"), since opening a FIFO blocks until a writer comes
// and reading a device need never end. On the real file system the open
// itself does not wait (O_NONBLOCK) and what was opened is checked, so a
// pipe swapped in after a stat is refused too.
func OpenRegular(fsys afero.Fs, name string) (afero.File, fs.FileInfo, string, error) {
	return openChecked(fsys, name)
}

// NotRegular says why a file of this kind is not read as a document, or ""
// for a regular file.
func NotRegular(fi fs.FileInfo) string {
	m := fi.Mode()
	switch {
	case m.IsRegular():
		return ""
	case m.IsDir():
		return "is a directory"
	case m&fs.ModeNamedPipe != 0:
		return "not a regular file (named pipe)"
	case m&fs.ModeSocket != 0:
		return "not a regular file (socket)"
	case m&fs.ModeCharDevice != 0:
		return "not a regular file (character device)"
	case m&fs.ModeDevice != 0:
		return "not a regular file (device)"
	case m&fs.ModeSymlink != 0:
		return "not a regular file (symlink)"
	}
	return fmt.Sprintf("not a regular file (%s)", m.Type())
}

// maxLinkHops bounds symlink resolution, as the kernel's ELOOP does.
const maxLinkHops = 255

// Inside reports why the path rel under root must not be followed: a
// non-empty reason when, with every component and every symlink resolved
// (the root's own included, so a root named through a symlink works), the
// path leads outside the root. A missing component is an error wrapping
// os.ErrNotExist, except the final one, which may not exist yet: the path is
// then judged by its parent. A file system without symlinks (no
// afero.Lstater) is judged by the cleaned text alone.
func Inside(fsys afero.Fs, root, rel string) (reason string, err error) {
	realRoot, err := realPath(fsys, filepath.Clean(root), false)
	if err != nil {
		return "", fmt.Errorf("resolving the memory root %s: %w", root, err)
	}
	return insideReal(fsys, realRoot, rel)
}

// insideReal is Inside for a root already resolved by realPath, so that a
// walk over many files resolves the root once.
func insideReal(fsys afero.Fs, realRoot, rel string) (string, error) {
	_, reason, err := insideRealTarget(fsys, realRoot, rel)
	return reason, err
}

// insideRealTarget is insideReal with the path rel resolves to, every
// symlink on the way replaced by what it leads to.
func insideRealTarget(fsys afero.Fs, realRoot, rel string) (target, reason string, err error) {
	r := resolver{fsys: fsys}
	r.lst, _ = fsys.(afero.Lstater)
	r.rdr, _ = fsys.(afero.LinkReader)
	target, err = r.resolve(realRoot, strings.Split(filepath.ToSlash(rel), "/"), true)
	if err != nil {
		return "", "", err
	}
	if within(realRoot, target) {
		return target, "", nil
	}
	if r.firstLink != "" {
		return target, fmt.Sprintf("symlink %s leads outside the memory root (to %s); not followed", r.firstLink, target), nil
	}
	return target, fmt.Sprintf("path %s leads outside the memory root (to %s); not followed", rel, target), nil
}

// realPath resolves every symlink in the path p, as filepath.EvalSymlinks
// does, through afero.
func realPath(fsys afero.Fs, p string, lastMayBeMissing bool) (string, error) {
	r := resolver{fsys: fsys}
	r.lst, _ = fsys.(afero.Lstater)
	r.rdr, _ = fsys.(afero.LinkReader)
	start := "."
	if filepath.IsAbs(p) {
		start = string(filepath.Separator)
	}
	return r.resolve(start, strings.Split(filepath.ToSlash(p), "/"), lastMayBeMissing)
}

type resolver struct {
	fsys      afero.Fs
	lst       afero.Lstater
	rdr       afero.LinkReader
	hops      int
	firstLink string // the first symlink met, as a path relative to the start
}

// resolve walks parts from base, a path with no symlinks in it, replacing
// each symlink met by its target's components. With lastMayBeMissing, a
// missing final component is kept as it is, under its resolved parent.
func (r *resolver) resolve(base string, parts []string, lastMayBeMissing bool) (string, error) {
	cur := base
	var pending []string // components still to walk from link targets
	next := 0            // the next of parts to walk once pending is empty
	for len(pending) > 0 || next < len(parts) {
		var c string
		if len(pending) > 0 {
			c, pending = pending[0], pending[1:]
		} else {
			c, next = parts[next], next+1
		}
		switch c {
		case "", ".":
			continue
		case "..":
			cur = parentOf(cur)
			continue
		}
		cand := filepath.Join(cur, c)
		last := len(pending) == 0 && next == len(parts)
		fi, err := r.lstat(cand)
		if errors.Is(err, os.ErrNotExist) && last && lastMayBeMissing {
			return cand, nil
		}
		if err != nil {
			return "", err
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			cur = cand
			continue
		}
		if r.firstLink == "" {
			r.firstLink = path.Join(parts[:next]...)
		}
		target, err := r.readlink(cand)
		if err != nil {
			return "", err
		}
		if filepath.IsAbs(target) {
			cur = string(filepath.Separator)
		}
		pending = append(strings.Split(filepath.ToSlash(target), "/"), pending...)
	}
	return cur, nil
}

func (r *resolver) lstat(name string) (fs.FileInfo, error) {
	if r.lst == nil {
		return r.fsys.Stat(name)
	}
	fi, _, err := r.lst.LstatIfPossible(name)
	return fi, err
}

func (r *resolver) readlink(name string) (string, error) {
	if r.rdr == nil {
		return "", fmt.Errorf("%s: symlink cannot be resolved here", name)
	}
	if r.hops++; r.hops > maxLinkHops {
		return "", fmt.Errorf("%s: too many levels of symbolic links", name)
	}
	return r.rdr.ReadlinkIfPossible(name)
}

// parentOf is the directory above p, which has no symlinks in it; above a
// relative start it climbs with "..".
func parentOf(p string) string {
	if p == "." || p == ".." || strings.HasSuffix(p, string(filepath.Separator)+"..") {
		return filepath.Join(p, "..")
	}
	return filepath.Dir(p)
}

// within reports whether p is root or lies under it.
func within(root, p string) bool {
	r, err := filepath.Rel(root, p)
	return err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator)) && !filepath.IsAbs(r)
}

func firstInvalidUTF8Line(data []byte) int {
	if isValidUTF8(data) {
		return 0
	}
	for n, line := range bytes.SplitAfter(data, []byte("\n")) {
		if !isValidUTF8(line) {
			return n + 1
		}
	}
	return 0
}
