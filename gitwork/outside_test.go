package gitwork

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/spf13/afero"
)

// TestOutside proves Outside says a directory is outside any repository
// only when no .git is above it by its name, no symlink leads there (git
// walks up the real path, whose parents differ), and nothing in git's
// environment names a repository.
func TestOutside(t *testing.T) {
	dir := t.TempDir()
	repoSub := filepath.Join(dir, "repo", "sub")
	plain := filepath.Join(dir, "plain", "p")
	for _, d := range []string{repoSub, filepath.Join(dir, "repo", ".git"), plain, filepath.Join(dir, "other")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	link := filepath.Join(dir, "other", "link")
	if err := os.Symlink(repoSub, link); err != nil {
		t.Skip("no symlinks here")
	}
	fsys := afero.NewOsFs()
	if !(Git{}).Outside(fsys, plain) && !hasGitAbove(dir) {
		t.Error("a directory with no .git above it is not outside")
	}
	for name, d := range map[string]string{"in the repository": repoSub, "through a symlink into it": link, "relative": "sub"} {
		if (Git{}).Outside(fsys, d) {
			t.Errorf("%s (%s): outside", name, d)
		}
	}
	if (Git{Env: map[string]string{"GIT_DIR": filepath.Join(dir, "repo", ".git")}}).Outside(fsys, plain) {
		t.Error("GIT_DIR set: outside")
	}
}

// hasGitAbove reports whether a .git is above dir (a temporary directory
// inside someone's repository).
func hasGitAbove(dir string) bool {
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, ".git")); err == nil {
			return true
		}
		if filepath.Dir(d) == d {
			return false
		}
	}
}
