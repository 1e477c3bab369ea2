package store

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/internal/touchfs"
	"github.com/wakeproto/wake/tiers"
)

const tasksV1 = `---
summary: Current work items
---
# Active tasks

## In progress
- [ ] Round VAT per invoice.

## Done
- [x] Sparkasse importer.
`

// tasksV2 replaces the open task and adds two under In progress.
const tasksV2 = `---
summary: Current work items
---
# Active tasks

## In progress
- [ ] Round VAT per invoice, not per line.
- [ ] Regenerate the October report.
- [ ] Send it to Chen.

## Done
- [x] Sparkasse importer.
`

// scanAll is what a session start does: every tier file, and the cold
// documents as a scan of cold/ finds them (here a walk stands in for the
// cold index, which says nothing of what changed).
func scanAll(t *testing.T, s *Store) []Entry {
	t.Helper()
	return scanWith(t, s, false)
}

// scanWith is scanAll with a stand-in cold index that no one saves, and
// unchanged what its scan says.
func scanWith(t *testing.T, s *Store, unchanged bool) []Entry {
	t.Helper()
	const index = "5eed"
	sc := OpenEditScan(s.FS, s.Root, s.Now())
	if err := sc.LookAtTiers(); err != nil {
		t.Fatal(err)
	}
	found := map[string]Observed{}
	afero.Walk(s.FS, s.Path(tiers.ColdDir), func(p string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() {
			rel, _ := filepath.Rel(s.Root, p)
			rel = filepath.ToSlash(rel)
			found[rel] = Observed{Path: rel, Exists: true, Size: fi.Size(), ModTime: fi.ModTime()}
		}
		return nil
	})
	if err := sc.LookAtCold(ColdLook{Index: index, Unchanged: unchanged, Found: func() map[string]Observed { return found }}); err != nil {
		t.Fatal(err)
	}
	entries, err := sc.Settle()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sc.Commit(); err != nil {
		t.Fatal(err)
	}
	return entries
}

func edits(t *testing.T, s *Store) []Entry {
	t.Helper()
	all, _, err := ReadLedger(s.FS, s.Root)
	if err != nil {
		t.Fatal(err)
	}
	var out []Entry
	for _, e := range all {
		if e.Op == OpEdit {
			out = append(out, e)
		}
	}
	return out
}

func put(t *testing.T, s *Store, rel, data string) {
	t.Helper()
	if err := afero.WriteFile(s.FS, s.Path(rel), []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// baselined is a skeleton root with tasksV1 and a cold note, after the
// first scan took the baseline.
func baselined(t *testing.T) *Store {
	t.Helper()
	s, _ := newHandoffStore(t, afero.NewMemMapFs())
	put(t, s, tiers.TasksPath, tasksV1)
	put(t, s, "cold/notes/vat.md", "# VAT\n\n## Rates\nStandard: 19%.\n")
	if got := scanAll(t, s); len(got) != 0 {
		t.Fatalf("the first scan recorded %v", got)
	}
	return s
}

func summaries(es []Entry) string {
	var b strings.Builder
	for _, e := range es {
		b.WriteString(strings.Join(e.Paths, ",") + ": " + e.ChangeSummary + "\n")
	}
	return b.String()
}

// TestEditScanFirstTakesBaseline proves the first scan of a root records
// nothing, only the baseline, and keeps a signature of each document.
func TestEditScanFirstTakesBaseline(t *testing.T) {
	t.Parallel()
	s := baselined(t)
	if len(edits(t, s)) != 0 {
		t.Fatalf("edits: %v", edits(t, s))
	}
	seen := loadSeen(s.FS, s.Root)
	seen.readCold(s.FS, s.Root)
	for _, p := range []string{tiers.MainPath, tiers.TasksPath, tiers.DecisionsPath, tiers.QuestionsPath, "cold/notes/vat.md"} {
		r, ok := seen.files[p]
		if !ok || !r.Sig {
			t.Errorf("%s: recorded %v %+v", p, ok, r)
			continue
		}
		if _, ok := seen.sig(s.FS, s.Root, r.Hash); !ok {
			t.Errorf("%s: no signature", p)
		}
	}
	if _, ok := seen.files[tiers.LatestPath]; ok {
		t.Error("a missing file was recorded")
	}
}

// TestEditScanHandEdit proves an edit by hand between two scans is one
// entry with its line counts and the heading of its first change, and
// that a scan with nothing changed records nothing more.
func TestEditScanHandEdit(t *testing.T) {
	t.Parallel()
	s := baselined(t)
	put(t, s, tiers.TasksPath, tasksV2)
	got := summaries(scanAll(t, s))
	if want := "warm/active_tasks.md: edited by hand: +3 -1 lines under \"## In progress\"\n"; got != want {
		t.Fatalf("entries:\n%swant:\n%s", got, want)
	}
	if got := summaries(edits(t, s)); got != "warm/active_tasks.md: edited by hand: +3 -1 lines under \"## In progress\"\n" {
		t.Fatalf("ledger:\n%s", got)
	}
	if again := scanAll(t, s); len(again) != 0 {
		t.Fatalf("a scan with no change recorded %v", again)
	}
}

// TestEditScanAddedAndDeleted proves files added and deleted by hand,
// tier and cold alike, are recorded with their line counts.
func TestEditScanAddedAndDeleted(t *testing.T) {
	t.Parallel()
	s := baselined(t)
	put(t, s, "cold/notes/bank.md", "# Bank\n\nFees are 0.3%.\n")
	put(t, s, tiers.LatestPath, "# Session\n")
	s.FS.Remove(s.Path("cold/notes/vat.md"))
	s.FS.Remove(s.Path(tiers.QuestionsPath))
	got := summaries(scanAll(t, s))
	want := "cold/notes/bank.md: added by hand: 3 lines\n" +
		"cold/notes/vat.md: deleted by hand: 4 lines\n" +
		"recent/latest.md: added by hand: 1 line\n" +
		"warm/open_questions.md: deleted by hand: 6 lines\n"
	if got != want {
		t.Fatalf("entries:\n%swant:\n%s", got, want)
	}
}

// TestEditScanSecret proves a secret document's edit names its path and
// nothing of its content, carries its level so that outputs hold it back
// even once it is gone, and that wake keeps no line data of it.
func TestEditScanSecret(t *testing.T) {
	t.Parallel()
	s := baselined(t)
	put(t, s, "cold/keys.md", "---\nsensitivity: secret\n---\n# Keys\nsk-live-1\n")
	scanAll(t, s)
	put(t, s, "cold/keys.md", "---\nsensitivity: secret\n---\n# Keys\nsk-live-1\nsk-test-2\n")
	scanAll(t, s)
	s.FS.Remove(s.Path("cold/keys.md"))
	scanAll(t, s)
	got := ""
	for _, e := range edits(t, s) {
		got += strings.Join(e.Paths, ",") + ": " + e.ChangeSummary + " [" + e.Sensitivity + "]\n"
	}
	want := "cold/keys.md: added by hand (a secret document: no details kept) [secret]\n" +
		"cold/keys.md: edited by hand (a secret document: no details kept) [secret]\n" +
		"cold/keys.md: deleted by hand (a secret document: no details kept) [secret]\n"
	if got != want {
		t.Fatalf("entries:\n%swant:\n%s", got, want)
	}
	afero.Walk(s.FS, s.Path(tiers.StateDir), func(p string, fi os.FileInfo, err error) error {
		if data, _ := afero.ReadFile(s.FS, p); err == nil && !fi.IsDir() && strings.Contains(string(data), "sk-") {
			t.Errorf("%s holds the secret document's text", p)
		}
		return nil
	})
}

// TestEditScanRacy proves a file recorded in the same instant it was
// modified has its content compared at the next scan, even when its size
// and modification time did not move.
func TestEditScanRacy(t *testing.T) {
	t.Parallel()
	s := baselined(t)
	at := s.Now()
	put(t, s, tiers.TasksPath, tasksV2)
	s.FS.Chtimes(s.Path(tiers.TasksPath), at, at)
	scanAll(t, s)
	if r := loadSeen(s.FS, s.Root).files[tiers.TasksPath]; !r.Racy {
		t.Fatalf("record %+v is not racy", r)
	}
	// The same size, the same time: only the content says.
	put(t, s, tiers.TasksPath, strings.Replace(tasksV2, "Chen", "Ming", 1))
	s.FS.Chtimes(s.Path(tiers.TasksPath), at, at)
	if got := summaries(scanAll(t, s)); got != "warm/active_tasks.md: edited by hand: +1 -1 lines under \"## In progress\"\n" {
		t.Fatalf("entries:\n%s", got)
	}
}

// TestEditScanWarmExtras proves a warm file outside the loading phases is
// tracked: found when warm/ changed, then stat'ed like the others.
func TestEditScanWarmExtras(t *testing.T) {
	t.Parallel()
	s := baselined(t)
	put(t, s, "warm/notes.md", "# Notes\n")
	put(t, s, "warm/.notes.md.swp", "x")
	// The in-memory file system leaves a directory's time alone.
	later := time.Now().Add(time.Minute)
	s.FS.Chtimes(s.Path(tiers.WarmDir), later, later)
	if got := summaries(scanAll(t, s)); got != "warm/notes.md: added by hand: 1 line\n" {
		t.Fatalf("entries:\n%s", got)
	}
	put(t, s, "warm/notes.md", "# Notes\n- one\n")
	if got := summaries(scanAll(t, s)); got != "warm/notes.md: edited by hand: +1 -0 lines under \"# Notes\"\n" {
		t.Fatalf("entries:\n%s", got)
	}
}

// TestEditScanLedgerCut proves a ledger cut shorter than wake's record
// (rewritten by hand) attributes no change to wake: each is recorded.
func TestEditScanLedgerCut(t *testing.T) {
	t.Parallel()
	s := baselined(t)
	put(t, s, tiers.TasksPath, tasksV2)
	put(t, s, tiers.LedgerPath, "")
	if got := len(scanAll(t, s)); got != 1 {
		t.Fatalf("%d entries", got)
	}
}

// TestEditScanUnchangedOpensNothing proves a scan with nothing changed
// reads the record of the tier files and nothing else (no document, no
// signature, not the ledger) and writes nothing; when the cold index
// says nothing changed, not even the record of the cold documents.
func TestEditScanUnchangedOpensNothing(t *testing.T) {
	t.Parallel()
	for _, unchanged := range []bool{false, true} {
		s := baselined(t)
		fsys := touchfs.New(s.FS)
		s.FS = fsys
		if got := scanWith(t, s, unchanged); len(got) != 0 {
			t.Fatal(got)
		}
		if len(fsys.Writes()) != 0 {
			t.Errorf("unchanged %v: writes: %q", unchanged, fsys.Writes())
		}
		records := map[string]bool{s.Path(tiers.StateDir + "/" + SeenFile): true, s.Path(tiers.StateDir + "/" + SeenColdFile): !unchanged}
		for name, n := range fsys.Opens() {
			// The walk standing in for the cold index lists cold/'s directories.
			if fi, err := s.FS.Stat(name); !records[name] && (err != nil || !fi.IsDir()) || n > 1 {
				t.Errorf("unchanged %v: opened %s %d times", unchanged, name, n)
			}
		}
	}
}
