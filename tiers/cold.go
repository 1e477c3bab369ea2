package tiers

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
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
// Names starting with "." (editor and temporary files) are passed over. A
// symlink is followed only when it leads to a file inside the root; a link
// leading outside the root, or to a directory, is skipped with a warning.
// A missing cold/ is empty.
func ScanCold(fsys afero.Fs, root string) ([]ColdFile, []string, error) {
	reason, err := escapes(fsys, root, ColdDir)
	if errorsIsNotExist(err) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("reading %s: %w", ColdDir, err)
	}
	if reason != "" {
		return nil, []string{fmt.Sprintf("%s: skipped: %s", ColdDir, reason)}, nil
	}
	w := coldWalker{fsys: fsys, root: root}
	if err := w.walk(ColdDir); err != nil {
		return nil, w.warnings, err
	}
	sort.Slice(w.files, func(i, j int) bool { return w.files[i].Path < w.files[j].Path })
	return w.files, w.warnings, nil
}

type coldWalker struct {
	fsys     afero.Fs
	root     string
	files    []ColdFile
	warnings []string
}

func (w *coldWalker) walk(dir string) error {
	f, err := w.fsys.Open(filepath.Join(w.root, filepath.FromSlash(dir)))
	if err != nil {
		return fmt.Errorf("reading %s: %w", dir, err)
	}
	infos, err := f.Readdir(-1)
	f.Close()
	if err != nil {
		return fmt.Errorf("reading %s: %w", dir, err)
	}
	for _, fi := range infos {
		if strings.HasPrefix(fi.Name(), ".") {
			continue
		}
		rel := path.Join(dir, fi.Name())
		switch mode := fi.Mode(); {
		case mode&fs.ModeSymlink != 0:
			w.link(rel)
		case mode.IsDir():
			if err := w.walk(rel); err != nil {
				return err
			}
		case mode.IsRegular():
			w.files = append(w.files, ColdFile{Path: rel, Size: fi.Size(), ModTime: fi.ModTime()})
		default:
			w.warnings = append(w.warnings, fmt.Sprintf("%s: skipped: not a regular file (%s)", rel, mode.Type()))
		}
	}
	return nil
}

// link keeps a symlink that leads to a file inside the root. Linked
// directories are not descended: their targets are listed where they live,
// and a link cycle cannot make the walk loop.
func (w *coldWalker) link(rel string) {
	reason, err := escapes(w.fsys, w.root, rel)
	switch {
	case errorsIsNotExist(err):
		w.warnings = append(w.warnings, fmt.Sprintf("%s: skipped: dangling symlink", rel))
		return
	case err != nil:
		w.warnings = append(w.warnings, fmt.Sprintf("%s: skipped: %v", rel, err))
		return
	case reason != "":
		w.warnings = append(w.warnings, fmt.Sprintf("%s: skipped: %s", rel, reason))
		return
	}
	fi, err := w.fsys.Stat(filepath.Join(w.root, filepath.FromSlash(rel)))
	switch {
	case err != nil:
		w.warnings = append(w.warnings, fmt.Sprintf("%s: skipped: %v", rel, err))
	case fi.IsDir():
		w.warnings = append(w.warnings, fmt.Sprintf("%s: skipped: symlink to a directory; not followed", rel))
	default:
		w.files = append(w.files, ColdFile{Path: rel, Size: fi.Size(), ModTime: fi.ModTime()})
	}
}

func errorsIsNotExist(err error) bool { return errors.Is(err, os.ErrNotExist) }

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
	case err != nil:
		h.MetaErr = err.Error()
	case !whole && len(body) == len(data) && startsFrontMatter(data):
		h.MetaErr = fmt.Sprintf("front matter runs past the first %d KiB", ColdHeadBytes>>10)
	}
	h.Meta = meta
	h.Heading = FirstHeading(StripComments(string(body)))
	return h
}

func startsFrontMatter(data []byte) bool {
	first, _, _ := bytes.Cut(data, []byte("\n"))
	return bytes.Equal(bytes.TrimRight(first, "\r \t"), fmDelim)
}
