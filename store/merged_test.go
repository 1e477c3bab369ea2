package store

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/tiers"
)

// TestSettleMergeAbandoned: a note the driver left for a merge that was
// then aborted (the files hold none of what it wrote, the ledger none of
// the hand-offs it said arrived) settles nothing: no ledger line, no
// snapshot taken of the decision log, and the note is gone.
func TestSettleMergeAbandoned(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newHandoffStore(t, afero.NewMemMapFs())
	if _, err := WriteSession(ctx, s, hoInput("one")); err != nil {
		t.Fatal(err)
	}
	before := hoRead(t, s, tiers.LedgerPath)
	arrived := []Arrived{{At: s.Now(), Summary: "theirs, never merged"}}
	if err := s.NoteMerged(ctx, tiers.DecisionsPath, []byte("what the driver wrote\n"), arrived); err != nil {
		t.Fatal(err)
	}
	m, err := s.SettleMerge(ctx)
	if err != nil || m != nil {
		t.Fatalf("settled %+v, %v", m, err)
	}
	if hoRead(t, s, tiers.LedgerPath) != before || MergePending(s.FS, s.Root) || len(ReadArrived(s.FS, s.Root)) != 0 {
		t.Fatal("an abandoned merge left a trace")
	}
}

// TestSettleMergeRebuildsViews: a merge that brought a newer session's
// record makes recent/ and the HANDOFF block its views, with one merge
// ledger line naming the record, and the session is named as arrived
// until the next hand-off.
func TestSettleMergeRebuildsViews(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, c := newHandoffStore(t, afero.NewMemMapFs())
	if _, err := WriteSession(ctx, s, hoInput("ours")); err != nil {
		t.Fatal(err)
	}
	// The other branch's hand-off, as the merge brings it: its record and
	// its ledger line.
	c.t = c.t.Add(time.Hour)
	theirs := tiers.Session{At: c.t, Summary: "theirs", NextPriority: "their next"}
	rec := "cold/sessions/" + sessionBase(c.t, "other") + ".md"
	afero.WriteFile(s.FS, s.Path(rec), theirs.Render(), 0o644)
	line := Entry{At: c.t, Op: "handoff", Summary: "theirs", ChangeSummary: "theirs", Paths: []string{rec}, Writer: "other"}
	if err := AppendLedger(s.FS, s.Root, line); err != nil {
		t.Fatal(err)
	}
	ledger, _ := afero.ReadFile(s.FS, s.Path(tiers.LedgerPath))
	if err := s.NoteMerged(ctx, tiers.LedgerPath, ledger, []Arrived{{At: c.t, Summary: "theirs", Record: rec}}); err != nil {
		t.Fatal(err)
	}
	m, err := s.SettleMerge(ctx)
	if err != nil || m == nil {
		t.Fatalf("settled %+v, %v", m, err)
	}
	if hoSummary(t, s, tiers.LatestPath) != "theirs" || hoSummary(t, s, tiers.PreviousPath) != "ours" {
		t.Fatal("recent/ is not the two newest records")
	}
	if !strings.Contains(hoRead(t, s, tiers.MainPath), "session_summary: theirs\n") {
		t.Fatal("the HANDOFF block is not the newest record's")
	}
	if l := hoRead(t, s, tiers.LedgerPath); strings.Count(l, `"op":"merge"`) != 1 || !strings.Contains(l, rec) {
		t.Fatalf("ledger:\n%s", l)
	}
	if a := ReadArrived(s.FS, s.Root); len(a) != 1 || a[0].Summary != "theirs" {
		t.Fatalf("arrived %+v", a)
	}
	if _, err := WriteSession(ctx, s, hoInput("next")); err != nil {
		t.Fatal(err)
	}
	if len(ReadArrived(s.FS, s.Root)) != 0 {
		t.Fatal("the arrived sessions outlived the next hand-off")
	}
}

// TestOlderGitAttributesGainRules: a .gitattributes an older wake wrote
// gains the rules it lacks, keeping every line it had; one the user wrote
// is left as it is.
func TestOlderGitAttributesGainRules(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newHandoffStore(t, afero.NewMemMapFs())
	old := gitAttributesHeader + " (older).\n# a note of the user's\n*.jsonl merge=wake\n/warm/decisions.md merge=wake\n"
	afero.WriteFile(s.FS, s.Path(GitAttributesPath), []byte(old), 0o644)
	changed, err := s.WriteGitAttributes(ctx)
	got := hoRead(t, s, GitAttributesPath)
	if err != nil || !changed || !strings.HasPrefix(got, old) || !strings.Contains(got, "/cold/archive/decisions.md merge=wake\n") || strings.Count(got, "*.jsonl merge=wake") != 1 {
		t.Fatalf("changed %v, %v:\n%s", changed, err, got)
	}
	if changed, err := s.WriteGitAttributes(ctx); err != nil || changed {
		t.Fatalf("a second run changed it again (%v)", err)
	}
	user := "*.md diff=markdown\n"
	afero.WriteFile(s.FS, s.Path(GitAttributesPath), []byte(user), 0o644)
	if changed, err := s.WriteGitAttributes(ctx); err != nil || changed || hoRead(t, s, GitAttributesPath) != user {
		t.Fatal("the user's .gitattributes was changed")
	}
}

// TestSettleMergeNamesReidentified: the merge ledger line names the
// decisions the driver re-identified, old ID and new, and records wake
// writing the new ones; the decision log as merged is wake's own.
func TestSettleMergeNamesReidentified(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newHandoffStore(t, afero.NewMemMapFs())
	merged := []byte("[2026-11-21] DECISION: Use SQLite BECAUSE: one file\nID: d-ac2b\nSTATUS: active\n\n" +
		"[2026-11-21] DECISION: Use TOML BECAUSE: comments\nID: d-13f5\nSTATUS: active\n")
	if err := afero.WriteFile(s.FS, s.Path(tiers.DecisionsPath), merged, 0o644); err != nil {
		t.Fatal(err)
	}
	re := Reidentified{Was: "d-ac2b", Now: "d-13f5", What: "Use TOML"}
	// A rebase notes it once a commit: named once.
	for range 2 {
		if err := s.NoteMerged(ctx, tiers.DecisionsPath, merged, nil, re); err != nil {
			t.Fatal(err)
		}
	}
	if m, err := s.SettleMerge(ctx); err != nil || m == nil {
		t.Fatalf("settled %+v, %v", m, err)
	}
	entries, _, err := ReadLedger(s.FS, s.Root)
	if err != nil {
		t.Fatal(err)
	}
	last := entries[len(entries)-1]
	if last.Op != OpMerge || !strings.Contains(last.ChangeSummary, "d-ac2b (Use TOML) is now d-13f5") ||
		strings.Count(last.ChangeSummary, "d-13f5") != 1 || len(last.DecisionIDs) != 1 || last.DecisionIDs[0] != "d-13f5" {
		t.Errorf("merge line %+v", last)
	}
	if snap := hoRead(t, s, tiers.StateDir+"/"+DecisionsSnapshot); snap != string(merged) {
		t.Errorf("snapshot %q", snap)
	}
}

// TestSettleMergeNamesBothSides: the merge line names the other branch by
// the writers of the ledger lines it brought, and this clone by its own.
func TestSettleMergeNamesBothSides(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, c := newHandoffStore(t, afero.NewMemMapFs())
	own, err := s.WriterID()
	if err != nil {
		t.Fatal(err)
	}
	if err := AppendLedger(s.FS, s.Root, Entry{At: c.t, Op: "decide", ChangeSummary: "ours", Writer: own}); err != nil {
		t.Fatal(err)
	}
	ours := []byte(hoRead(t, s, tiers.LedgerPath))
	line := func(w, what string) string {
		return `{"at":"2026-11-21T10:00:00Z","op":"decide","change_summary":"` + what + `","writer":"` + w + `"}` + "\n"
	}
	theirs := append(slices.Clone(ours), line("zzother", "theirs")+line("bbother", "theirs too")+line(own, "ours, rebased")...)
	if got := ArrivedWriters(ours, theirs); !slices.Equal(got, []string{"bbother", own, "zzother"}) && !slices.Equal(got, []string{"bbother", "zzother", own}) {
		t.Errorf("arrived writers %v", got)
	}
	if err := afero.WriteFile(s.FS, s.Path(tiers.LedgerPath), theirs, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := s.NoteMergedFrom(ctx, tiers.LedgerPath, theirs, nil, ArrivedWriters(ours, theirs)); err != nil {
		t.Fatal(err)
	}
	if m, err := s.SettleMerge(ctx); err != nil || m == nil {
		t.Fatalf("settled %+v, %v", m, err)
	}
	entries, _, _ := ReadLedger(s.FS, s.Root)
	if last := entries[len(entries)-1]; last.Op != OpMerge || last.ChangeSummary != "merged another branch's memory, written by bbother, zzother, into "+own+"'s" {
		t.Errorf("merge line %+v", last)
	}
}
