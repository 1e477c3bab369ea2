package gitwork

import (
	"context"
	"errors"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/spf13/afero"
)

// InWorkTree reports whether dir is inside a git work tree.
func (g Git) InWorkTree(ctx context.Context, dir string) bool {
	out, err := g.Run(ctx, dir, "rev-parse", "--is-inside-work-tree")
	return err == nil && strings.TrimSpace(string(out)) == "true"
}

// Outside reports whether git run in dir would surely find no
// repository: nothing in its environment names one, and neither dir nor
// any directory above it holds a .git (git is run with
// safe.bareRepository=explicit, so a bare repository is never found by
// looking). A start of git costs some 5 ms of CPU to be told so, and a
// memory outside git would ask at each start. Any doubt (a relative
// dir, a .git that cannot be looked at, a symlink on the way up, a file
// system that cannot tell one) is left to git.
func (g Git) Outside(fsys afero.Fs, dir string) bool {
	if !filepath.IsAbs(dir) {
		return false
	}
	for _, k := range []string{"GIT_DIR", "GIT_WORK_TREE", "GIT_COMMON_DIR"} {
		if g.Env[k] != "" {
			return false
		}
	}
	lst, _ := fsys.(afero.Lstater)
	for dir = filepath.Clean(dir); ; {
		if _, err := fsys.Stat(filepath.Join(dir, ".git")); !errors.Is(err, fs.ErrNotExist) {
			return false
		}
		// git walks up the directory's real path: one reached through a
		// symlink has other parents than its name's.
		if lst == nil {
			return false
		}
		if fi, _, err := lst.LstatIfPossible(dir); err != nil || fi.Mode()&fs.ModeSymlink != 0 {
			return false
		}
		up := filepath.Dir(dir)
		if up == dir {
			return true
		}
		dir = up
	}
}
