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
	if reason, err := escapes(fsys, root, rel); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			d.Missing = true
			return d, nil
		}
		return d, fmt.Errorf("reading %s: %w", rel, err)
	} else if reason != "" {
		d.Skipped = reason
		return d, nil
	}
	f, err := fsys.Open(name)
	if errors.Is(err, os.ErrNotExist) {
		d.Missing = true
		return d, nil
	}
	if err != nil {
		return d, fmt.Errorf("reading %s: %w", rel, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return d, fmt.Errorf("reading %s: %w", rel, err)
	}
	if fi.IsDir() {
		d.Skipped = "is a directory"
		return d, nil
	}
	d.Size, d.ModTime = fi.Size(), fi.ModTime()
	limit := int64(MaxDocBytes)
	if d.Size > MaxDocBytes {
		d.Huge, limit = true, HeadBytes
	}
	data, err := io.ReadAll(io.LimitReader(f, limit))
	if err != nil {
		return d, fmt.Errorf("reading %s: %w", rel, err)
	}
	if d.Huge {
		// Never cut mid-line: keep the head up to its last newline.
		if i := bytes.LastIndexByte(data, '\n'); i >= 0 {
			data = data[:i+1]
		}
	}
	if i := bytes.IndexByte(data, 0); i >= 0 {
		d.Skipped = fmt.Sprintf("binary file (NUL byte at offset %d)", i)
		return d, nil
	}
	d.Content = data
	if line := firstInvalidUTF8Line(data); line > 0 {
		d.Warnings = append(d.Warnings, fmt.Sprintf("%s:%d: invalid UTF-8; shown as it is", rel, line))
	}
	meta, _, ferr := ParseFrontMatter(data)
	if ferr != nil {
		d.Warnings = append(d.Warnings, fmt.Sprintf("%s: %v", rel, ferr))
	}
	d.Meta = meta
	return d, nil
}

// escapes reports why rel must not be followed: a symlink, at any component
// of the path, whose target lies outside root. It returns os.ErrNotExist when
// a component is missing.
func escapes(fsys afero.Fs, root, rel string) (string, error) {
	lst, ok := fsys.(afero.Lstater)
	if !ok {
		return "", nil
	}
	rdr, canRead := fsys.(afero.LinkReader)
	cur := root
	parts := strings.Split(rel, "/")
	for i := 0; i < len(parts); i++ {
		cur = filepath.Join(cur, parts[i])
		fi, _, err := lst.LstatIfPossible(cur)
		if err != nil {
			return "", err
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			continue
		}
		if !canRead {
			return "symlink (cannot be resolved here)", nil
		}
		target, err := resolveLink(lst, rdr, cur)
		if err != nil {
			return "", err
		}
		if !within(root, target) {
			shown := path.Join(parts[:i+1]...)
			return fmt.Sprintf("symlink %s leads outside the memory root (to %s); not followed", shown, target), nil
		}
	}
	return "", nil
}

// resolveLink follows the symlink chain at name to a path that is not a link.
func resolveLink(lst afero.Lstater, rdr afero.LinkReader, name string) (string, error) {
	for hops := 0; hops < 40; hops++ {
		fi, _, err := lst.LstatIfPossible(name)
		if err != nil {
			return "", err
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			return name, nil
		}
		t, err := rdr.ReadlinkIfPossible(name)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(t) {
			t = filepath.Join(filepath.Dir(name), t)
		}
		name = filepath.Clean(t)
	}
	return "", fmt.Errorf("%s: too many levels of symbolic links", name)
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
