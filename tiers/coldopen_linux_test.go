package tiers

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/spf13/afero"
)

// swapping keeps swapping the directory cold/a of root for a symlink to
// outside and back, each by one rename, until the test ends.
func swapping(t *testing.T, root, outside string) {
	a := filepath.Join(root, "cold", "a")
	kept, link := filepath.Join(root, "cold", "real"), filepath.Join(root, "cold", "link")
	if err := os.Symlink(outside, link); err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		for {
			select {
			case <-stop:
				return
			default:
			}
			os.Rename(a, kept)
			os.Rename(link, a)
			os.Rename(a, link)
			os.Rename(kept, a)
		}
	})
	t.Cleanup(func() { close(stop); wg.Wait() })
}

// osReader is a cold reader of root on the operating system's file
// system, closed when the test ends.
func osReader(t *testing.T, root string) *ColdReader {
	t.Helper()
	r, err := NewColdReader(afero.NewOsFs(), root)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

// swapTree is a root whose cold/a/doc.md reads "# inside", and an
// outside directory whose doc.md is a secret.
func swapTree(t *testing.T) (root, outside string) {
	dir := t.TempDir()
	root, outside = filepath.Join(dir, "root"), filepath.Join(dir, "outside")
	for _, d := range []string{filepath.Join(root, "cold", "a"), outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(root, "cold", "a", "doc.md"), []byte("# inside\n"), 0o644)
	os.WriteFile(filepath.Join(outside, "doc.md"), []byte("# TOP SECRET\n"), 0o644)
	return root, outside
}

// TestOpenBeneathWhileSwapped proves a document opened beneath the root
// in one openat2 is never one outside it, however often a directory on
// its path is swapped for a symlink leading out meanwhile.
func TestOpenBeneathWhileSwapped(t *testing.T) {
	root, outside := swapTree(t)
	r := osReader(t, root)
	dir := r.realDir()
	if dir == nil {
		t.Fatal("the real root is not open")
	}
	swapping(t, root, outside)
	opened := 0
	for range 20000 {
		f, _, _, res := openBeneath(dir, "cold/a/doc.md", "doc.md")
		if res != fastOpened {
			continue
		}
		opened++
		data, _ := io.ReadAll(f)
		f.Close()
		if strings.Contains(string(data), "SECRET") {
			t.Fatal("opened a document outside the root")
		}
	}
	if opened == 0 {
		t.Skip("openat2 opened nothing here")
	}
}

// TestColdReaderWhileSwapped proves the reader as a whole never reads a
// document outside the root while a directory on its path is swapped for
// a symlink leading out and back: the fallback an openat2 that met the
// link takes opens what the check resolved, beneath the root, not the
// whole path (which read the secret within a few thousand reads).
func TestColdReaderWhileSwapped(t *testing.T) {
	root, outside := swapTree(t)
	r := osReader(t, root)
	swapping(t, root, outside)
	for range 50000 {
		d, _, _ := r.ReadInto("cold/a/doc.md", nil)
		if strings.Contains(string(d.Content), "SECRET") {
			t.Fatal("read a document outside the root")
		}
	}
}

// TestColdReaderRootSwappedForPipe proves a reader whose root was
// replaced by a named pipe after it was resolved does not wait on the
// pipe when it opens the root for openat2.
func TestColdReaderRootSwappedForPipe(t *testing.T) {
	dir := t.TempDir()
	root := filepath.Join(dir, "root")
	if err := os.MkdirAll(filepath.Join(root, "cold"), 0o755); err != nil {
		t.Fatal(err)
	}
	r := osReader(t, root)
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

// TestColdReaderAfterClose proves a read after Close takes the common
// way: the document is read, not skipped as changed.
func TestColdReaderAfterClose(t *testing.T) {
	root, _ := swapTree(t)
	r := osReader(t, root)
	if d, _, err := r.ReadInto("cold/a/doc.md", nil); err != nil || string(d.Content) != "# inside\n" {
		t.Fatalf("before Close: %q (skipped %q), %v", d.Content, d.Skipped, err)
	}
	r.Close()
	if d, _, err := r.ReadInto("cold/a/doc.md", nil); err != nil || string(d.Content) != "# inside\n" {
		t.Errorf("after Close: %q (skipped %q), %v", d.Content, d.Skipped, err)
	}
}
