package store

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/wakeproto/wake/internal/memlock"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/tiers"
)

// faultRoot lays out a root with a latest, a previous whose archive name is
// already taken, and a decision log, so that every step of a hand-off has
// work to do. It returns the summaries it holds.
func faultRoot(t *testing.T) (afero.Fs, [][]byte) {
	t.Helper()
	fs := afero.NewMemMapFs()
	s, _ := newHandoffStore(t, fs)
	olds := [][]byte{
		[]byte("---\nsummary: previous\nsession: 2026-11-20T10:00:00Z\n---\n# Session 2026-11-20\n"),
		[]byte("---\nsummary: latest\nsession: 2026-11-21T10:00:00Z\n---\n# Session 2026-11-21\n"),
		[]byte("---\nsummary: archived\nsession: 2026-11-20T10:00:00Z\n---\n# Session 2026-11-20\n"),
	}
	for i, rel := range []string{tiers.PreviousPath, tiers.LatestPath, "cold/sessions/2026-11-20T10-00-00Z.md"} {
		if err := afero.WriteFile(fs, s.Path(rel), olds[i], 0o644); err != nil {
			t.Fatal(err)
		}
	}
	afero.WriteFile(fs, s.Path(tiers.DecisionsPath), []byte("[2026-11-01] DECISION: Old BECAUSE: reason\nSTATUS: active\n"), 0o644)
	return fs, olds
}

func faultInput(summary string) SessionWrite {
	in := hoInput(summary)
	in.Decisions = []NewDecision{{What: "Decided in " + summary, Why: "a test"}}
	return in
}

func storeOn(fs afero.Fs, at time.Time) *Store {
	return &Store{FS: fs, Root: hoRoot, Now: func() time.Time { return at }, Locker: &memlock.Locker{}, Writer: "wtest"}
}

var faultAt = time.Date(2026, 11, 22, 3, 24, 20, 0, time.UTC)

// TestHandoffSurvivesEveryFault fails each mutating operation of a hand-off
// in turn, once as an error the code sees and once as a crash after which
// nothing reaches the disk. Every summary must stay reachable; recovery must
// leave a consistent root; a fresh hand-off must then succeed.
func TestHandoffSurvivesEveryFault(t *testing.T) {
	t.Parallel()
	fs, _ := faultRoot(t)
	count := &faultFs{Fs: fs}
	if _, err := WriteSession(context.Background(), storeOn(count, faultAt), faultInput("faulted")); err != nil {
		t.Fatal(err)
	}
	total := count.n
	if total < 30 {
		t.Fatalf("only %d operations counted; the wrapper misses some", total)
	}
	for _, crash := range []bool{false, true} {
		for n := 1; n <= total; n++ {
			name := map[bool]string{false: "error", true: "crash"}[crash]
			t.Run(name+"/"+count.ops[n-1], func(t *testing.T) {
				checkFaultAt(t, n, crash)
			})
		}
	}
}

func checkFaultAt(t *testing.T, n int, crash bool) {
	fs, olds := faultRoot(t)
	ffs := &faultFs{Fs: fs, failAt: n, crash: crash}
	_, err := WriteSession(context.Background(), storeOn(ffs, faultAt), faultInput("faulted"))
	// The one fault a hand-off may shrug off is failing to sync the removal
	// of its finished journal; then it must have done everything.
	if err != nil && !errors.Is(err, errFault) {
		t.Fatalf("fault %d (%s): err = %v, want the injected fault", n, ffs.ops[n-1], err)
	}
	var ie *InterruptedError
	onDisk := journalOnDisk(t, fs)
	if errors.As(err, &ie) != onDisk {
		t.Fatalf("error %v, but a journal on disk is %v", err, onDisk)
	}
	committed := onDisk || err == nil
	for _, old := range olds {
		if countContent(t, fs, hoRoot, old) == 0 {
			t.Fatalf("summary %q is gone after fault %d", old, n)
		}
	}
	s := storeOn(fs, faultAt.Add(time.Hour))
	rec, err := Recover(context.Background(), s)
	if err != nil {
		t.Fatalf("recovery: %v", err)
	}
	forward := hoSummary(t, s, tiers.LatestPath) == "faulted"
	if forward != committed {
		t.Fatalf("committed %v, rolled forward %v (recoveries %v)", committed, forward, rec)
	}
	done := []string{"archived", "previous", "latest"}
	if forward {
		done = append(done, "faulted")
	}
	checkConsistent(t, s, done)
	if _, err := WriteSession(context.Background(), s, faultInput("fresh")); err != nil {
		t.Fatalf("fresh hand-off: %v", err)
	}
	checkConsistent(t, s, append(done, "fresh"))
}

func journalOnDisk(t *testing.T, fs afero.Fs) bool {
	t.Helper()
	m, err := afero.Glob(fs, filepath.Join(hoRoot, tiers.StateDir, JournalDir, "*", journalName))
	if err != nil {
		t.Fatal(err)
	}
	return len(m) > 0
}

// countContent counts the files under root holding exactly data.
func countContent(t *testing.T, fs afero.Fs, root string, data []byte) int {
	t.Helper()
	n := 0
	afero.Walk(fs, root, func(p string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() {
			if b, _ := afero.ReadFile(fs, p); string(b) == string(data) {
				n++
			}
		}
		return nil
	})
	return n
}

// checkConsistent checks a root holding summaries, oldest first (the three
// of faultRoot, then those of the hand-offs made since): each summary sits once in latest, previous
// or cold/sessions, latest is the last, the HANDOFF block matches it, and
// the ledger and the decision log hold each hand-off once. Nothing is left
// pending and no temporary file is left.
func checkConsistent(t *testing.T, s *Store, summaries []string) {
	t.Helper()
	if ok, _ := Pending(s.FS, s.Root); ok {
		t.Fatal("a hand-off is still pending")
	}
	// Each summary is kept once as a record: a file of cold/sessions/, or
	// a file of recent/ that is no copy of one (an older wake's summary
	// not yet rotated). recent/'s copies of records are views.
	var found []string
	records := map[string]bool{}
	cold, _ := afero.ReadDir(s.FS, s.Path(tiers.SessionsDir))
	for _, fi := range cold {
		rel := tiers.SessionsDir + "/" + fi.Name()
		data, _ := afero.ReadFile(s.FS, s.Path(rel))
		records[string(data)] = true
		found = append(found, hoSummary(t, s, rel))
	}
	for _, rel := range []string{tiers.LatestPath, tiers.PreviousPath} {
		data, err := afero.ReadFile(s.FS, s.Path(rel))
		if err == nil && !records[string(data)] {
			found = append(found, hoSummary(t, s, rel))
		}
	}
	sort.Strings(found)
	want := append([]string(nil), summaries...)
	sort.Strings(want)
	if strings.Join(found, ",") != strings.Join(want, ",") {
		t.Fatalf("summaries %v, want %v", found, want)
	}
	last := summaries[len(summaries)-1]
	if got := hoSummary(t, s, tiers.LatestPath); got != last {
		t.Fatalf("latest is %q, want %q", got, last)
	}
	afero.Walk(s.FS, s.Root, func(p string, fi os.FileInfo, err error) error {
		if err == nil && strings.Contains(fi.Name(), ".tmp-") {
			t.Errorf("temporary file left: %s", p)
		}
		return nil
	})
	checkRecords(t, s, summaries[3:])
}

// checkRecords checks that each hand-off is in the ledger, the decision log
// and (the last) the HANDOFF block exactly once.
func checkRecords(t *testing.T, s *Store, handoffs []string) {
	t.Helper()
	entries, bad, err := ReadLedger(s.FS, s.Root)
	if err != nil || len(bad) != 0 {
		t.Fatalf("ledger: %v %v", bad, err)
	}
	var logged []string
	for _, e := range entries {
		if e.Op == "handoff" {
			logged = append(logged, e.Summary)
		}
	}
	if strings.Join(logged, ",") != strings.Join(handoffs, ",") {
		t.Fatalf("ledger hand-offs %v, want %v", logged, handoffs)
	}
	log := hoRead(t, s, tiers.DecisionsPath)
	if snap, err := afero.ReadFile(s.FS, s.Path(tiers.StateDir+"/"+DecisionsSnapshot)); err == nil {
		if edits := tiers.FindHandEdits(snap, []byte(log)); len(edits) > 0 {
			t.Fatalf("a hand edit is reported that wake made: %+v", edits)
		}
	}
	for _, h := range handoffs {
		if c := strings.Count(log, "DECISION: Decided in "+h+" BECAUSE"); c != 1 {
			t.Fatalf("decision of %q logged %d times:\n%s", h, c, log)
		}
	}
	if len(handoffs) > 0 {
		h := tiers.ParseMain([]byte(hoRead(t, s, tiers.MainPath))).Handoff
		if h.Get(tiers.KeySessionSummary) != handoffs[len(handoffs)-1] {
			t.Fatalf("HANDOFF block says %q", h.Get(tiers.KeySessionSummary))
		}
	}
}

// TestHandoffFinishesAnInterruptedOneFirst crashes a hand-off just after
// its first rename and checks that the next hand-off finishes it first and
// says what it did.
func TestHandoffFinishesAnInterruptedOneFirst(t *testing.T) {
	t.Parallel()
	fs, _ := faultRoot(t)
	count := &faultFs{Fs: fs}
	WriteSession(context.Background(), storeOn(count, faultAt), faultInput("probe"))
	firstRename := 0
	for i, op := range count.ops {
		if strings.HasPrefix(op, "rename "+hoRoot+"/recent/previous.md") {
			firstRename = i + 1
			break
		}
	}
	if firstRename == 0 {
		t.Fatalf("no archive rename in %v", count.ops)
	}
	fs, _ = faultRoot(t)
	ffs := &faultFs{Fs: fs, failAt: firstRename + 1, crash: true}
	_, err := WriteSession(context.Background(), storeOn(ffs, faultAt), faultInput("crashed"))
	var ie *InterruptedError
	if !errors.As(err, &ie) || !strings.Contains(err.Error(), "the next wake command finishes it") {
		t.Fatalf("err = %v", err)
	}
	s := storeOn(fs, faultAt.Add(time.Minute))
	res, err := WriteSession(context.Background(), s, faultInput("next"))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Recovered) != 1 {
		t.Fatalf("recovered %v", res.Recovered)
	}
	msg := res.Recovered[0].String()
	for _, want := range []string{"finished hand-off " + ie.ID, `("crashed")`, "moved recent/latest.md to recent/previous.md",
		"installed the new recent/latest.md", "wrote the HANDOFF block", "appended 1 decision(s)", "appended its ledger line"} {
		if !strings.Contains(msg, want) {
			t.Errorf("recovery report %q lacks %q", msg, want)
		}
	}
	if strings.Contains(msg, "archived") {
		t.Errorf("recovery redid the archive: %q", msg)
	}
	checkConsistent(t, s, []string{"archived", "previous", "latest", "crashed", "next"})
}

func TestRecoverRollsBackAnUncommittedHandoff(t *testing.T) {
	t.Parallel()
	fs, _ := faultRoot(t)
	s := storeOn(fs, faultAt)
	dir := s.journalDir("20261122T032420Z-000000000000")
	afero.WriteFile(fs, filepath.Join(dir, stagedName), []byte("half-staged"), 0o644)
	rec, err := Recover(context.Background(), s)
	if err != nil || len(rec) != 1 || !rec[0].RolledBack || !strings.Contains(rec[0].String(), "rolled back") {
		t.Fatalf("%v %v", rec, err)
	}
	checkConsistent(t, s, []string{"archived", "previous", "latest"})
}
