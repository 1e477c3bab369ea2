package store

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/tiers"
)

func TestFinishedItems(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, in, kept string
		moved          []string
	}{
		{"nothing finished", "# Tasks\n\n- [ ] one\n- [ ] two\n", "# Tasks\n\n- [ ] one\n- [ ] two\n", nil},
		{"checked with continuation", "- [ ] a\n- [x] b\n  more b\n    and more\n- [ ] c\n", "- [ ] a\n- [ ] c\n", []string{"- [x] b\n  more b\n    and more\n"}},
		{"capital X, star, number", "* [X] a\n1. [x] b\n", "", []string{"* [X] a\n", "1. [x] b\n"}},
		{"done heading", "# T\n\n- [ ] a\n\n## Done\n\nsome words\n- b\n- c\n\n## Later\n\n- d\n", "# T\n\n- [ ] a\n\n## Done\n\nsome words\n\n## Later\n\n- d\n", []string{"- b\n", "- c\n"}},
		{"completed heading with words", "## Completed (May)\n- a\n", "## Completed (May)\n", []string{"- a\n"}},
		{"donation is no done", "## Donations\n- a\n", "## Donations\n- a\n", nil},
		{"fenced example stays", "```\n- [x] example\n```\n", "```\n- [x] example\n```\n", nil},
		{"front matter stays", "---\nsummary: s\n---\n- [x] a", "---\nsummary: s\n---\n", []string{"- [x] a\n"}},
		{"crlf kept", "- [x] a\r\n  b\r\n- [ ] c\r\n", "- [ ] c\r\n", []string{"- [x] a\r\n  b\r\n"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			kept, moved := finishedItems(tc.in, doneTaskHeads)
			if kept != tc.kept || strings.Join(moved, "|") != strings.Join(tc.moved, "|") {
				t.Fatalf("kept %q moved %q, want %q %q", kept, moved, tc.kept, tc.moved)
			}
		})
	}
}

const compactLog = `[2026-11-01] DECISION: Use YAML BECAUSE: readable
ID: d-a001
STATUS: reversed
REVERSED_BY: [2026-11-02] Use TOML BECAUSE: YAML broke

[2026-11-02] DECISION: Use TOML BECAUSE: YAML broke
ID: d-a002
STATUS: active

[2026-11-03] DECISION: Keep Go BECAUSE: the team knows it
ID: d-a003
STATUS: contested
OBJECTION: [2026-11-04] Rust is faster
PROPOSED: port the hot loop

[2026-11-04] DECISION: Use SQLite BECAUSE: one file
ID: d-a004
STATUS: reversed
REVERSED_BY: [2026-11-05] Use files BECAUSE: diffs
`

const compactTasks = "# Tasks\n\n- [ ] open\n- [x] finished\n  with a note\n"

// compactRoot lays out a root whose log and snapshot agree, as wake left
// them, with reversed entries and a done task.
func compactRoot(t *testing.T) afero.Fs {
	t.Helper()
	fs := afero.NewMemMapFs()
	s, _ := newHandoffStore(t, fs)
	if err := s.WriteDecisionsLocked([]byte(compactLog)); err != nil {
		t.Fatal(err)
	}
	if err := s.Write(tiers.TasksPath, []byte(compactTasks)); err != nil {
		t.Fatal(err)
	}
	for _, text := range []string{"Open one", "Closed one", "Open two"} {
		if _, err := s.Remember(context.Background(), NewReminder{Text: text}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.CloseReminder(context.Background(), 2, "shipped"); err != nil {
		t.Fatal(err)
	}
	return fs
}

func TestCompactKeepsEveryByte(t *testing.T) {
	t.Parallel()
	s := storeOn(compactRoot(t), faultAt)
	c, err := s.Compact(context.Background(), false)
	if err != nil {
		t.Fatal(err)
	}
	if c.Total() != 4 || len(c.Files) != 3 || strings.Join(c.Files[0].IDs, ",") != "d-a001,d-a004" {
		t.Fatalf("compaction %+v", c)
	}
	log, archive := hoRead(t, s, tiers.DecisionsPath), hoRead(t, s, DecisionsArchive)
	for _, e := range tiers.ParseDecisions([]byte(compactLog)).Entries {
		in := log
		if e.Status == tiers.StatusReversed {
			in = archive
		}
		if !strings.Contains(in, e.Raw) {
			t.Errorf("entry %s is not whole in the right file", e.ID)
		}
	}
	if strings.Contains(log, "d-a001") || !strings.HasPrefix(archive, "---\nsummary: ") {
		t.Fatalf("log:\n%s\narchive:\n%s", log, archive)
	}
	if got := hoRead(t, s, TasksArchive); !strings.HasSuffix(got, "---\n- [x] finished\n  with a note\n") {
		t.Fatalf("tasks archive:\n%s", got)
	}
	if got := hoRead(t, s, tiers.TasksPath); got != "# Tasks\n\n- [ ] open\n" {
		t.Fatalf("tasks:\n%s", got)
	}
	if n := countOps(t, s, OpCompact); n != 1 {
		t.Fatalf("%d compact ledger lines", n)
	}
	inbox, inArchive := hoRead(t, s, tiers.InboxPath), hoRead(t, s, InboxArchive)
	if strings.Contains(inbox, "Closed one") || !strings.Contains(inbox, "Open two") ||
		!strings.Contains(inArchive, "\n\n## 2 · ") || !strings.Contains(inArchive, "- done: shipped at ") {
		t.Fatalf("inbox:\n%s\narchive:\n%s", inbox, inArchive)
	}
	// The numbers of archived reminders stay taken, and closing one again
	// names the archive.
	if r, err := s.Remember(context.Background(), NewReminder{Text: "Fourth"}); err != nil || r.N != 4 {
		t.Fatalf("remember after compaction: %+v %v", r, err)
	}
	if _, err := s.CloseReminder(context.Background(), 2, "again"); err == nil || !strings.Contains(err.Error(), "archived in "+InboxArchive) {
		t.Fatalf("closing an archived reminder: %v", err)
	}
	checkCompacted(t, s)
	// Idempotent: nothing more to move, nothing written, no ledger line.
	if c, err := s.Compact(context.Background(), false); err != nil || !c.Empty() || countOps(t, s, OpCompact) != 1 {
		t.Fatalf("second compaction: %+v %v", c, err)
	}
}

// checkCompacted checks that wake sees the compaction as its own write and
// still finds archived entries by ID.
func checkCompacted(t *testing.T, s *Store) {
	t.Helper()
	var f decisionFile
	err := s.decisionsLocked(context.Background(), func() (err error) { f, err = s.readDecisionsLocked(); return err })
	if err != nil || len(f.edits) > 0 || len(f.gone) > 0 {
		t.Fatalf("after compaction: edits %+v, gone %+v, %v", f.edits, f.gone, err)
	}
	var ae *ArchivedError
	if _, err := s.Reverse(context.Background(), DecisionRef{ID: "d-a001"}, NewDecision{What: "x", Why: "y"}); !errors.As(err, &ae) ||
		!strings.Contains(err.Error(), "already reversed, archived in "+DecisionsArchive) {
		t.Fatalf("reversing an archived decision: %v", err)
	}
	if _, err := s.Uphold(context.Background(), num(2), "it stays"); err != nil {
		t.Fatalf("upholding #2, the contested entry in the compacted log: %v", err)
	}
}

func TestCompactDryRunWritesNothing(t *testing.T) {
	t.Parallel()
	s := storeOn(compactRoot(t), faultAt)
	c, err := s.Compact(context.Background(), true)
	if err != nil || c.Total() != 4 {
		t.Fatalf("%+v %v", c, err)
	}
	if hoRead(t, s, tiers.DecisionsPath) != compactLog || s.exists(DecisionsArchive) || countOps(t, s, OpCompact) != 0 {
		t.Fatal("a dry run wrote")
	}
}

func TestCompactRefusesHandEdits(t *testing.T) {
	t.Parallel()
	s := storeOn(compactRoot(t), faultAt)
	edited := strings.Replace(compactLog, "Use TOML BECAUSE: YAML broke\nID", "Use JSON BECAUSE: YAML broke\nID", 1)
	if err := afero.WriteFile(s.FS, s.Path(tiers.DecisionsPath), []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	var he *HandEditError
	if _, err := s.Compact(context.Background(), false); !errors.As(err, &he) {
		t.Fatalf("err = %v, want a HandEditError", err)
	}
	if s.exists(DecisionsArchive) {
		t.Fatal("the archive was written")
	}
}

// TestCompactSurvivesEveryFault fails each mutating operation of a
// compaction in turn, once as an error and once as a crash. After recovery
// and a second compaction the root must be what one clean compaction
// leaves: nothing lost, nothing archived twice, no hand edit reported.
func TestCompactSurvivesEveryFault(t *testing.T) {
	t.Parallel()
	fs := compactRoot(t)
	count := &faultFs{Fs: fs}
	if _, err := storeOn(count, faultAt).Compact(context.Background(), false); err != nil {
		t.Fatal(err)
	}
	files := []string{tiers.DecisionsPath, DecisionsArchive, tiers.TasksPath, TasksArchive, tiers.InboxPath, InboxArchive}
	want := map[string]string{}
	for _, rel := range files {
		want[rel] = hoRead(t, storeOn(fs, faultAt), rel)
	}
	for _, crash := range []bool{false, true} {
		for n := 1; n <= count.n; n++ {
			name := map[bool]string{false: "error", true: "crash"}[crash]
			t.Run(name+"/"+count.ops[n-1], func(t *testing.T) {
				fs := compactRoot(t)
				_, err := storeOn(&faultFs{Fs: fs, failAt: n, crash: crash}, faultAt).Compact(context.Background(), false)
				if err != nil && !errors.Is(err, errFault) {
					t.Fatalf("err = %v, want the injected fault", err)
				}
				s := storeOn(fs, faultAt)
				if _, err := Recover(context.Background(), s); err != nil {
					t.Fatalf("recovery: %v", err)
				}
				if _, err := s.Compact(context.Background(), false); err != nil {
					t.Fatalf("compacting again: %v", err)
				}
				for _, rel := range files {
					if got := hoRead(t, s, rel); got != want[rel] {
						t.Fatalf("%s:\n%s\nwant:\n%s", rel, got, want[rel])
					}
				}
				if n := countOps(t, s, OpCompact); n < 1 || n > 2 {
					t.Fatalf("%d compact ledger lines", n)
				}
				checkCompacted(t, s)
			})
		}
	}
}

// An archive takes the sensitivity of the file its entries come from, so
// that what the policy held back in warm/ stays held back in cold/.
func TestCompactArchiveKeepsSensitivity(t *testing.T) {
	t.Parallel()
	s := storeOn(compactRoot(t), faultAt)
	tasks := "---\nsummary: tasks\nsensitivity: confidential\n---\n- [x] secret plan\n"
	if err := s.Write(tiers.TasksPath, []byte(tasks)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Compact(context.Background(), false); err != nil {
		t.Fatal(err)
	}
	if got := hoRead(t, s, TasksArchive); !strings.HasPrefix(got, "---\nsummary: done tasks") || !strings.Contains(got, "\nsensitivity: confidential\n---\n- [x] secret plan\n") {
		t.Fatalf("archive:\n%s", got)
	}
	if got := hoRead(t, s, DecisionsArchive); strings.Contains(got, "sensitivity:") {
		t.Fatalf("the decisions archive took a level its log does not have:\n%s", got)
	}
}

// TestCompactFilesMovesOnlyThoseNamed proves a compaction of some warm
// files leaves what is finished in the others where it is.
func TestCompactFilesMovesOnlyThoseNamed(t *testing.T) {
	t.Parallel()
	s := storeOn(compactRoot(t), faultAt)
	c, err := s.CompactFiles(context.Background(), false, []string{tiers.DecisionsPath})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Files) != 1 || c.Files[0].Path != tiers.DecisionsPath || c.Total() != 2 {
		t.Fatalf("compaction %+v", c)
	}
	if got := hoRead(t, s, tiers.TasksPath); got != compactTasks {
		t.Fatalf("tasks moved:\n%s", got)
	}
	if !strings.Contains(hoRead(t, s, tiers.InboxPath), "Closed one") {
		t.Fatal("the closed reminder moved")
	}
	if c, err := s.CompactFiles(context.Background(), false, []string{tiers.DecisionsPath}); err != nil || !c.Empty() || countOps(t, s, OpCompact) != 1 {
		t.Fatalf("second compaction: %+v %v", c, err)
	}
	if c, err := s.CompactFiles(context.Background(), false, []string{}); err != nil || !c.Empty() {
		t.Fatalf("naming no file: %+v %v", c, err)
	}
}
