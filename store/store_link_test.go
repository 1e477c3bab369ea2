//go:build unix

package store

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wakeproto/wake/internal/memlock"

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
		Now: func() time.Time { return time.Date(2026, 11, 22, 3, 24, 20, 0, time.UTC) }, Locker: &memlock.Locker{}, Writer: "wtest"}
	if _, err := Init(context.Background(), s, skeleton.Params{Project: "proj"}); err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(dir, "outside")
	os.MkdirAll(outside, 0o755)
	return s, outside
}

// Store.Write never writes through a symlink, the file's own or a
// directory's, leading out of the root or not, dangling or not: it refuses
// naming the link, and nothing is written anywhere. Missing directories are
// created. (issue 9: a committed .wake/boot.md -> ~/.bashrc was overwritten.)
func TestStoreWriteRefusesSymlinks(t *testing.T) {
	t.Parallel()
	s, outside := osRoot(t)
	secret := filepath.Join(outside, "notes.md")
	os.WriteFile(secret, []byte("not wake's"), 0o644)
	inside := s.Path("notes/main.md")
	os.MkdirAll(filepath.Dir(inside), 0o755)
	os.WriteFile(inside, []byte("old"), 0o600)
	for _, tc := range []struct{ name, rel, link, target, want string }{
		{"file link out", tiers.MainPath, tiers.MainPath, secret, "main.md is a symlink (to " + secret + ")"},
		{"file link in", tiers.MainPath, tiers.MainPath, "notes/main.md", "main.md is a symlink (to notes/main.md)"},
		{"dangling link", tiers.BootPath, tiers.BootPath, filepath.Join(outside, "ssh", "authorized_keys"), "boot.md is a symlink"},
		{"directory link", tiers.DecisionsPath, "warm", outside, "warm is a symlink (to " + outside + ")"},
		{"state link", tiers.StateDir + "/tokens.json", tiers.StateDir, outside, ".state is a symlink"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			os.RemoveAll(s.Path(tc.link))
			if err := os.Symlink(tc.target, s.Path(tc.link)); err != nil {
				t.Fatal(err)
			}
			defer os.Remove(s.Path(tc.link))
			err := s.Write(tc.rel, []byte("x"))
			var ue *UnsafePathError
			if !errors.As(err, &ue) || !strings.HasPrefix(err.Error(), tc.want) || !strings.HasSuffix(err.Error(), "wake does not write through symlinks") {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
			if ue.Hint() == "" {
				t.Error("no hint")
			}
		})
	}
	if b, _ := os.ReadFile(secret); string(b) != "not wake's" {
		t.Fatal("the outside file was written")
	}
	if b, _ := os.ReadFile(inside); string(b) != "old" {
		t.Fatal("the file a link inside the root leads to was written")
	}
	if names, _ := os.ReadDir(outside); len(names) != 1 {
		t.Fatalf("files appeared outside: %v", names)
	}
	os.MkdirAll(s.Path("warm"), 0o755)
	if err := s.Write("cold/sessions/2026/a.md", []byte("new dirs")); err != nil {
		t.Fatalf("missing directories: %v", err)
	}
	os.WriteFile(s.Path("cold/file"), nil, 0o644)
	if err := s.Write("cold/file/a.md", []byte("x")); err == nil || err.Error() != "cold/file is not a directory; not written" {
		t.Fatalf("a file on the way: %v", err)
	}
}

// A hand-off refuses, before anything moves, a recent/, cold/ or
// cold/sessions/ that is a symlink: rotation renames through none of them.
// (issue 9: with recent -> /outside, latest.md was written outside and the
// outside previous.md moved into the archive; with cold/sessions outside,
// the archived summary left the root.)
func TestHandoffRefusesLinkedDirectories(t *testing.T) {
	t.Parallel()
	for _, dir := range []string{tiers.RecentDir, tiers.ColdDir, tiers.SessionsDir} {
		t.Run(dir, func(t *testing.T) {
			s, outside := osRoot(t)
			for _, sum := range []string{"one", "two"} {
				if _, err := WriteSession(context.Background(), s, faultInput(sum)); err != nil {
					t.Fatal(err)
				}
			}
			before := snapshotDir(t, s.Root)
			moved := filepath.Join(outside, "moved")
			if err := os.Rename(s.Path(dir), moved); err != nil {
				t.Fatal(err)
			}
			os.Symlink(moved, s.Path(dir))
			outBefore := snapshotDir(t, outside)
			_, err := WriteSession(context.Background(), s, faultInput("three"))
			if err == nil || !strings.Contains(err.Error(), "is a symlink") {
				t.Fatalf("hand-off: %v", err)
			}
			if got := snapshotDir(t, outside); !equalMaps(got, outBefore) {
				t.Fatalf("the outside directory changed:\n%v\nwas\n%v", got, outBefore)
			}
			os.Remove(s.Path(dir))
			os.Rename(moved, s.Path(dir))
			if got := snapshotDir(t, s.Root); !equalMaps(got, before) {
				t.Fatalf("the root changed:\n%v\nwas\n%v", got, before)
			}
		})
	}
}

// snapshotDir maps every regular file under dir, outside .state/, to its
// content.
func snapshotDir(t *testing.T, dir string) map[string]string {
	t.Helper()
	m := map[string]string{}
	filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		if fi.IsDir() && fi.Name() == tiers.StateDir {
			return filepath.SkipDir
		}
		if fi.Mode().IsRegular() {
			b, _ := os.ReadFile(p)
			m[p] = string(b)
		}
		return nil
	})
	return m
}

func equalMaps(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// A hand-off and decide refuse a file linked out of the root before they
// write anything, so nothing is left half done or pending.
func TestCommandsRefuseLinksOutOfTheRootFirst(t *testing.T) {
	t.Parallel()
	s, outside := osRoot(t)
	secret := filepath.Join(outside, "decisions.md")
	os.WriteFile(secret, []byte("[2026-11-01] DECISION: Theirs BECAUSE: x\n"), 0o644)
	os.Remove(s.Path(tiers.DecisionsPath))
	os.Symlink(secret, s.Path(tiers.DecisionsPath))
	if _, err := s.Decide(context.Background(), NewDecision{What: "a", Why: "b"}); err == nil || !strings.Contains(err.Error(), "warm/decisions.md is a symlink") {
		t.Fatalf("decide: %v", err)
	}
	if _, err := WriteSession(context.Background(), s, faultInput("linked")); err == nil || !strings.Contains(err.Error(), "is a symlink") {
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

// Recovery acts only on a journal wake could have written: one that came
// with a cloned repository and names an archive outside cold/sessions/ is
// refused, and nothing moves. (A crafted journal would otherwise rename
// recent/previous.md over any file of the user's.)
func TestRecoverRefusesAForeignJournal(t *testing.T) {
	t.Parallel()
	s, outside := osRoot(t)
	for _, sum := range []string{"one", "two"} {
		if _, err := WriteSession(context.Background(), s, faultInput(sum)); err != nil {
			t.Fatal(err)
		}
	}
	victim := filepath.Join(outside, "authorized_keys")
	rel, _ := filepath.Rel(s.Root, victim)
	for _, archive := range []string{filepath.ToSlash(rel), "cold/sessions/../../../outside/authorized_keys", "recent/latest.md", "cold/sessions/.x.md"} {
		dir := s.journalDir("20261122T032420Z-000000000001")
		os.MkdirAll(dir, 0o755)
		j := journal{Version: journalVersion, ID: "20261122T032420Z-000000000001", At: faultAt, Archive: archive, New: "x",
			Entry: Entry{At: faultAt, Op: "handoff", Paths: []string{"recent/latest.md"}, ChangeSummary: "evil"}}
		data, _ := json.Marshal(j)
		os.WriteFile(filepath.Join(dir, journalName), data, 0o644)
		before := snapshotDir(t, s.Root)
		_, err := Recover(context.Background(), s)
		if err == nil || !strings.Contains(err.Error(), "is not a file in cold/sessions; wake does not act on it") {
			t.Fatalf("archive %q: %v", archive, err)
		}
		if _, err := os.Lstat(victim); !os.IsNotExist(err) {
			t.Fatalf("archive %q: a file was moved out of the root: %v", archive, err)
		}
		if got := snapshotDir(t, s.Root); !equalMaps(got, before) {
			t.Fatalf("archive %q: the root changed", archive)
		}
		os.RemoveAll(dir)
	}
}

// A .state/handoff that is a symlink (it can come with a cloned
// repository) is never listed as journals nor removed through: recovery
// refuses it, and everything the link leads to stays. Temporary files are
// not swept through a linked directory either. (Found in review: each
// directory the link led to was "rolled back" with RemoveAll.)
func TestRecoverNeverRemovesThroughLinks(t *testing.T) {
	s, outside := osRoot(t)
	victim := filepath.Join(outside, "otherproject")
	os.MkdirAll(victim, 0o755)
	os.WriteFile(filepath.Join(victim, "f"), []byte("keep"), 0o644)
	old := time.Now().Add(-time.Hour)
	temp := filepath.Join(outside, ".latest.md.tmp-0123456789ab")
	os.WriteFile(temp, []byte("not wake's"), 0o644)
	os.Chtimes(temp, old, old)
	os.MkdirAll(s.Path(tiers.StateDir), 0o755)
	if err := os.Symlink(outside, s.Path(tiers.StateDir+"/"+JournalDir)); err != nil {
		t.Fatal(err)
	}
	os.RemoveAll(s.Path(tiers.RecentDir))
	os.Symlink(outside, s.Path(tiers.RecentDir))
	if _, err := Recover(context.Background(), s); err == nil || !strings.Contains(err.Error(), "is a symlink") {
		t.Fatalf("recovery through a linked journal directory: %v", err)
	}
	if b, err := os.ReadFile(filepath.Join(victim, "f")); err != nil || string(b) != "keep" {
		t.Fatalf("a directory outside the root was removed: %v", err)
	}
	if _, err := os.Stat(temp); err != nil {
		t.Fatalf("a file outside the root was swept: %v", err)
	}
}
