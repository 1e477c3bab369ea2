package store

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/tiers"
)

// UnsafePathError is a write wake refused before doing it because the path
// does not lead to a plain file under the directory it was written in: a
// symlink stands on the way (wake never writes through one, so a link
// committed to a repository cannot aim a write at the user's files), or a
// component that must be a directory is something else.
type UnsafePathError struct {
	Path   string // the component at fault
	Rel    string // Path relative to the directory written in (the memory root); "" to show Path
	Target string // where a symlink leads, as it is written; "" otherwise
	Reason string // what is wrong with it, when it is not a symlink
}

func (e *UnsafePathError) Error() string {
	name := e.Path
	if e.Rel != "" {
		name = e.Rel
	}
	if e.Reason != "" {
		return fmt.Sprintf("%s %s; not written", name, e.Reason)
	}
	return fmt.Sprintf("%s is a symlink (to %s); wake does not write through symlinks", name, e.Target)
}

// Hint says what the user can do about it.
func (e *UnsafePathError) Hint() string {
	if e.Reason != "" {
		return "move it aside; wake writes only plain files in plain directories"
	}
	return "if the link is yours, replace it with the file or directory it leads to (it was left as it is); if it came with a cloned repository, remove it"
}

// CheckWritable reports whether wake may write rel under base: every
// component of rel that exists must be a real directory (the last one a
// regular file), none of them a symlink. Missing components are fine: wake
// would create them. base itself is trusted as it is: the memory root as
// found, or a directory the user configured.
func CheckWritable(fsys afero.Fs, base, rel string) error {
	_, err := walkPath(fsys, base, rel, checkOnly)
	return err
}

// CheckDir is [CheckWritable] for a directory: every component of rel
// that exists must be a real directory, none a symlink. A directory wake
// lists or removes things in (its journal, its temporary files) is checked
// so, lest a link aim the removal elsewhere.
func CheckDir(fsys afero.Fs, base, rel string) error {
	_, err := walkPath(fsys, base, rel, checkDir)
	return err
}

// MkdirAllIn creates the directory rel under base and its missing parents,
// refusing as [CheckWritable] does when a component is a symlink or not a
// directory. It returns the directory's path.
func MkdirAllIn(fsys afero.Fs, base, rel string) (string, error) {
	return walkPath(fsys, base, rel, mkdirAll)
}

// WriteFileIn is [WriteFile] of rel under base, where no component of rel
// may be a symlink: see [CheckWritable]. Missing directories are created.
func WriteFileIn(fsys afero.Fs, base, rel string, data []byte, perm os.FileMode) error {
	name, err := walkPath(fsys, base, rel, mkdirParents)
	if err != nil {
		return err
	}
	return writeFile(fsys, name, data, perm, false, true)
}

// How [walkPath] treats missing directories.
type walkMode int

const (
	checkOnly    walkMode = iota // create nothing
	checkDir                     // create nothing: rel is a directory
	mkdirParents                 // create the missing parents of a file
	mkdirAll                     // create every missing component: rel is a directory
)

// walkPath checks rel under base component by component, without following
// a symlink, creating the missing directories the mode asks for. It
// returns base joined with rel.
func walkPath(fsys afero.Fs, base, rel string, mode walkMode) (string, error) {
	rel = filepath.Clean(filepath.FromSlash(rel))
	full := filepath.Join(base, rel)
	if !filepath.IsLocal(rel) {
		return "", fmt.Errorf("%s: not a path inside %s; not written", rel, base)
	}
	if rel == "." {
		return full, nil
	}
	parts := strings.Split(filepath.ToSlash(rel), "/")
	cur := filepath.Clean(base)
	for i, part := range parts {
		cur = filepath.Join(cur, part)
		last := i == len(parts)-1
		fi, err := lstat(fsys, cur)
		switch {
		case errors.Is(err, fs.ErrNotExist) && (mode == checkOnly || mode == checkDir || last && mode == mkdirParents):
			return full, nil
		case errors.Is(err, fs.ErrNotExist):
			if err := fsys.Mkdir(cur, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
				return "", fmt.Errorf("creating %s: %w", cur, err)
			}
			if fi, err = lstat(fsys, cur); err != nil {
				return "", fmt.Errorf("creating %s: %w", cur, err)
			}
		case err != nil:
			return "", fmt.Errorf("checking %s: %w", cur, err)
		}
		if err := checkComponent(fsys, cur, fi, last && mode != mkdirAll && mode != checkDir); err != nil {
			err.Rel = strings.Join(parts[:i+1], "/")
			return "", err
		}
	}
	return full, nil
}

// checkComponent refuses a symlink anywhere, a directory component that is
// not a directory, and a final component that is not a regular file.
func checkComponent(fsys afero.Fs, p string, fi os.FileInfo, last bool) *UnsafePathError {
	if fi.Mode()&os.ModeSymlink != 0 {
		target := "?"
		if r, ok := fsys.(afero.LinkReader); ok {
			if t, err := r.ReadlinkIfPossible(p); err == nil {
				target = t
			}
		}
		return &UnsafePathError{Path: p, Target: target}
	}
	if !last {
		if !fi.IsDir() {
			return &UnsafePathError{Path: p, Reason: "is not a directory"}
		}
		return nil
	}
	if why := tiers.NotRegular(fi); why != "" {
		return &UnsafePathError{Path: p, Reason: why}
	}
	return nil
}

// WriteState atomically replaces the file name in the root's state
// directory, refusing symlinks as [WriteFileIn] does.
func WriteState(fsys afero.Fs, root, name string, data []byte) error {
	return WriteFileIn(fsys, root, tiers.StateDir+"/"+name, data, 0o644)
}

// WriteStateUnsynced replaces the file name in the root's state directory
// as [WriteState] does (through a temporary file renamed over it, so that
// a reader sees the old content or the new, whole; refusing symlinks), but
// syncs neither the file nor the directory. It is for a cache whose loss
// costs only work done again, and whose reader verifies it whole and takes
// a file it cannot verify for missing: after a crash the file may hold its
// old content, the new, nothing, or damaged blocks.
func WriteStateUnsynced(fsys afero.Fs, root, name string, data []byte) error {
	full, err := walkPath(fsys, root, tiers.StateDir+"/"+name, mkdirParents)
	if err != nil {
		return err
	}
	return writeFile(fsys, full, data, 0o644, false, false)
}
