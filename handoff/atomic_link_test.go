//go:build unix

package handoff

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

// Writing to a symlink replaces the file it leads to, through a chain of
// relative and absolute links, and leaves every link a link; the temporary
// file sits beside the target, so nothing is left beside the link.
func TestWriteFileWritesThroughSymlinks(t *testing.T) {
	dir := t.TempDir()
	fs := afero.NewOsFs()
	dots, home := filepath.Join(dir, "dotfiles"), filepath.Join(dir, "home", ".claude")
	os.MkdirAll(dots, 0o755)
	os.MkdirAll(home, 0o755)
	target := filepath.Join(dots, "CLAUDE.md")
	os.WriteFile(target, []byte("old"), 0o640)
	mid := filepath.Join(dots, "current.md")
	os.Symlink("CLAUDE.md", mid) // relative
	link := filepath.Join(home, "CLAUDE.md")
	os.Symlink(mid, link) // absolute
	if err := WriteFile(fs, link, []byte("new"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, l := range []string{link, mid} {
		if fi, err := os.Lstat(l); err != nil || fi.Mode()&os.ModeSymlink == 0 {
			t.Fatalf("%s is no longer a symlink: %v", l, err)
		}
	}
	if b, _ := os.ReadFile(target); string(b) != "new" {
		t.Fatalf("target holds %q", b)
	}
	if fi, _ := os.Stat(target); fi.Mode().Perm() != 0o640 {
		t.Errorf("target became %v", fi.Mode().Perm())
	}
	for _, d := range []string{dots, home} {
		names, _ := os.ReadDir(d)
		for _, n := range names {
			if strings.Contains(n.Name(), ".tmp-") {
				t.Errorf("temporary file left: %s", filepath.Join(d, n.Name()))
			}
		}
	}
	// A dangling link creates the file it names.
	dangling := filepath.Join(home, "settings.md")
	os.Symlink(filepath.Join(dots, "settings.md"), dangling)
	if err := WriteFile(fs, dangling, []byte("s"), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(dots, "settings.md")); string(b) != "s" {
		t.Fatalf("dangling link target holds %q", b)
	}
	// A loop is an error, not a hang.
	loop := filepath.Join(dir, "loop")
	os.Symlink(loop, loop)
	if err := WriteFile(fs, loop, []byte("x"), 0o644); err == nil || !strings.Contains(err.Error(), "symlinks") {
		t.Fatalf("loop: %v", err)
	}
}
