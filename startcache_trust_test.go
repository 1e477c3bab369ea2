package wake_test

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake"
	"github.com/wakeproto/wake/cold"
	"github.com/wakeproto/wake/internal/fsrecord"
	"github.com/wakeproto/wake/internal/memgen"
	"github.com/wakeproto/wake/internal/memlock"
	"github.com/wakeproto/wake/internal/startcache"
	"github.com/wakeproto/wake/tiers"
)

// TestStartCacheTrustsSettledColdDocuments proves a start served from the
// start cache costs what changed, not the cold tier's size: its key holds
// the cold tier's directories, not the settled documents in them; and
// that what it no longer stats is still seen: a document added, or one
// renamed over, at once (the directories' stamps), and one rewritten in
// place, its inode and modification time kept, within the starts it
// takes the rotation to come round to it.
func TestStartCacheTrustsSettledColdDocuments(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("inode numbers and change times as Linux gives them")
	}
	t.Parallel()
	const docs = 150
	dir := t.TempDir()
	root := filepath.Join(dir, ".wake")
	fsys := afero.NewOsFs()
	if err := memgen.Generate(fsys, root, memgen.Options{TierScale: 1, ColdFiles: docs}); err != nil {
		t.Fatal(err)
	}
	// Settled by wake's clock (a day and more after the files were
	// written), and by the system's once the racy window has passed: a
	// document changed within it could change again unseen.
	now := time.Now().Add(72 * time.Hour)
	o := wake.Options{FS: fsys, Env: map[string]string{"HOME": filepath.Join(dir, "home")}, Locker: &memlock.Locker{}, Now: func() time.Time { return now }}
	time.Sleep(fsrecord.RacyWindow + 100*time.Millisecond)
	start := func() (string, bool) {
		t.Helper()
		m, err := wake.Open(root, o)
		if err != nil {
			t.Fatal(err)
		}
		built := false
		v := wake.View{Name: "trust", Render: func(st *wake.Start, _ afero.Fs, _ func(wake.Notice)) (string, error) {
			built = true
			return st.Text, nil
		}}
		out, err := m.StartView(context.Background(), wake.BootFiles{}, v)
		if err != nil {
			t.Fatal(err)
		}
		return out, !built
	}
	settle := func() {
		t.Helper()
		for range 3 {
			if _, hit := start(); hit {
				return
			}
		}
		t.Fatal("three starts in a row, none served from the cache")
	}
	settle()
	if n := keyedColdDocuments(t, fsys, root); n > 5 {
		t.Errorf("the start cache's key holds %d of the %d cold documents, want only those not settled", n, docs)
	}
	// The cached starts below find their rotation's documents in the
	// names the recording kept, not by listing the directories.
	if names := mustRead(t, filepath.Join(root, tiers.StateDir, "start-names")); !strings.Contains(string(names), "\ncold/2022/09/note-000044.md\t") {
		t.Fatalf("the recorded start kept no names of cold/:\n%.300s", names)
	}

	// Rewritten in place, its modification time set back: seen within
	// ceil(documents / rotation) starts.
	doc := filepath.Join(root, "cold", "2022", "09", "note-000044.md")
	fi, err := os.Stat(doc)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(doc, os.O_WRONLY|os.O_TRUNC, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("---\nsummary: Rewritten by hand in place\n---\n# Note 44\n")
	f.Close()
	os.Chtimes(doc, fi.ModTime(), fi.ModTime())
	// A miss before any cached start looks at it, the rotation just past
	// it: the start recorded then must not take it from the index.
	// The edit is older than a racy file's window by then.
	time.Sleep(fsrecord.RacyWindow + 100*time.Millisecond)
	if err := cold.SaveRotation(fsys, root, "cold/2022/09/note-000044.md"); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, tiers.MainPath), append(mustRead(t, filepath.Join(root, tiers.MainPath)), "\nEdited by hand.\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	within := (docs+cold.VerifyPerScan()-1)/cold.VerifyPerScan() + 1
	seen := 0
	for i := 1; i <= within && seen == 0; i++ {
		if out, _ := start(); strings.Contains(out, "Rewritten by hand in place") {
			seen = i
		}
	}
	if seen == 0 {
		t.Fatalf("a settled document rewritten in place was not seen in %d starts", within)
	}

	// Rewritten in place with nothing else changed: the starts served
	// from the cache come round to it.
	settle()
	rewriteInPlace(t, filepath.Join(root, "cold", "2022", "09", "note-000068.md"), "Rewritten again by hand")
	time.Sleep(fsrecord.RacyWindow + 100*time.Millisecond)
	seen = 0
	for i := 1; i <= within && seen == 0; i++ {
		if out, _ := start(); strings.Contains(out, "Rewritten again by hand") {
			seen = i
		}
	}
	if seen == 0 {
		t.Fatalf("a settled document rewritten in place, nothing else changed, was not seen in %d starts", within)
	}

	// Added, and renamed over: seen by the next start.
	settle()
	if err := os.WriteFile(filepath.Join(root, "cold", "2020", "01", "added.md"), []byte("---\nsummary: Added by hand\n---\n# Added\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, hit := start(); hit || !strings.Contains(out, "cold/2020/01/ — 14 documents") {
		t.Errorf("the start after a document was added (served from the cache: %v) does not count it", hit)
	}
	settle()
	over := filepath.Join(root, "cold", "2022", "09", "note-000056.md")
	fi, err = os.Stat(over)
	if err != nil {
		t.Fatal(err)
	}
	tmp := filepath.Join(filepath.Dir(over), ".note.tmp")
	if err := os.WriteFile(tmp, []byte("---\nsummary: Renamed over by hand\n---\n# Note 56\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Chtimes(tmp, fi.ModTime(), fi.ModTime())
	if err := os.Rename(tmp, over); err != nil {
		t.Fatal(err)
	}
	if out, hit := start(); hit || !strings.Contains(out, "Renamed over by hand") {
		t.Errorf("the start after a document was renamed over (served from the cache: %v) does not show it", hit)
	}
}

// keyedColdDocuments counts the files of cold/ the start cache's entries
// key.
func keyedColdDocuments(t *testing.T, fsys afero.Fs, root string) int {
	t.Helper()
	c, ok := startcache.Read(fsys, root)
	if !ok || len(c.Entries) == 0 {
		t.Fatal("no start cache")
	}
	n := 0
	for _, e := range c.Entries {
		key, err := fsrecord.ParseKey(e.Key())
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range key {
			if !f.Dir && strings.HasPrefix(f.Path, filepath.Join(root, tiers.ColdDir)+string(filepath.Separator)) {
				n++
			}
		}
	}
	return n
}

func mustRead(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// rewriteInPlace rewrites the document at name in place with summary,
// its modification time put back.
func rewriteInPlace(t *testing.T, name, summary string) {
	t.Helper()
	fi, err := os.Stat(name)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_TRUNC, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("---\nsummary: " + summary + "\n---\n# Rewritten\n")
	f.Close()
	os.Chtimes(name, fi.ModTime(), fi.ModTime())
}
