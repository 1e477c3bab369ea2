package store

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"syscall"
	"time"

	"github.com/spf13/afero"
)

// Linker is a file system that can give a file a second name, failing
// when that name exists (link(2)). [CreateExclusiveIn] uses it to put a
// complete file in place without ever replacing one; afero's OsFs is
// served without it.
type Linker interface {
	LinkIfPossible(oldname, newname string) error
}

// CreateExclusiveIn writes data to rel under base only if it does not
// exist yet, syncing it; directories on the way are created and checked as
// [WriteFileIn] does. It reports an error wrapping os.ErrExist when the
// file exists (a symlink, dangling or not, included).
//
// The data is written to a temporary file beside rel, synced, then linked
// to rel, which fails rather than replace anything: a crash leaves either
// no file or the whole file, never the empty file an O_EXCL create
// written in place leaves (issue 23). The temporary name is removed after;
// one a crash leaves is swept as any other.
func CreateExclusiveIn(fsys afero.Fs, base, rel string, data []byte, perm os.FileMode) error {
	if _, err := walkPath(fsys, base, path.Dir(filepath.ToSlash(rel)), mkdirAll); err != nil {
		return err
	}
	name := filepath.Join(base, filepath.FromSlash(rel))
	if _, err := lstat(fsys, name); err == nil {
		return &os.PathError{Op: "create", Path: name, Err: fs.ErrExist}
	}
	tmp, err := writeTemp(fsys, name, tempName(name), data, perm)
	if err != nil {
		return err
	}
	defer fsys.Remove(tmp)
	return placeNew(fsys, tmp, name, data, perm)
}

// tempName is a new temporary name beside name, of the form [WriteFile]
// gives its own so that the sweep knows it.
func tempName(name string) string {
	return filepath.Join(filepath.Dir(name), "."+filepath.Base(name)+".tmp-"+randSuffix())
}

// writeTemp writes data, synced, to the new temporary file tmp beside
// name. It returns tmp; on error nothing is left.
func writeTemp(fsys afero.Fs, name, tmp string, data []byte, perm os.FileMode) (_ string, err error) {
	sweepTemps(fsys, filepath.Dir(name), filepath.Base(name), time.Now())
	f, err := fsys.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return "", fmt.Errorf("writing %s: %w", name, err)
	}
	defer func() {
		if err != nil {
			fsys.Remove(tmp)
		}
	}()
	if _, err = f.Write(data); err != nil {
		f.Close()
		return "", fmt.Errorf("writing %s: %w", name, err)
	}
	if err = f.Sync(); err != nil {
		f.Close()
		return "", fmt.Errorf("syncing %s: %w", name, err)
	}
	if err = f.Close(); err != nil {
		return "", fmt.Errorf("closing %s: %w", name, err)
	}
	return tmp, nil
}

// placeNew gives the complete file tmp the name name unless name exists,
// and syncs the directory. Where the file system can neither link nor
// rename without replacing (an in-memory one, a FUSE mount refusing
// links), it falls back to an exclusive create written in place.
func placeNew(fsys afero.Fs, tmp, name string, data []byte, perm os.FileMode) error {
	err := linkNoReplace(fsys, tmp, name)
	if errors.Is(err, errCannotLink) {
		return createInPlace(fsys, name, data, perm)
	}
	if err != nil {
		return err
	}
	return SyncDir(fsys, filepath.Dir(name))
}

// errCannotLink is a file system offering no way to name a file without
// replacing what the name holds.
var errCannotLink = errors.New("no link or no-replace rename on this file system")

// linkNoReplace links oldname to newname, or renames it without
// replacing where links are refused.
func linkNoReplace(fsys afero.Fs, oldname, newname string) error {
	switch l := fsys.(type) {
	case Linker:
		return l.LinkIfPossible(oldname, newname)
	case *afero.OsFs:
		err := os.Link(oldname, newname)
		if err == nil || errors.Is(err, fs.ErrExist) || !linkRefused(err) {
			return err
		}
		return renameNoReplace(oldname, newname)
	}
	return errCannotLink
}

// linkRefused reports a link(2) failure that says the file system does
// not do hard links, rather than that the name is taken.
func linkRefused(err error) bool {
	for _, e := range []error{syscall.EPERM, syscall.ENOTSUP, syscall.EOPNOTSUPP, syscall.ENOSYS, syscall.EMLINK, syscall.EXDEV} {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}

// createInPlace is the exclusive create written in place, for file systems
// that offer nothing better; a file it leaves empty, wake init repairs.
func createInPlace(fsys afero.Fs, name string, data []byte, perm os.FileMode) (err error) {
	f, err := fsys.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := f.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("closing %s: %w", name, cerr)
		}
	}()
	if _, err := f.Write(data); err != nil {
		return fmt.Errorf("writing %s: %w", name, err)
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("syncing %s: %w", name, err)
	}
	return nil
}
