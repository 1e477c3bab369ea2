//go:build unix

package store

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/spf13/afero"
)

// An existing file keeps its permission bits, even those the umask would
// clear; perm is for new files.
func TestWriteFileKeepsPermissions(t *testing.T) {
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	dir := t.TempDir()
	fs := afero.NewOsFs()
	for _, mode := range []os.FileMode{0o600, 0o664, 0o755} {
		name := filepath.Join(dir, "f"+mode.String())
		if err := os.WriteFile(name, []byte("old"), 0o600); err != nil {
			t.Fatal(err)
		}
		os.Chmod(name, mode)
		if err := WriteFile(fs, name, []byte("new"), 0o644); err != nil {
			t.Fatal(err)
		}
		if fi, _ := os.Stat(name); fi.Mode().Perm() != mode {
			t.Errorf("a %v file became %v", mode, fi.Mode().Perm())
		}
	}
	// WriteFileMode gives exactly the mode asked for.
	private := filepath.Join(dir, "private")
	os.WriteFile(private, []byte("old"), 0o644)
	if err := WriteFileMode(fs, private, []byte("new"), 0o600); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(private); fi.Mode().Perm() != 0o600 {
		t.Errorf("WriteFileMode left %v, want 0600", fi.Mode().Perm())
	}
	name := filepath.Join(dir, "new")
	if err := WriteFile(fs, name, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(name); fi.Mode().Perm() != 0o600 {
		t.Errorf("a new file is %v, want 0600", fi.Mode().Perm())
	}
}

// WriteFile never writes through a symlink at the name it is given: not a
// user's dotfiles link, not a dangling one (which would create the file it
// names), not a loop. It refuses naming the link and leaves every file and
// link as it was, with no temporary file anywhere. (issue 9: a dangling
// link to ~/.ssh/authorized_keys made the hook create it.)
func TestWriteFileRefusesSymlinks(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	fs := afero.NewOsFs()
	dots, home := filepath.Join(dir, "dotfiles"), filepath.Join(dir, "home", ".claude")
	os.MkdirAll(dots, 0o755)
	os.MkdirAll(home, 0o755)
	target := filepath.Join(dots, "CLAUDE.md")
	os.WriteFile(target, []byte("old"), 0o640)
	link := filepath.Join(home, "CLAUDE.md")
	os.Symlink(target, link)
	dangling := filepath.Join(home, "settings.md")
	os.Symlink(filepath.Join(dots, "ssh", "authorized_keys"), dangling)
	loop := filepath.Join(home, "loop")
	os.Symlink(loop, loop)
	for _, name := range []string{link, dangling, loop} {
		for _, write := range []func(afero.Fs, string, []byte, os.FileMode) error{WriteFile, WriteFileMode} {
			err := write(fs, name, []byte("new"), 0o644)
			if err == nil || !strings.HasPrefix(err.Error(), name+" is a symlink (to ") {
				t.Fatalf("%s: %v", name, err)
			}
			if fi, err := os.Lstat(name); err != nil || fi.Mode()&os.ModeSymlink == 0 {
				t.Fatalf("%s is no longer a symlink: %v", name, err)
			}
		}
	}
	if b, _ := os.ReadFile(target); string(b) != "old" {
		t.Fatalf("target holds %q", b)
	}
	if _, err := os.Stat(filepath.Join(dots, "ssh")); !os.IsNotExist(err) {
		t.Fatalf("the dangling link's directory was created: %v", err)
	}
	for _, d := range []string{dots, home} {
		names, _ := os.ReadDir(d)
		for _, n := range names {
			if strings.Contains(n.Name(), ".tmp-") {
				t.Errorf("temporary file left: %s", filepath.Join(d, n.Name()))
			}
		}
	}
}
