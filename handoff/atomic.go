// Package handoff makes every write wake performs: atomic file writes, the
// memory root's lock, the append-only ledger, the session hand-off with its
// crash-safe rotation, and annotations of the decision log.
package handoff

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"

	"github.com/spf13/afero"
)

// WriteFile replaces name with data atomically: the data goes to a temporary
// file in the same directory, which is synced, closed and renamed over name,
// and the directory is synced. On any error the temporary file is removed
// and name is left as it was. Missing parent directories are created.
//
// An existing file keeps its permission bits; perm applies to a new file
// only. When name is a symlink the file it leads to is replaced (the
// temporary file sits beside that file), so the link stays a link.
func WriteFile(fsys afero.Fs, name string, data []byte, perm os.FileMode) error {
	return writeFile(fsys, name, data, perm, false)
}

// WriteFileMode is [WriteFile] that gives the file exactly perm, whether
// or not it exists: for a file wake alone writes whose mode is part of
// what it promises (skill.md, private to its user).
func WriteFileMode(fsys afero.Fs, name string, data []byte, perm os.FileMode) error {
	return writeFile(fsys, name, data, perm, true)
}

func writeFile(fsys afero.Fs, name string, data []byte, perm os.FileMode, exact bool) (err error) {
	target, err := linkTarget(fsys, name)
	if err != nil {
		return fmt.Errorf("writing %s: %w", name, err)
	}
	dir := filepath.Dir(target)
	if err := fsys.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("creating %s: %w", dir, err)
	}
	keep := exact
	if fi, err := fsys.Stat(target); err == nil && fi.Mode().IsRegular() && !exact {
		perm, keep = fi.Mode().Perm(), true
	}
	tmp := filepath.Join(dir, "."+filepath.Base(target)+".tmp-"+randSuffix())
	f, err := fsys.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return fmt.Errorf("writing %s: %w", name, err)
	}
	defer func() {
		if err != nil {
			f.Close()
			fsys.Remove(tmp)
		}
	}()
	if keep {
		// The umask may have cleared bits the file had (a group-writable
		// file under umask 022) or that exact asks for.
		if err = fsys.Chmod(tmp, perm); err != nil {
			return fmt.Errorf("writing %s: %w", name, err)
		}
	}
	if _, err = f.Write(data); err != nil {
		return fmt.Errorf("writing %s: %w", name, err)
	}
	if err = f.Sync(); err != nil {
		return fmt.Errorf("syncing %s: %w", name, err)
	}
	if err = f.Close(); err != nil {
		return fmt.Errorf("closing %s: %w", name, err)
	}
	if err = fsys.Rename(tmp, target); err != nil {
		return fmt.Errorf("renaming %s: %w", name, err)
	}
	return SyncDir(fsys, dir)
}

// maxLinks bounds the symlinks followed to a file, as the kernel's ELOOP
// does.
const maxLinks = 40

// linkTarget follows name while it is a symlink and returns the path of the
// file it leads to, which may not exist yet. A file system without
// symlinks gives name back.
func linkTarget(fsys afero.Fs, name string) (string, error) {
	lst, ok1 := fsys.(afero.Lstater)
	rdr, ok2 := fsys.(afero.LinkReader)
	if !ok1 || !ok2 {
		return name, nil
	}
	for range maxLinks {
		fi, _, err := lst.LstatIfPossible(name)
		if err != nil || fi.Mode()&os.ModeSymlink == 0 {
			return name, nil
		}
		link, err := rdr.ReadlinkIfPossible(name)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(link) {
			link = filepath.Join(filepath.Dir(name), link)
		}
		name = link
	}
	return "", fmt.Errorf("more than %d symlinks", maxLinks)
}

// SyncDir fsyncs a directory so a rename in it survives a crash. File
// systems that cannot open directories for syncing are left alone.
func SyncDir(fsys afero.Fs, dir string) error {
	d, err := fsys.Open(dir)
	if err != nil {
		return fmt.Errorf("syncing directory %s: %w", dir, err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, os.ErrInvalid) && !isUnsupported(err) {
		return fmt.Errorf("syncing directory %s: %w", dir, err)
	}
	return nil
}

// CreateExclusive writes data to name only if name does not exist yet
// (O_EXCL), syncing it. It reports os.ErrExist when name exists.
func CreateExclusive(fsys afero.Fs, name string, data []byte, perm os.FileMode) (err error) {
	if err := fsys.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return fmt.Errorf("creating %s: %w", filepath.Dir(name), err)
	}
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

// isUnsupported reports errors meaning "this file cannot be synced", which
// some file systems return for directories.
func isUnsupported(err error) bool {
	return errors.Is(err, syscall.EINVAL) || errors.Is(err, errors.ErrUnsupported)
}

func randSuffix() string {
	var b [6]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
