package store

import (
	"context"
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/wakeproto/wake/internal/memlock"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/skeleton"
	"github.com/wakeproto/wake/tiers"
)

const hoRoot = "/proj/.wake"

// hoClock is a clock the test moves by hand.
type hoClock struct{ t time.Time }

func (c *hoClock) now() time.Time { return c.t }

// newHandoffStore lays out a root with `wake init`'s skeleton on fs.
func newHandoffStore(t testing.TB, fs afero.Fs) (*Store, *hoClock) {
	t.Helper()
	c := &hoClock{time.Date(2026, 11, 22, 3, 24, 20, 0, time.UTC)}
	s := &Store{FS: fs, Root: hoRoot, Now: c.now, Locker: &memlock.Locker{}, Writer: "wtest"}
	if _, err := Init(context.Background(), s, skeleton.Params{Project: "proj"}); err != nil {
		t.Fatal(err)
	}
	return s, c
}

func hoInput(summary string) SessionWrite {
	return SessionWrite{Session: tiers.Session{
		Summary: summary, NextPriority: "next after " + summary, OpenRisk: "risk", EmotionalRegister: "calm",
		Happened: tiers.List{Items: []string{"did " + summary}},
	}}
}

func hoRead(t *testing.T, s *Store, rel string) string {
	t.Helper()
	data, err := afero.ReadFile(s.FS, s.Path(rel))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func hoSummary(t *testing.T, s *Store, rel string) string {
	t.Helper()
	sess, err := tiers.ParseSession([]byte(hoRead(t, s, rel)))
	if err != nil {
		t.Fatalf("%s: %v", rel, err)
	}
	return sess.Summary
}

func TestFirstHandoff(t *testing.T) {
	t.Parallel()
	s, _ := newHandoffStore(t, afero.NewMemMapFs())
	before := hoRead(t, s, tiers.MainPath)
	in := hoInput("first")
	in.Decisions = []NewDecision{{What: "Use TOML", Why: "YAML indentation broke parsing"}}
	res, err := WriteSession(context.Background(), s, in)
	if err != nil {
		t.Fatal(err)
	}
	if res.Demoted || res.Archived != "" || res.BlockAppended || res.Decisions != 1 {
		t.Fatalf("result %+v", res)
	}
	latest := hoRead(t, s, tiers.LatestPath)
	// The record is written whole, once, in cold/sessions/; latest.md is
	// its copy.
	if res.Record != "cold/sessions/2026-11-22T03-24-20Z-wtest.md" || hoRead(t, s, res.Record) != latest || res.LatestRecord != "" {
		t.Fatalf("record %q, latest record %q", res.Record, res.LatestRecord)
	}
	// The summary is the session's record: the HANDOFF fields too.
	if latest != string(res.Summary) || !strings.Contains(latest, "session: 2026-11-22T03:24:20Z\nnext_priority: next after first\nopen_risk: risk\nemotional_register: calm\nmemory_type: session\n---\n# Session 2026-11-22\n") ||
		!strings.Contains(latest, "## Decisions made\n- Use TOML because YAML indentation broke parsing\n") {
		t.Fatalf("latest.md:\n%s", latest)
	}
	if s.exists(tiers.PreviousPath) {
		t.Fatal("a first hand-off made recent/previous.md")
	}
	main := hoRead(t, s, tiers.MainPath)
	wantBlock := "## HANDOFF\nupdated: 2026-11-22T03:24:20Z\nsession_summary: first\nnext_priority: next after first\nopen_risk: risk\nemotional_register: calm\n"
	// The block is replaced where it stands, right after Identity, as the
	// skeleton places it; every other byte stays.
	head := before[:strings.Index(before, "## HANDOFF")]
	tail := before[strings.Index(before, "\n## Purpose"):]
	if main != head+wantBlock+tail {
		t.Fatalf("main.md:\n%s", main)
	}
	if log := hoRead(t, s, tiers.DecisionsPath); !strings.HasSuffix(log, "[2026-11-22] DECISION: Use TOML BECAUSE: YAML indentation broke parsing\nID: d-7c71f2-wtest\nSTATUS: active\n") {
		t.Fatalf("decisions.md:\n%s", log)
	}
	entries, bad, _ := ReadLedger(s.FS, s.Root)
	last := entries[len(entries)-1]
	if len(bad) != 0 || last.Op != "handoff" || last.ChangeSummary != "first" || last.Summary != "first" ||
		strings.Join(last.Paths, " ") != "recent/latest.md cold/sessions/2026-11-22T03-24-20Z-wtest.md main.md warm/decisions.md" || strings.Join(last.DecisionIDs, " ") != "d-7c71f2-wtest" {
		t.Fatalf("ledger %+v, bad %v", entries, bad)
	}
	if ok, _ := Pending(s.FS, s.Root); ok {
		t.Fatal("the journal outlived the hand-off")
	}
}

func TestThreeHandoffsRotate(t *testing.T) {
	t.Parallel()
	s, c := newHandoffStore(t, afero.NewMemMapFs())
	for i, name := range []string{"one", "two", "three"} {
		c.t = c.t.Add(time.Duration(i) * time.Hour)
		if _, err := WriteSession(context.Background(), s, hoInput(name)); err != nil {
			t.Fatal(err)
		}
	}
	if hoSummary(t, s, tiers.LatestPath) != "three" || hoSummary(t, s, tiers.PreviousPath) != "two" ||
		hoSummary(t, s, "cold/sessions/2026-11-22T03-24-20Z-wtest.md") != "one" {
		t.Fatal("rotation went wrong")
	}
	if got := tiers.ParseMain([]byte(hoRead(t, s, tiers.MainPath))).Handoff.Get(tiers.KeyNextPriority); got != "next after three" {
		t.Fatalf("next_priority %q", got)
	}
}

func TestSameSecondRecordsGetSuffixes(t *testing.T) {
	t.Parallel()
	s, _ := newHandoffStore(t, afero.NewMemMapFs())
	var records []string
	for i := range 6 {
		res, err := WriteSession(context.Background(), s, hoInput(string(rune('a'+i))))
		if err != nil {
			t.Fatal(err)
		}
		// recent/ holds copies of records: nothing is archived, nothing
		// copied again.
		if res.Archived != "" || res.LatestRecord != "" {
			t.Fatalf("hand-off %d: archived %q, copied latest to %q", i, res.Archived, res.LatestRecord)
		}
		records = append(records, res.Record)
	}
	want := "cold/sessions/2026-11-22T03-24-20Z-wtest.md cold/sessions/2026-11-22T03-24-20Z-wtest-2.md cold/sessions/2026-11-22T03-24-20Z-wtest-3.md cold/sessions/2026-11-22T03-24-20Z-wtest-4.md cold/sessions/2026-11-22T03-24-20Z-wtest-5.md cold/sessions/2026-11-22T03-24-20Z-wtest-6.md"
	if strings.Join(records, " ") != want {
		t.Fatalf("records %v", records)
	}
	for i, p := range strings.Fields(want) {
		if got := hoSummary(t, s, p); got != string(rune('a'+i)) {
			t.Fatalf("%s holds %q", p, got)
		}
	}
	if hoSummary(t, s, tiers.LatestPath) != "f" || hoSummary(t, s, tiers.PreviousPath) != "e" {
		t.Fatal("recent/ is not the two newest records")
	}
}

func TestPreviousWithoutSessionUsesModTime(t *testing.T) {
	t.Parallel()
	fs := afero.NewMemMapFs()
	s, _ := newHandoffStore(t, fs)
	hand := "# my notes, no front matter\n"
	afero.WriteFile(fs, s.Path(tiers.PreviousPath), []byte(hand), 0o644)
	mtime := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	fs.Chtimes(s.Path(tiers.PreviousPath), mtime, mtime)
	afero.WriteFile(fs, s.Path(tiers.LatestPath), []byte("old latest"), 0o644)
	res, err := WriteSession(context.Background(), s, hoInput("x"))
	if err != nil {
		t.Fatal(err)
	}
	if res.Archived != "cold/sessions/2025-01-02T03-04-05Z-wtest.md" || !res.ArchivedByModTime || !res.Demoted {
		t.Fatalf("result %+v", res)
	}
	if hoRead(t, s, res.Archived) != hand || hoRead(t, s, tiers.PreviousPath) != "old latest" {
		t.Fatal("contents moved wrongly")
	}
}

func TestMainWithoutBlockGetsOneAppended(t *testing.T) {
	t.Parallel()
	fs := afero.NewMemMapFs()
	s, _ := newHandoffStore(t, fs)
	// No identity to put it after: at the end.
	mine := "# Mine\r\n\r\n## Purpose\r\nKeep bytes.\r\n"
	afero.WriteFile(fs, s.Path(tiers.MainPath), []byte(mine), 0o644)
	res, err := WriteSession(context.Background(), s, hoInput("x"))
	if err != nil || !res.BlockAppended {
		t.Fatalf("%+v %v", res, err)
	}
	want := mine + "\r\n## HANDOFF\r\nupdated: 2026-11-22T03:24:20Z\r\nsession_summary: x\r\nnext_priority: next after x\r\nopen_risk: risk\r\nemotional_register: calm\r\n"
	if got := hoRead(t, s, tiers.MainPath); got != want {
		t.Fatalf("main.md %q", got)
	}
}

func TestRecoverWithNothingPendingTakesNoLock(t *testing.T) {
	t.Parallel()
	s, _ := newHandoffStore(t, afero.NewMemMapFs())
	s.Locker = failLocker{}
	if rec, err := Recover(context.Background(), s); err != nil || rec != nil {
		t.Fatalf("%v %v", rec, err)
	}
}

type failLocker struct{}

func (failLocker) Lock(context.Context, string) (func() error, error) {
	return nil, errors.New("the lock was taken")
}

func (failLocker) RLock(context.Context, string) (func() error, error) {
	return nil, errors.New("the lock was taken")
}

func (failLocker) LockIn(context.Context, string, string) (func() error, error) {
	return nil, errors.New("the lock was taken")
}

// snapshotTree returns every file under the root with its content.
func snapshotTree(t *testing.T, fs afero.Fs) map[string]string {
	t.Helper()
	out := map[string]string{}
	afero.Walk(fs, hoRoot, func(p string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() {
			b, _ := afero.ReadFile(fs, p)
			out[p] = string(b)
		}
		return nil
	})
	return out
}

// A decision log with a comment left open would hide the hand-off's
// decisions. The hand-off refuses before it writes anything, naming the
// file and the comment's line, and the next command runs normally.
func TestHandoffRefusesAnOpenCommentInTheLog(t *testing.T) {
	t.Parallel()
	fs := afero.NewMemMapFs()
	s, _ := newHandoffStore(t, fs)
	if _, err := WriteSession(context.Background(), s, hoInput("first")); err != nil {
		t.Fatal(err)
	}
	log := "[2026-11-01] DECISION: Old BECAUSE: reason\nSTATUS: active\n\n<!-- a note\nleft open\n"
	afero.WriteFile(fs, s.Path(tiers.DecisionsPath), []byte(log), 0o644)
	before := snapshotTree(t, fs)
	_, err := WriteSession(context.Background(), s, faultInput("second"))
	var oc *OpenCommentError
	if !errors.As(err, &oc) || oc.Line != 4 || !strings.HasPrefix(err.Error(), "warm/decisions.md:4: an HTML comment (<!--) opens here and is never closed") {
		t.Fatalf("err = %v", err)
	}
	if after := snapshotTree(t, fs); !reflect.DeepEqual(after, before) {
		t.Fatalf("a refused hand-off changed the root")
	}
	if ok, _ := Pending(fs, hoRoot); ok {
		t.Fatal("a refused hand-off left a journal")
	}
	if _, err := s.Decide(context.Background(), NewDecision{What: "x", Why: "y"}); !errors.As(err, &oc) {
		t.Fatalf("decide: %v", err)
	}
	if _, err := WriteSession(context.Background(), s, hoInput("third")); err != nil {
		t.Fatalf("a hand-off without decisions: %v", err)
	}
}

// TestOlderRootsSummariesBecomeRecords: a root an older wake wrote keeps
// its summaries only in recent/. The first hand-off makes each a record
// before rotating it (latest.md copied, previous.md moved), and from then
// on recent/ holds copies of records, replaced without archiving.
func TestOlderRootsSummariesBecomeRecords(t *testing.T) {
	t.Parallel()
	fs := afero.NewMemMapFs()
	s, c := newHandoffStore(t, fs)
	old := func(summary, at string) string {
		return "---\nsummary: " + summary + "\nsession: " + at + "\n---\n# Session\n"
	}
	afero.WriteFile(fs, s.Path(tiers.PreviousPath), []byte(old("older", "2026-11-20T10:00:00Z")), 0o644)
	afero.WriteFile(fs, s.Path(tiers.LatestPath), []byte(old("old", "2026-11-21T10:00:00Z")), 0o644)
	res, err := WriteSession(context.Background(), s, hoInput("new"))
	if err != nil {
		t.Fatal(err)
	}
	if res.Archived != "cold/sessions/2026-11-20T10-00-00Z-wtest.md" || res.LatestRecord != "cold/sessions/2026-11-21T10-00-00Z-wtest.md" || res.Record != "cold/sessions/2026-11-22T03-24-20Z-wtest.md" {
		t.Fatalf("archived %q, latest copied to %q, record %q", res.Archived, res.LatestRecord, res.Record)
	}
	for rel, want := range map[string]string{res.Archived: "older", res.LatestRecord: "old", res.Record: "new", tiers.PreviousPath: "old", tiers.LatestPath: "new"} {
		if got := hoSummary(t, s, rel); got != want {
			t.Fatalf("%s holds %q, want %q", rel, got, want)
		}
	}
	c.t = c.t.Add(time.Hour)
	res, err = WriteSession(context.Background(), s, hoInput("newer"))
	if err != nil {
		t.Fatal(err)
	}
	if res.Archived != "" || res.LatestRecord != "" || !res.Demoted {
		t.Fatalf("second hand-off: archived %q, latest copied to %q", res.Archived, res.LatestRecord)
	}
	names, _ := afero.ReadDir(fs, s.Path(tiers.SessionsDir))
	if len(names) != 4 {
		t.Fatalf("%d records, want 4 (one a session)", len(names))
	}
}

// TestEditedViewIsKept: a copy of a record edited by hand is no view any
// more; the rotation keeps the edit as a record of its own.
func TestEditedViewIsKept(t *testing.T) {
	t.Parallel()
	fs := afero.NewMemMapFs()
	s, c := newHandoffStore(t, fs)
	for _, name := range []string{"one", "two"} {
		c.t = c.t.Add(time.Hour)
		if _, err := WriteSession(context.Background(), s, hoInput(name)); err != nil {
			t.Fatal(err)
		}
	}
	prev := hoRead(t, s, tiers.PreviousPath)
	edited := strings.Replace(prev, "# Session", "# Session (fixed a typo by hand)", 1)
	afero.WriteFile(fs, s.Path(tiers.PreviousPath), []byte(edited), 0o644)
	c.t = c.t.Add(time.Hour)
	res, err := WriteSession(context.Background(), s, hoInput("three"))
	if err != nil {
		t.Fatal(err)
	}
	if res.Archived != "cold/sessions/2026-11-22T04-24-20Z-wtest-2.md" || hoRead(t, s, res.Archived) != edited {
		t.Fatalf("the edited previous.md went to %q", res.Archived)
	}
	if hoRead(t, s, "cold/sessions/2026-11-22T04-24-20Z-wtest.md") != prev {
		t.Fatal("the record itself changed")
	}
}
