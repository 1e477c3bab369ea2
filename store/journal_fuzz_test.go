package store

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/afero"
)

// FuzzRecoverJournal: whatever a journal under .state/handoff holds (it can
// come with a cloned repository), recovery never moves or writes a file
// outside the memory root, and never panics.
func FuzzRecoverJournal(f *testing.F) {
	for _, s := range []string{
		`{"version":2,"id":"J","archive":"cold/sessions/a.md","new_sha256":"x","ledger":{"at":"2026-11-22T03:24:20Z","op":"handoff","change_summary":"s"}}`,
		`{"version":2,"id":"J","archive":"../../x.md","new_sha256":"x","ledger":{"at":"2026-11-22T03:24:20Z","op":"handoff","change_summary":"s"}}`,
		`{"version":1,"id":"J","archive":"cold/sessions/../../../x.md","new_sha256":"x"}`,
		`{"version":2,"id":"J","decisions":[{"what":"a","why":"b"}],"decisions_before_sha256":"y","new_sha256":"x"}`,
		`{}`, `[`, ``,
	} {
		f.Add([]byte(s))
	}
	fs0 := afero.NewMemMapFs()
	s0, _ := newHandoffStore(f, fs0)
	for _, sum := range []string{"one", "two"} {
		if _, err := WriteSession(context.Background(), s0, faultInput(sum)); err != nil {
			f.Fatal(err)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		fs := afero.NewMemMapFs()
		afero.Walk(fs0, "/", func(p string, fi os.FileInfo, err error) error {
			if err == nil && !fi.IsDir() {
				b, _ := afero.ReadFile(fs0, p)
				afero.WriteFile(fs, p, b, 0o644)
			}
			return nil
		})
		s := storeOn(fs, faultAt)
		afero.WriteFile(fs, filepath.Join(s.journalDir("J"), journalName), data, 0o644)
		Recover(context.Background(), s)
		afero.Walk(fs, "/", func(p string, fi os.FileInfo, err error) error {
			if err == nil && !fi.IsDir() && !strings.HasPrefix(p, hoRoot+"/") {
				t.Fatalf("a file outside the root: %s", p)
			}
			return nil
		})
	})
}
