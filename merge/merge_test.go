package merge

import (
	"os/exec"
	"strings"
	"testing"
	"time"
)

// noProse fails a test that reaches git's three-way merge.
func noProse(t *testing.T) ThreeWay {
	return func(base, ours, theirs []byte) ([]byte, bool, error) {
		t.Helper()
		t.Fatalf("prose merge reached")
		return nil, false, nil
	}
}

func opts(t *testing.T, path string) Options {
	return Options{Path: path, Prose: noProse(t), Now: func() time.Time { return time.Date(2026, 11, 28, 10, 0, 0, 0, time.UTC) }}
}

func TestKindOf(t *testing.T) {
	for p, want := range map[string]Kind{
		".wake/ledger.jsonl": Ledger, "ledger.jsonl": Ledger, ".wake/warm/decisions.md": Decisions,
		"x/.wake/warm/inbox.md": Inbox, ".wake/recent/latest.md": View, ".wake/recent/previous.md": View,
		".wake/main.md": Main, ".wake/boot.md": Derived, ".wake/skill.md": Derived,
		".wake/warm/active_tasks.md": Prose, ".wake/wake.toml": Prose, "mywarm/decisions.md": Prose,
		".wake/cold/archive/decisions.md": Decisions, ".wake/cold/archive/inbox.md": Inbox, ".wake/cold/archive/tasks.md": Prose,
	} {
		if got := KindOf(p); got != want {
			t.Errorf("KindOf(%q) = %v, want %v", p, got, want)
		}
	}
}

func TestLedgerUnion(t *testing.T) {
	base := `{"at":"2026-11-28T09:00:00Z","op":"init"}` + "\n"
	ours := base + `{"at":"2026-11-28T09:02:00Z","op":"decide","x":"ours"}` + "\n" + "torn {\n"
	theirs := base + `{"at":"2026-11-28T09:01:00Z","op":"decide","x":"theirs"}` + "\n" + `{"at":"2026-11-28T09:03:00Z","op":"handoff"}`
	got := string(MergeLedger([]byte(base), []byte(ours), []byte(theirs)))
	want := base + `{"at":"2026-11-28T09:01:00Z","op":"decide","x":"theirs"}` + "\n" +
		`{"at":"2026-11-28T09:02:00Z","op":"decide","x":"ours"}` + "\n" + "torn {\n" +
		`{"at":"2026-11-28T09:03:00Z","op":"handoff"}` + "\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	// Nothing new on their side: ours byte for byte.
	if got := MergeLedger([]byte(base), []byte(ours), []byte(base)); string(got) != ours {
		t.Errorf("theirs adding nothing changed ours: %q", got)
	}
	// Twice merged is once merged.
	if again := MergeLedger([]byte(base), []byte(want), []byte(theirs)); string(again) != want {
		t.Errorf("a second merge changed it:\n%s", again)
	}
}

func TestLedgerWriterOrder(t *testing.T) {
	a := `{"at":"2026-11-28T09:00:00Z","writer":"b","op":"x"}` + "\n"
	b := `{"at":"2026-11-28T09:00:00Z","writer":"a","op":"y"}` + "\n"
	got := string(MergeLedger(nil, []byte(a), []byte(b)))
	if got != b+a {
		t.Errorf("same second: want writer a first, got\n%s", got)
	}
}

func TestDerivedTakesOurs(t *testing.T) {
	r, err := File(opts(t, ".wake/skill.md"), []byte("b"), []byte("o"), []byte("t"))
	if err != nil || string(r.Data) != "o" || r.Conflict {
		t.Errorf("got %q %v %v", r.Data, r.Conflict, err)
	}
}

func TestViewNewerSession(t *testing.T) {
	old := "---\nsummary: a\nsession: 2026-11-28T09:00:00Z\n---\n# a\n"
	newer := "---\nsummary: b\nsession: 2026-11-28T09:05:00Z\n---\n# b\n"
	for _, c := range []struct{ ours, theirs, want string }{{old, newer, newer}, {newer, old, newer}, {old, old, old}} {
		r, _ := File(opts(t, ".wake/recent/latest.md"), nil, []byte(c.ours), []byte(c.theirs))
		if string(r.Data) != c.want {
			t.Errorf("ours %q theirs %q: got %q", c.ours, c.theirs, r.Data)
		}
	}
}

// gitMerge is git merge-file, for the tests that reach the prose rule.
func gitMerge(t *testing.T) ThreeWay {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not found")
	}
	return func(base, ours, theirs []byte) ([]byte, bool, error) {
		return testMergeFile(t, base, ours, theirs)
	}
}

func TestMainBlockAndProse(t *testing.T) {
	mainMD := func(purpose, updated, next, goals string) string {
		return "# p\n\n## Purpose\n" + purpose + "\n\n## HANDOFF\nupdated: " + updated + "\nsession_summary: s\nnext_priority: " + next + "\n\n## Goals\n" + goals + "\n"
	}
	base := mainMD("A tool.", "2026-11-28T09:00:00Z", "n0", "- one")
	ours := mainMD("A tool for bakers.", "2026-11-28T09:10:00Z", "n-ours", "- one")
	theirs := mainMD("A tool.", "2026-11-28T09:20:00Z", "n-theirs", "- one\n- two")
	o := opts(t, ".wake/main.md")
	o.Prose = gitMerge(t)
	r, err := File(o, []byte(base), []byte(ours), []byte(theirs))
	if err != nil || r.Conflict {
		t.Fatalf("conflict %v, err %v:\n%s", r.Conflict, err, r.Data)
	}
	want := mainMD("A tool for bakers.", "2026-11-28T09:20:00Z", "n-theirs", "- one\n- two")
	if string(r.Data) != want {
		t.Errorf("got\n%s\nwant\n%s", r.Data, want)
	}
	// Both sides rewrote the purpose: a real conflict, marked.
	theirs2 := mainMD("A tool for cooks.", "2026-11-28T09:20:00Z", "n-theirs", "- one")
	r, err = File(o, []byte(base), []byte(ours), []byte(theirs2))
	if err != nil || !r.Conflict || !strings.Contains(string(r.Data), "<<<<<<<") {
		t.Fatalf("want a marked conflict, got %v %v:\n%s", r.Conflict, err, r.Data)
	}
	if strings.Count(string(r.Data), "## HANDOFF") != 1 || !strings.Contains(string(r.Data), "next_priority: n-theirs") {
		t.Errorf("the HANDOFF block is not the newer one, once:\n%s", r.Data)
	}
}

func TestProseFallback(t *testing.T) {
	o := opts(t, ".wake/warm/active_tasks.md")
	o.Prose = gitMerge(t)
	base := "# Tasks\n\n- [ ] a\n\n- [ ] b\n"
	ours := "# Tasks\n\n- [x] a\n\n- [ ] b\n"
	theirs := "# Tasks\n\n- [ ] a\n\n- [ ] b\n- [ ] c\n"
	r, err := File(o, []byte(base), []byte(ours), []byte(theirs))
	if err != nil || r.Conflict || string(r.Data) != "# Tasks\n\n- [x] a\n\n- [ ] b\n- [ ] c\n" {
		t.Errorf("got %v %v:\n%s", r.Conflict, err, r.Data)
	}
}

// TestMainCRLFAgainstLF: ours in CRLF, theirs in LF with the newer
// hand-off: the newer block, once, and no mark left.
func TestMainCRLFAgainstLF(t *testing.T) {
	lf := "# p\n\n## HANDOFF\nupdated: 2026-11-28T09:00:00Z\nnext_priority: a\n\n## Goals\n- one\n"
	newer := strings.Replace(lf, "09:00:00Z\nnext_priority: a", "09:30:00Z\nnext_priority: b", 1)
	crlf := strings.ReplaceAll(lf, "\n", "\r\n")
	o := opts(t, ".wake/main.md")
	o.Prose = gitMerge(t)
	r, err := File(o, []byte(crlf), []byte(crlf), []byte(newer))
	if err != nil || strings.Contains(string(r.Data), handoffMark) || !strings.Contains(string(r.Data), "next_priority: b") {
		t.Errorf("%v %q", err, r.Data)
	}
}

// TestArchivesOfBothSidesKept: two branches that each compacted append
// their reversed entries to the decisions archive; the merge keeps both,
// with no conflict (an archive's entries are never removed).
func TestArchivesOfBothSidesKept(t *testing.T) {
	base := "# Decisions archive\n"
	ours := base + "\n[2026-11-01] DECISION: A BECAUSE: a\nID: d-aaaa\nSTATUS: reversed\nREVERSED_BY: [2026-11-02] B\n"
	theirs := base + "\n[2026-11-03] DECISION: C BECAUSE: c\nID: d-cccc\nSTATUS: reversed\nREVERSED_BY: [2026-11-04] D\n"
	res, err := File(opts(t, ".wake/cold/archive/decisions.md"), []byte(base), []byte(ours), []byte(theirs))
	if err != nil || res.Conflict {
		t.Fatalf("merge: %v, conflict %v", err, res.Conflict)
	}
	for _, id := range []string{"ID: d-aaaa", "ID: d-cccc"} {
		if !strings.Contains(string(res.Data), id) {
			t.Fatalf("%s lost:\n%s", id, res.Data)
		}
	}
}
