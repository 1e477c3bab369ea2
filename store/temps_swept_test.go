package store

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/tiers"
)

// TestSessionsSweptSkipsUnchangedListing: once a listing of cold/sessions/
// found no temporary file, the sweep leaves it unlisted while nothing in
// it was added, removed or renamed; a temporary file a crash leaves there
// changes it, and is swept once stale.
func TestSessionsSweptSkipsUnchangedListing(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no change time")
	}
	t.Parallel()
	root := t.TempDir()
	fsys := afero.NewOsFs()
	sessions := filepath.Join(root, filepath.FromSlash(tiers.SessionsDir))
	for _, d := range []string{sessions, filepath.Join(root, tiers.StateDir)} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(sessions, "2026-11-22T03-24-20Z-k3f9qa.md"), []byte("# S\n"), 0o644)
	now := time.Now()
	stamp, ok := sessionsStamp(fsys, sessions)
	if !ok {
		t.Skip("this file system gives no change time")
	}
	removeStaleTemps(fsys, root, now)
	if !sessionsSwept(fsys, root, stamp) {
		t.Fatal("a listing with no temporary file was not recorded")
	}
	counted := &openCounter{Fs: fsys, name: sessions}
	removeStaleTemps(counted, root, now)
	if counted.n != 0 {
		t.Fatalf("an unchanged cold/sessions/ was listed %d times", counted.n)
	}
	// A crash leaves a temporary file: the directory changed, so the next
	// sweep lists it, and removes it once stale.
	temp := filepath.Join(sessions, ".2026-11-23T03-24-20Z-k3f9qa.md.tmp-0123456789ab")
	os.WriteFile(temp, []byte("half"), 0o644)
	old := now.Add(-time.Hour)
	os.Chtimes(temp, old, old)
	if st, _ := sessionsStamp(fsys, sessions); sessionsSwept(fsys, root, st) {
		t.Fatal("a directory with a new name reads as swept")
	}
	if got := removeStaleTemps(fsys, root, now); len(got) != 1 || got[0] != temp {
		t.Fatalf("removed %v, want the stale temporary file", got)
	}
	// Its removal changed the directory again: listed once more, then
	// recorded.
	removeStaleTemps(fsys, root, now)
	st, _ := sessionsStamp(fsys, sessions)
	if !sessionsSwept(fsys, root, st) {
		t.Fatal("the listing after the sweep was not recorded")
	}
	// A young temporary file (a write in progress) is never recorded as
	// swept.
	young := filepath.Join(sessions, ".2026-11-24T03-24-20Z-k3f9qa.md.tmp-ba9876543210")
	os.WriteFile(young, []byte("half"), 0o644)
	removeStaleTemps(fsys, root, now)
	st, _ = sessionsStamp(fsys, sessions)
	if sessionsSwept(fsys, root, st) {
		t.Fatal("a directory holding a temporary file was recorded as swept")
	}
}

// openCounter counts the opens of name.
type openCounter struct {
	afero.Fs
	name string
	n    int
}

func (c *openCounter) Open(name string) (afero.File, error) {
	if filepath.Clean(name) == c.name {
		c.n++
	}
	return c.Fs.Open(name)
}

// vanishingFS removes a file and then reports it was not there: the
// temporary a cache's writer, holding no lock, renamed away between a
// hand-off's listing and its removal.
type vanishingFS struct{ afero.Fs }

func (v vanishingFS) Remove(name string) error {
	v.Fs.Remove(name)
	return os.ErrNotExist
}

// TestRemoveTempsRaceWithCacheWriter (seen in CI: 20 concurrent hand-offs,
// one failing with "removing .ledger-runs.tsv.tmp-…: no such file"): a
// temporary gone by the time the hand-off removes it is no error.
func TestRemoveTempsRaceWithCacheWriter(t *testing.T) {
	t.Parallel()
	fsys := afero.NewMemMapFs()
	afero.WriteFile(fsys, "/r/"+tiers.StateDir+"/."+LedgerRunsFile+".tmp-0123456789ab", []byte("x"), 0o644)
	s := &Store{FS: vanishingFS{fsys}, Root: "/r"}
	if err := s.removeTemps(); err != nil {
		t.Fatalf("removeTemps: %v", err)
	}
}
