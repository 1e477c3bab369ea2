package tiers

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/afero"
)

// MaxOwnBytes caps what [ReadOwn] reads: wake's own files stay far below
// it, and a file planted to exhaust memory is refused.
const MaxOwnBytes = 256 << 20

// ReadOwn reads rel under root, a file wake itself keeps there (its state,
// the decision log's copy, the hand-off's summaries as it moves them),
// more strictly than a document: no component of rel may be a symlink, the
// file must be a regular one, and no bigger than [MaxOwnBytes]. A missing
// file is an error wrapping os.ErrNotExist. A memory root can come with a
// cloned repository, and a symlink or a device there must not make wake
// read, or show, a file outside it.
func ReadOwn(fsys afero.Fs, root, rel string) ([]byte, error) {
	rel = filepath.Clean(filepath.FromSlash(rel))
	if !filepath.IsLocal(rel) {
		return nil, fmt.Errorf("%s: not a path inside the memory root", rel)
	}
	cur := filepath.Clean(root)
	parts := strings.Split(filepath.ToSlash(rel), "/")
	lst, _ := fsys.(afero.Lstater)
	for i, p := range parts {
		cur = filepath.Join(cur, p)
		if lst == nil {
			break
		}
		fi, _, err := lst.LstatIfPossible(cur)
		if err != nil {
			return nil, err
		}
		shown := strings.Join(parts[:i+1], "/")
		switch {
		case fi.Mode()&os.ModeSymlink != 0:
			return nil, fmt.Errorf("%s is a symlink; wake reads its own files only where they are", shown)
		case i < len(parts)-1 && !fi.IsDir():
			return nil, fmt.Errorf("%s is not a directory", shown)
		}
	}
	f, fi, why, err := OpenRegular(fsys, filepath.Join(root, rel))
	if err != nil {
		return nil, err
	}
	if why != "" {
		return nil, fmt.Errorf("%s: %s", filepath.ToSlash(rel), why)
	}
	defer f.Close()
	if fi.Size() > MaxOwnBytes {
		return nil, fmt.Errorf("%s: %d bytes, over the %d wake reads of its own files", filepath.ToSlash(rel), fi.Size(), MaxOwnBytes)
	}
	// Sized from the stat, so that a large file is read in one buffer.
	buf := bytes.NewBuffer(make([]byte, 0, fi.Size()+bytes.MinRead))
	_, err = buf.ReadFrom(io.LimitReader(f, MaxOwnBytes+1))
	data := buf.Bytes()
	if err == nil && len(data) > MaxOwnBytes {
		err = errors.New(filepath.ToSlash(rel) + ": grew past the size wake reads")
	}
	return data, err
}
