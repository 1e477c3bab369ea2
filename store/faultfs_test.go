package store

import (
	"errors"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/spf13/afero"
)

// errFault is the failure faultFs injects.
var errFault = errors.New("injected fault")

// faultFs wraps a file system and counts its mutating operations (opening
// for writing, writes, syncs, renames, removals, directory creation). It
// fails the one numbered failAt; with crash set it fails every one from
// failAt on, as if the process had died there: nothing after that point
// reaches the disk, clean-up included.
type faultFs struct {
	afero.Fs
	failAt int // 1-based; 0 never fails
	crash  bool

	mu  sync.Mutex
	n   int
	ops []string
}

func (f *faultFs) hit(op, name string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.n++
	f.ops = append(f.ops, op+" "+name)
	if f.failAt > 0 && (f.n == f.failAt || f.crash && f.n > f.failAt) {
		return fmt.Errorf("%s %s: %w", op, name, errFault)
	}
	return nil
}

func (f *faultFs) wrap(file afero.File, err error) (afero.File, error) {
	if err != nil {
		return nil, err
	}
	return &faultFile{File: file, fs: f}, nil
}

func (f *faultFs) Create(name string) (afero.File, error) {
	if err := f.hit("create", name); err != nil {
		return nil, err
	}
	return f.wrap(f.Fs.Create(name))
}

func (f *faultFs) OpenFile(name string, flag int, perm os.FileMode) (afero.File, error) {
	if flag&(os.O_WRONLY|os.O_RDWR|os.O_CREATE|os.O_APPEND|os.O_TRUNC) != 0 {
		if err := f.hit("openfile", name); err != nil {
			return nil, err
		}
	}
	return f.wrap(f.Fs.OpenFile(name, flag, perm))
}

func (f *faultFs) Open(name string) (afero.File, error) { return f.wrap(f.Fs.Open(name)) }

func (f *faultFs) Rename(o, n string) error {
	if err := f.hit("rename", o+" -> "+n); err != nil {
		return err
	}
	return f.Fs.Rename(o, n)
}

func (f *faultFs) Remove(name string) error {
	if err := f.hit("remove", name); err != nil {
		return err
	}
	return f.Fs.Remove(name)
}

func (f *faultFs) RemoveAll(name string) error {
	if err := f.hit("removeall", name); err != nil {
		return err
	}
	return f.Fs.RemoveAll(name)
}

func (f *faultFs) Mkdir(name string, perm os.FileMode) error {
	if err := f.hit("mkdir", name); err != nil {
		return err
	}
	return f.Fs.Mkdir(name, perm)
}

func (f *faultFs) MkdirAll(name string, perm os.FileMode) error {
	if err := f.hit("mkdirall", name); err != nil {
		return err
	}
	return f.Fs.MkdirAll(name, perm)
}

func (f *faultFs) Chtimes(name string, a, m time.Time) error {
	if err := f.hit("chtimes", name); err != nil {
		return err
	}
	return f.Fs.Chtimes(name, a, m)
}

type faultFile struct {
	afero.File
	fs *faultFs
}

func (f *faultFile) Write(p []byte) (int, error) {
	if err := f.fs.hit("write", f.Name()); err != nil {
		return 0, err
	}
	return f.File.Write(p)
}

func (f *faultFile) WriteAt(p []byte, off int64) (int, error) {
	if err := f.fs.hit("writeat", f.Name()); err != nil {
		return 0, err
	}
	return f.File.WriteAt(p, off)
}

func (f *faultFile) WriteString(s string) (int, error) { return f.Write([]byte(s)) }

func (f *faultFile) Truncate(size int64) error {
	if err := f.fs.hit("truncate", f.Name()); err != nil {
		return err
	}
	return f.File.Truncate(size)
}

func (f *faultFile) Sync() error {
	if err := f.fs.hit("sync", f.Name()); err != nil {
		return err
	}
	return f.File.Sync()
}
