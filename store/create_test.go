//go:build unix

package store

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/spf13/afero"
)

// linkFaultFs is a faultFs over the disk that links as the OsFs does,
// counting the link among its operations.
type linkFaultFs struct{ *faultFs }

func (f linkFaultFs) LinkIfPossible(oldname, newname string) error {
	if err := f.hit("link", oldname+" -> "+newname); err != nil {
		return err
	}
	return os.Link(oldname, newname)
}

// A crash at any point of CreateExclusiveIn leaves no file or the whole
// file, never an empty or partial one. (issue 23: a kill during wake init
// left main.md, wake.toml and warm files of 0 bytes, created with O_EXCL
// and then written in place.)
func TestCreateExclusiveCrashLeavesNothingOrWhole(t *testing.T) {
	t.Parallel()
	data := bytes.Repeat([]byte("skeleton\n"), 100)
	for n := 1; ; n++ {
		dir := t.TempDir()
		os.Mkdir(filepath.Join(dir, "warm"), 0o755)
		f := &faultFs{Fs: afero.NewOsFs(), failAt: n, crash: true}
		err := CreateExclusiveIn(linkFaultFs{f}, dir, "warm/decisions.md", data, 0o644)
		got, rerr := os.ReadFile(filepath.Join(dir, "warm", "decisions.md"))
		switch {
		case errors.Is(rerr, os.ErrNotExist):
			if err == nil {
				t.Fatalf("crash at op %d: no error, no file", n)
			}
		case !bytes.Equal(got, data):
			t.Fatalf("crash at op %d (%v): the file holds %d bytes of %d", n, f.ops, len(got), len(data))
		}
		if n > len(f.ops) {
			if err != nil {
				t.Fatalf("no fault left, yet %v", err)
			}
			return
		}
	}
}

// Where the file system can link, the file is linked: a name taken
// meanwhile is never replaced, and no temporary file stays.
func TestCreateExclusiveLinksIntoPlace(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	fs := afero.NewOsFs()
	if err := CreateExclusiveIn(fs, dir, "a/x.md", []byte("first"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := CreateExclusiveIn(fs, dir, "a/x.md", []byte("second"), 0o600); !errors.Is(err, os.ErrExist) {
		t.Fatalf("got %v, want ErrExist", err)
	}
	// The name taken between the check and the link.
	name := filepath.Join(dir, "a", "x.md")
	tmp, err := writeTemp(fs, name, tempName(name), []byte("third"), 0o600)
	if err != nil {
		t.Fatal(err)
	}
	if err := placeNew(fs, tmp, filepath.Join(dir, "a", "x.md"), []byte("third"), 0o600); !errors.Is(err, os.ErrExist) {
		t.Fatalf("got %v, want ErrExist", err)
	}
	os.Remove(tmp)
	if b, _ := os.ReadFile(filepath.Join(dir, "a", "x.md")); string(b) != "first" {
		t.Fatalf("replaced: %q", b)
	}
	if fi, _ := os.Stat(filepath.Join(dir, "a", "x.md")); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v", fi.Mode().Perm())
	}
	if names, _ := os.ReadDir(filepath.Join(dir, "a")); len(names) != 1 {
		t.Fatalf("left: %v", names)
	}
}
