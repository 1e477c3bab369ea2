//go:build unix

package tiers

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/spf13/afero"
)

// within2s fails the test, rather than hanging it, when fn blocks.
func within2s(t *testing.T, what string, fn func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); fn() }()
	select {
	case <-done:
	case <-time.After(2 * time.Second):
		t.Fatalf("%s blocked on a named pipe", what)
	}
}

// TestNamedPipes proves a FIFO at a tier path, in cold/ or linked from
// cold/ is skipped with a reason, never opened: opening one blocks until a
// writer comes.
func TestNamedPipes(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	for _, d := range []string{"warm", "cold"} {
		os.MkdirAll(filepath.Join(root, d), 0o755)
	}
	for _, p := range []string{"warm/open_questions.md", "cold/pipe.md", "fifo"} {
		if err := syscall.Mkfifo(filepath.Join(root, p), 0o644); err != nil {
			t.Skipf("mkfifo: %v", err)
		}
	}
	os.Symlink("../fifo", filepath.Join(root, "cold", "linked.md"))
	os.WriteFile(filepath.Join(root, "cold", "ok.md"), []byte("ok\n"), 0o644)
	fs := afero.NewOsFs()

	within2s(t, "ReadDoc", func() {
		d, err := ReadDoc(fs, root, "warm/open_questions.md")
		if err != nil || d.Readable() || d.Skipped != "not a regular file (named pipe)" {
			t.Errorf("ReadDoc: %+v, %v", d, err)
		}
	})
	within2s(t, "ReadHead", func() {
		if _, ok, err := ReadHead(fs, root, "cold/linked.md"); ok || err != nil {
			t.Errorf("ReadHead: %v, %v", ok, err)
		}
	})
	within2s(t, "ScanCold", func() {
		files, warns, err := ScanCold(fs, root)
		if err != nil || len(files) != 1 || files[0].Path != "cold/ok.md" {
			t.Errorf("ScanCold: %v, %v", files, err)
		}
		all := strings.Join(warns, "\n")
		for _, want := range []string{
			"cold/linked.md: skipped: symlink to a file that is not a regular file (named pipe)",
			"cold/pipe.md: skipped: not a regular file (named pipe)",
		} {
			if !strings.Contains(all, want) {
				t.Errorf("no warning %q in:\n%s", want, all)
			}
		}
	})
}

// TestWakeTOMLFIFO proves a named pipe at wake.toml is refused at once
// instead of blocking the read of the configuration.
func TestWakeTOMLFIFO(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(root, "wake.toml"), 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	within2s(t, "FindRoot", func() {
		if _, err := FindRoot(afero.NewOsFs(), root, "", "/"); err == nil || err.Error() != "wake.toml: not read: not a regular file (named pipe)" {
			t.Errorf("FindRoot: %v", err)
		}
	})
}
