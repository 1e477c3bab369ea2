package wake_test

import (
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/spf13/afero"
)

// crashFs is the disk as a process killed at its n-th write sees it: once
// armed, every mutating operation (an open for writing, a write, a sync, a
// link, a rename, a removal, a new directory) is counted, and from the
// at-th on each fails, clean-up included, as if the process had died
// there. It links as the OsFs does, so creation takes its real path.
type crashFs struct {
	afero.Fs
	at int

	mu    sync.Mutex
	armed bool
	n     int
}

func (f *crashFs) arm() { f.mu.Lock(); f.armed = true; f.mu.Unlock() }

// died reports whether the crash point was reached.
func (f *crashFs) died() bool { f.mu.Lock(); defer f.mu.Unlock(); return f.n >= f.at }

func (f *crashFs) hit(op, name string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.armed {
		return nil
	}
	f.n++
	if f.n >= f.at {
		return fmt.Errorf("%s %s: killed", op, name)
	}
	return nil
}

func (f *crashFs) LinkIfPossible(o, n string) error {
	if err := f.hit("link", n); err != nil {
		return err
	}
	return os.Link(o, n)
}

func (f *crashFs) OpenFile(name string, flag int, perm os.FileMode) (afero.File, error) {
	if flag&(os.O_WRONLY|os.O_RDWR|os.O_CREATE|os.O_APPEND|os.O_TRUNC) != 0 {
		if err := f.hit("open", name); err != nil {
			return nil, err
		}
	}
	file, err := f.Fs.OpenFile(name, flag, perm)
	if err != nil {
		return nil, err
	}
	return &crashFile{File: file, fs: f}, nil
}

func (f *crashFs) Create(name string) (afero.File, error) {
	return f.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o666)
}

func (f *crashFs) Rename(o, n string) error {
	return f.do("rename", n, func() error { return f.Fs.Rename(o, n) })
}
func (f *crashFs) Remove(name string) error {
	return f.do("remove", name, func() error { return f.Fs.Remove(name) })
}
func (f *crashFs) RemoveAll(name string) error {
	return f.do("removeall", name, func() error { return f.Fs.RemoveAll(name) })
}
func (f *crashFs) Mkdir(name string, perm os.FileMode) error {
	return f.do("mkdir", name, func() error { return f.Fs.Mkdir(name, perm) })
}
func (f *crashFs) MkdirAll(name string, perm os.FileMode) error {
	return f.do("mkdirall", name, func() error { return f.Fs.MkdirAll(name, perm) })
}
func (f *crashFs) Chmod(name string, mode os.FileMode) error {
	return f.do("chmod", name, func() error { return f.Fs.Chmod(name, mode) })
}
func (f *crashFs) Chtimes(name string, a, m time.Time) error {
	return f.do("chtimes", name, func() error { return f.Fs.Chtimes(name, a, m) })
}

func (f *crashFs) do(op, name string, fn func() error) error {
	if err := f.hit(op, name); err != nil {
		return err
	}
	return fn()
}

func (f *crashFs) LstatIfPossible(name string) (os.FileInfo, bool, error) {
	return f.Fs.(afero.Lstater).LstatIfPossible(name)
}

func (f *crashFs) ReadlinkIfPossible(name string) (string, error) {
	return f.Fs.(afero.LinkReader).ReadlinkIfPossible(name)
}

type crashFile struct {
	afero.File
	fs *crashFs
}

func (f *crashFile) Write(p []byte) (int, error) {
	if err := f.fs.hit("write", f.Name()); err != nil {
		return 0, err
	}
	return f.File.Write(p)
}

func (f *crashFile) WriteString(s string) (int, error) { return f.Write([]byte(s)) }

func (f *crashFile) Sync() error {
	if err := f.fs.hit("sync", f.Name()); err != nil {
		return err
	}
	return f.File.Sync()
}

func (f *crashFile) Truncate(size int64) error {
	if err := f.fs.hit("truncate", f.Name()); err != nil {
		return err
	}
	return f.File.Truncate(size)
}
