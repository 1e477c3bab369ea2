//go:build unix

package tiers

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/spf13/afero"
)

// TestOpenInputNeverWaits: on the real file system, a named pipe with no
// writer, a link to one, a device and a directory are refused as opened,
// without a stat before (the check a pipe swapped in after it would
// pass), within a bounded time; a regular file reads as usual.
func TestOpenInputNeverWaits(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	link := filepath.Join(dir, "link")
	os.Symlink(fifo, link)
	file := filepath.Join(dir, "file")
	os.WriteFile(file, []byte("text"), 0o644)
	for _, c := range []struct{ name, why string }{
		{fifo, "not a regular file (named pipe)"},
		{link, "not a regular file (named pipe)"},
		{"/dev/zero", "not a regular file (character device)"},
		{dir, "is a directory"},
		{file, ""},
	} {
		done := make(chan struct{})
		go func() {
			defer close(done)
			// openOS is the real file system's open alone, with no stat
			// before it.
			f, _, why, err := openOS(c.name)
			if err != nil || why != c.why || (f == nil) != (c.why != "") {
				t.Errorf("openOS(%s) = %v %q %v, want %q", c.name, f != nil, why, err, c.why)
			}
			if f != nil {
				data, err := afero.ReadAll(f)
				f.Close()
				if string(data) != "text" || err != nil {
					t.Errorf("read %q %v", data, err)
				}
			}
			_, _, err = OpenInput(afero.NewOsFs(), c.name)
			var nr *NotRegularError
			if c.why != "" && (!errors.As(err, &nr) || err.Error() != c.name+": "+c.why) {
				t.Errorf("OpenInput(%s): %v", c.name, err)
			}
		}()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatalf("opening %s did not return", c.name)
		}
	}
}

// TestOpenInputMemMapFs: on another file system the check is a stat
// before the open and one after, and the open is read-only (MemMapFs
// takes other flags for a write).
func TestOpenInputMemMapFs(t *testing.T) {
	t.Parallel()
	fsys := afero.NewMemMapFs()
	afero.WriteFile(fsys, "/r/a.jsonl", []byte("x"), 0o644)
	fsys.MkdirAll("/r/d", 0o755)
	before, _ := fsys.Stat("/r/a.jsonl")
	f, fi, err := OpenInput(fsys, "/r/a.jsonl")
	if err != nil || fi.Size() != 1 {
		t.Fatalf("OpenInput: %v", err)
	}
	f.Close()
	if after, _ := fsys.Stat("/r/a.jsonl"); !after.ModTime().Equal(before.ModTime()) {
		t.Errorf("the open changed the file's time")
	}
	var nr *NotRegularError
	if _, _, err := OpenInput(fsys, "/r/d"); !errors.As(err, &nr) || nr.Why != "is a directory" {
		t.Errorf("directory: %v", err)
	}
	if _, _, err := OpenInput(fsys, "/r/none"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing: %v", err)
	}
}
