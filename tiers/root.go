package tiers

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/afero"
)

// ErrNoRoot is returned by [FindRoot] when no memory root can be found.
var ErrNoRoot = errors.New("no memory root found")

// FindRoot locates the memory root: flagRoot if set, else envRoot
// ($WAKE_ROOT), else the nearest .wake directory walking up from cwd. An
// explicitly named root must exist and be a directory. The result is absolute
// and clean.
func FindRoot(fs afero.Fs, flagRoot, envRoot, cwd string) (string, error) {
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
		return dir, nil
	}
	dir := filepath.Clean(cwd)
	for {
		cand := filepath.Join(dir, DefaultDirName)
		if fi, err := fs.Stat(cand); err == nil && fi.IsDir() {
			return cand, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", ErrNoRoot
		}
		dir = parent
	}
}

func absFrom(cwd, p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(cwd, p)
}
