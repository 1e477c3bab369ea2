package tiers

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/afero"
)

// ErrNoRoot is returned by [FindRoot] when no memory root can be found.
var ErrNoRoot = errors.New("no memory root found")

// rootMarkers are the entries of which a directory named as a memory root
// must have at least one: `wake init` makes all of them.
var rootMarkers = []string{MainPath, ConfigPath, RecentDir + "/", WarmDir + "/", ColdDir + "/", LedgerPath, StateDir + "/"}

// NotRootError is returned by [FindRoot] for a directory named by --root or
// $WAKE_ROOT that exists but does not look like a memory root, so that
// wake does not lay out .state/ in an arbitrary directory.
type NotRootError struct {
	Source string // "--root" or "$WAKE_ROOT"
	Dir    string // as given
}

func (e *NotRootError) Error() string {
	return fmt.Sprintf("%s %s: %s is not a memory root (it has none of %s)", e.Source, e.Dir, e.Dir, strings.Join(rootMarkers, ", "))
}

// Hint is what the user can do about it.
func (e *NotRootError) Hint() string {
	return fmt.Sprintf("run 'wake init %s' to make it one, or name the directory that holds main.md", e.Dir)
}

// FindRoot locates the memory root: flagRoot if set, else envRoot
// ($WAKE_ROOT), else the nearest .wake directory walking up from cwd. In
// a linked git worktree (`git worktree add`) that has no .wake of its
// own, or whose wake.toml sets [git] worktrees = "shared", it is the main
// checkout's (see [Worktree]); a worktree's own copy of a committed .wake
// is its memory otherwise. An
// explicitly named root must exist, be a directory and hold at least one
// of a root's entries (main.md, wake.toml, recent/, warm/, cold/,
// ledger.jsonl, .state/). A root whose wake.toml leads out of it or is not
// a regular file is refused too (see [CheckConfigFile]). The result is
// absolute and clean.
func FindRoot(fs afero.Fs, flagRoot, envRoot, cwd string) (string, error) {
	root, err := locateRoot(fs, flagRoot, envRoot, cwd)
	if err != nil {
		return "", err
	}
	if err := CheckConfigFile(fs, root); err != nil {
		return "", err
	}
	return root, nil
}

func locateRoot(fs afero.Fs, flagRoot, envRoot, cwd string) (string, error) {
	for _, named := range []struct{ src, dir string }{{"--root", flagRoot}, {"$WAKE_ROOT", envRoot}} {
		if named.dir == "" {
			continue
		}
		dir := absFrom(cwd, named.dir)
		fi, err := fs.Stat(dir)
		if err != nil {
			if errors.Is(err, os.ErrNotExist) {
				return "", fmt.Errorf("%s %s: %w", named.src, named.dir, ErrNoRoot)
			}
			return "", fmt.Errorf("%s %s: %w", named.src, named.dir, err)
		}
		if !fi.IsDir() {
			return "", fmt.Errorf("%s %s: not a directory", named.src, named.dir)
		}
		if !hasMarker(fs, dir) {
			return "", &NotRootError{Source: named.src, Dir: named.dir}
		}
		return dir, nil
	}
	dir := filepath.Clean(cwd)
	var wt *Worktree // the git work tree cwd lies in, once met
	for {
		if wt == nil {
			if w, ok := worktreeAt(fs, dir); ok {
				wt = &w
			}
		}
		cand := filepath.Join(dir, DefaultDirName)
		if fi, err := fs.Stat(cand); err == nil && fi.IsDir() {
			if err := checkFoundLink(fs, dir, cand); err != nil {
				return "", err
			}
			// A linked worktree's own copy of a committed .wake/ is its
			// memory, unless the setting shares the main checkout's.
			if wt != nil && wt.Linked && wt.Main != "" && dir == wt.Top && worktreesSetting(fs, cand) == WorktreesShared {
				if main, ok := mainRoot(fs, *wt); ok {
					return main, nil
				}
			}
			return cand, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			// A linked worktree outside the repository, whose .wake/ is not
			// committed: the main checkout's memory.
			if wt != nil && wt.Linked {
				if main, ok := mainRoot(fs, *wt); ok {
					return main, nil
				}
			}
			return "", ErrNoRoot
		}
		dir = parent
	}
}

// mainRoot is the memory root of a linked worktree's main checkout, when
// it has one.
func mainRoot(fs afero.Fs, wt Worktree) (string, bool) {
	if wt.Main == "" {
		return "", false
	}
	cand := filepath.Join(wt.Main, DefaultDirName)
	if fi, err := fs.Stat(cand); err != nil || !fi.IsDir() || checkFoundLink(fs, wt.Main, cand) != nil {
		return "", false
	}
	return cand, true
}

// LinkedRootError is a .wake found by walking up that is a symlink leading
// out of the directory holding it: a cloned repository could otherwise aim
// wake at any directory of the user's, and wake writes in its memory root.
type LinkedRootError struct {
	Link, Target string
}

func (e *LinkedRootError) Error() string {
	return fmt.Sprintf("%s is a symlink to %s, outside the directory that holds it; not used as the memory root", e.Link, e.Target)
}

// Hint is what the user can do about it.
func (e *LinkedRootError) Hint() string {
	return fmt.Sprintf("if that directory is your memory, name it: --root %s (or $WAKE_ROOT); if the link came with a cloned repository, remove it", e.Target)
}

// CheckRootLink refuses dir, a memory root wake was not told of by name,
// when it is a symlink leading out of the directory that holds it: see
// [LinkedRootError].
func CheckRootLink(fs afero.Fs, dir string) error {
	return checkFoundLink(fs, filepath.Dir(dir), dir)
}

// checkFoundLink refuses a found .wake that is a symlink leading out of
// dir, the directory it was found in. A link within dir is the user's own
// arrangement and is followed.
func checkFoundLink(fs afero.Fs, dir, cand string) error {
	l, ok := fs.(afero.Lstater)
	if !ok {
		return nil
	}
	fi, _, err := l.LstatIfPossible(cand)
	if err != nil || fi.Mode()&os.ModeSymlink == 0 {
		return nil
	}
	target, err := realPath(fs, cand, false)
	if err != nil {
		return fmt.Errorf("resolving %s: %w", cand, err)
	}
	realDir, err := realPath(fs, dir, false)
	if err != nil {
		return fmt.Errorf("resolving %s: %w", dir, err)
	}
	if within(realDir, target) {
		return nil
	}
	return &LinkedRootError{Link: cand, Target: target}
}

// hasMarker reports whether dir holds any of a memory root's entries. A
// symlink counts as present, dangling or not: it is the user's entry.
func hasMarker(fs afero.Fs, dir string) bool {
	for _, m := range rootMarkers {
		name := filepath.Join(dir, filepath.FromSlash(strings.TrimSuffix(m, "/")))
		var err error
		if l, ok := fs.(afero.Lstater); ok {
			_, _, err = l.LstatIfPossible(name)
		} else {
			_, err = fs.Stat(name)
		}
		if err == nil {
			return true
		}
	}
	return false
}

// CheckConfigFile refuses a wake.toml that wake must not read: a symlink
// leading out of the root (its settings would come from a file the root
// does not hold) or anything but a regular file (a FIFO would block the
// read for ever). A missing wake.toml is fine: the defaults apply.
func CheckConfigFile(fs afero.Fs, root string) error {
	reason, err := Inside(fs, root, ConfigPath)
	if err == nil && reason == "" {
		var fi os.FileInfo
		if fi, err = fs.Stat(filepath.Join(root, ConfigPath)); err == nil {
			reason = NotRegular(fi)
		}
	}
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil
	case err != nil:
		return fmt.Errorf("%s: not read: %s", ConfigPath, Cause(err))
	case reason != "":
		return fmt.Errorf("%s: not read: %s", ConfigPath, reason)
	}
	return nil
}

func absFrom(cwd, p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(cwd, p)
}
