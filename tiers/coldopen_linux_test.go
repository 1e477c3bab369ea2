package tiers

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/spf13/afero"
)

// TestColdReaderRootSwappedForPipe proves a reader whose root was
// replaced by a named pipe after it was resolved does not wait on the
// pipe when it opens the root for openat2.
func TestColdReaderRootSwappedForPipe(t *testing.T) {
	dir := t.TempDir()
	root := filepath.Join(dir, "root")
	if err := os.MkdirAll(filepath.Join(root, "cold"), 0o755); err != nil {
		t.Fatal(err)
	}
	r, err := NewColdReader(afero.NewOsFs(), root)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if err := os.Rename(root, filepath.Join(dir, "kept")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(root, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	within2s(t, "ReadInto", func() {
		if d, _, _ := r.ReadInto("cold/doc.md", nil); d.Content != nil {
			t.Errorf("read %q", d.Content)
		}
	})
}
