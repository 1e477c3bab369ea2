package claudecases

import (
	"errors"
	"io/fs"
	"testing"

	"github.com/spf13/afero"
)

// AssertRestored checks that settings.json is src again, or for "no file",
// that neither it nor the .claude/ install made is left.
func AssertRestored(t testing.TB, fsys afero.Fs, name, src, after string) {
	t.Helper()
	got, err := afero.ReadFile(fsys, "/p/.claude/settings.json")
	if name == "no file" {
		if _, derr := fsys.Stat("/p/.claude"); !errors.Is(err, fs.ErrNotExist) || !errors.Is(derr, fs.ErrNotExist) {
			t.Fatalf("uninstall left %q (%v), .claude/: %v\nafter install:\n%s", got, err, derr, after)
		}
		return
	}
	if err != nil || string(got) != src {
		t.Fatalf("uninstall did not give back the original (%v):\n got %q\nwant %q\nafter install:\n%s", err, got, src, after)
	}
}
