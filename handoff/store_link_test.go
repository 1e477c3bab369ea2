//go:build unix

package handoff

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/skeleton"
	"github.com/wakeproto/wake/tiers"
)

// osRoot lays out a root with wake init's skeleton on disk, and a directory
// outside it.
func osRoot(t *testing.T) (*Store, string) {
	t.Helper()
	dir := t.TempDir()
	s := &Store{FS: afero.NewOsFs(), Root: filepath.Join(dir, "proj", ".wake"),
		Now: func() time.Time { return time.Date(2026, 11, 22, 3, 24, 20, 0, time.UTC) }, Locker: &MutexLocker{}}
	if _, err := Init(context.Background(), s, skeleton.Params{Project: "proj"}); err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(dir, "outside")
	os.MkdirAll(outside, 0o755)
	return s, outside
}

// Store.Write refuses a path that leads out of the root through a symlink,
// the file's own or a directory's, and writes through a link that stays
// inside.
func TestStoreWriteRefusesLinksOutOfTheRoot(t *testing.T) {
	s, outside := osRoot(t)
	secret := filepath.Join(outside, "notes.md")
	os.WriteFile(secret, []byte("not wake's"), 0o644)
	os.Remove(s.Path(tiers.MainPath))
	os.Symlink(secret, s.Path(tiers.MainPath))
	err := s.Write(tiers.MainPath, []byte("x"))
	if err == nil || !strings.HasPrefix(err.Error(), "main.md: not written: symlink main.md leads outside the memory root") {
		t.Fatalf("file link: %v", err)
	}
	os.RemoveAll(s.Path("warm"))
	os.Symlink(outside, s.Path("warm"))
	if err := s.Write(tiers.DecisionsPath, []byte("x")); err == nil || !strings.Contains(err.Error(), "symlink warm leads outside") {
		t.Fatalf("directory link: %v", err)
	}
	if b, _ := os.ReadFile(secret); string(b) != "not wake's" {
		t.Fatal("the outside file was written")
	}
	if names, _ := os.ReadDir(outside); len(names) != 1 {
		t.Fatalf("files appeared outside: %v", names)
	}

	real := s.Path("notes/main.md")
	os.MkdirAll(filepath.Dir(real), 0o755)
	os.WriteFile(real, []byte("old"), 0o600)
	os.Remove(s.Path(tiers.MainPath))
	os.Symlink("notes/main.md", s.Path(tiers.MainPath))
	if err := s.Write(tiers.MainPath, []byte("new")); err != nil {
		t.Fatalf("link inside: %v", err)
	}
	if fi, _ := os.Lstat(s.Path(tiers.MainPath)); fi.Mode()&os.ModeSymlink == 0 {
		t.Fatal("main.md is no longer a link")
	}
	if b, _ := os.ReadFile(real); string(b) != "new" {
		t.Fatalf("the link's target holds %q", b)
	}
	if err := s.Write("cold/sessions/2026/a.md", []byte("new dirs")); err != nil {
		t.Fatalf("missing directories: %v", err)
	}
}

// A hand-off and decide refuse a file linked out of the root before they
// write anything, so nothing is left half done or pending.
func TestCommandsRefuseLinksOutOfTheRootFirst(t *testing.T) {
	s, outside := osRoot(t)
	secret := filepath.Join(outside, "decisions.md")
	os.WriteFile(secret, []byte("[2026-11-01] DECISION: Theirs BECAUSE: x\n"), 0o644)
	os.Remove(s.Path(tiers.DecisionsPath))
	os.Symlink(secret, s.Path(tiers.DecisionsPath))
	if _, err := s.Decide(context.Background(), NewDecision{What: "a", Why: "b"}); err == nil || !strings.Contains(err.Error(), "not written") {
		t.Fatalf("decide: %v", err)
	}
	if _, err := Handoff(context.Background(), s, faultInput("linked")); err == nil || !strings.Contains(err.Error(), "not written") {
		t.Fatalf("hand-off: %v", err)
	}
	if b, _ := os.ReadFile(secret); !strings.HasPrefix(string(b), "[2026-11-01] DECISION: Theirs") || strings.Count(string(b), "DECISION") != 1 {
		t.Fatalf("the outside log was written:\n%s", b)
	}
	if s.exists(tiers.LatestPath) || s.exists(tiers.StateDir+"/"+DecisionsPending) {
		t.Fatal("a refused command wrote something")
	}
	if ok, _ := Pending(s.FS, s.Root); ok {
		t.Fatal("a refused hand-off left a journal")
	}
}
