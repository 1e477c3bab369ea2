// Package store is the store of the memory's records (DESIGN sections 9
// and 11), and makes every write wake performs: atomic file writes that
// never follow a symlink, the memory root's locks, the append-only ledger,
// the journal that lets a crash at any point be finished, the session
// records with the views rebuilt from them (recent/, main.md's HANDOFF
// block), the decision log and its annotations, compaction into archives,
// the inbox, the record of the files as wake last saw them, and the user's
// trust store. It checks every text it is given before writing it (what
// it refuses there it would otherwise write); the hand-off's own input,
// its fields and documents, is package handoff's.
package store

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"github.com/spf13/afero"
)

// WriteFile replaces name with data atomically: the data goes to a temporary
// file in the same directory, which is synced, closed and renamed over name,
// and the directory is synced. On any error the temporary file is removed
// and name is left as it was. Missing parent directories are created.
//
// An existing file keeps its permission bits; perm applies to a new file
// only. name itself must not be a symlink: wake never writes through one
// (see [UnsafePathError]). Its directory is taken as the caller gives it;
// for a path under a directory whose contents wake does not control, such
// as a memory root or a project, use [WriteFileIn].
func WriteFile(fsys afero.Fs, name string, data []byte, perm os.FileMode) error {
	return writeFileAt(fsys, name, data, perm, false)
}

// WriteFileMode is [WriteFile] that gives the file exactly perm, whether
// or not it exists: for a file wake alone writes whose mode is part of
// what it promises (skill.md, private to its user).
func WriteFileMode(fsys afero.Fs, name string, data []byte, perm os.FileMode) error {
	return writeFileAt(fsys, name, data, perm, true)
}

// writeFileAt creates name's directory as the caller named it, then writes
// name unless it is a symlink.
func writeFileAt(fsys afero.Fs, name string, data []byte, perm os.FileMode, exact bool) error {
	dir := filepath.Dir(name)
	if err := fsys.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("creating %s: %w", dir, err)
	}
	target, err := walkPath(fsys, dir, filepath.Base(name), checkOnly)
	var ue *UnsafePathError
	if errors.As(err, &ue) {
		ue.Rel = "" // the caller's name is the one the user knows
	}
	if err != nil {
		return err
	}
	return writeFile(fsys, target, data, perm, exact, true)
}

// writeFile writes target, whose directory exists and which was checked not
// to be a symlink, atomically, sweeping the temporary files of earlier
// writes of target that a crash left behind.
//
// Unless sync, neither the file nor its directory is synced: readers still
// see the old content or the new, whole, but after a crash the file may
// hold either, nothing, or damaged blocks (see [WriteStateUnsynced]).
func writeFile(fsys afero.Fs, target string, data []byte, perm os.FileMode, exact, sync bool) (err error) {
	name := target
	dir := filepath.Dir(target)
	sweepTemps(fsys, dir, filepath.Base(target), time.Now())
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
	if sync {
		if err = f.Sync(); err != nil {
			return fmt.Errorf("syncing %s: %w", name, err)
		}
	}
	if err = f.Close(); err != nil {
		return fmt.Errorf("closing %s: %w", name, err)
	}
	if err = fsys.Rename(tmp, target); err != nil {
		return fmt.Errorf("renaming %s: %w", name, err)
	}
	if !sync {
		return nil
	}
	return SyncDir(fsys, dir)
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
