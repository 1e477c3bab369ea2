// Package touchfs wraps a file system for tests that prove what a run
// touches: every open by path, and every write (an open for writing, a
// create, a rename, a removal, a new directory). The warm-start tests of
// several packages share it.
package touchfs

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/spf13/afero"
)

// FS counts what a run does to the files under it: every open by
// path, and every write (an open for writing, a create, a rename, a
// removal, a new directory).
type FS struct {
	afero.Fs
	mu     sync.Mutex
	opens  map[string]int
	writes []string
}

// New wraps fsys.
func New(fsys afero.Fs) *FS { return &FS{Fs: fsys, opens: map[string]int{}} }

// Reset forgets what was counted.
func (f *FS) Reset() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.opens, f.writes = map[string]int{}, nil
}

// FilesUnder returns the files (not directories) whose path contains dir,
// opened since the last reset, with how often each was opened.
func (f *FS) FilesUnder(dir string) map[string]int {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := map[string]int{}
	for name, n := range f.opens {
		if fi, err := f.Fs.Stat(name); err == nil && !fi.IsDir() && strings.Contains(name, dir) {
			out[name] = n
		}
	}
	return out
}

func (f *FS) opened(name string) {
	f.mu.Lock()
	f.opens[filepath.ToSlash(name)]++
	f.mu.Unlock()
}

func (f *FS) wrote(what string) {
	f.mu.Lock()
	f.writes = append(f.writes, what)
	f.mu.Unlock()
}

func (f *FS) Open(name string) (afero.File, error) {
	f.opened(name)
	return f.Fs.Open(name)
}

func (f *FS) OpenFile(name string, flag int, perm os.FileMode) (afero.File, error) {
	f.opened(name)
	if flag&(os.O_WRONLY|os.O_RDWR|os.O_CREATE|os.O_APPEND|os.O_TRUNC) != 0 {
		f.wrote("open for writing " + name)
	}
	return f.Fs.OpenFile(name, flag, perm)
}

func (f *FS) Create(name string) (afero.File, error) {
	f.wrote("create " + name)
	return f.Fs.Create(name)
}

func (f *FS) Rename(from, to string) error {
	f.wrote("rename " + from + " " + to)
	return f.Fs.Rename(from, to)
}

func (f *FS) Remove(name string) error {
	f.wrote("remove " + name)
	return f.Fs.Remove(name)
}

func (f *FS) RemoveAll(name string) error {
	f.wrote("remove all " + name)
	return f.Fs.RemoveAll(name)
}

func (f *FS) Mkdir(name string, perm os.FileMode) error {
	f.wrote("mkdir " + name)
	return f.Fs.Mkdir(name, perm)
}

func (f *FS) MkdirAll(name string, perm os.FileMode) error {
	f.wrote("mkdir all " + name)
	return f.Fs.MkdirAll(name, perm)
}

func (f *FS) Chtimes(name string, a, m time.Time) error {
	f.wrote("chtimes " + name)
	return f.Fs.Chtimes(name, a, m)
}

// LstatIfPossible keeps the symlink checks of the file system underneath.
func (f *FS) LstatIfPossible(name string) (os.FileInfo, bool, error) {
	if l, ok := f.Fs.(afero.Lstater); ok {
		return l.LstatIfPossible(name)
	}
	fi, err := f.Fs.Stat(name)
	return fi, false, err
}

// Writes lists the writes since the last reset.
func (f *FS) Writes() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.writes...)
}

// Opens returns how often each path was opened since the last reset.
func (f *FS) Opens() map[string]int {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := make(map[string]int, len(f.opens))
	for k, v := range f.opens {
		out[k] = v
	}
	return out
}
