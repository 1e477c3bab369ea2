package store

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/tiers"
)

// decisionOps are the decision-log commands, each run on decisionRoot.
var decisionOps = []struct {
	name, op string
	run      func(*Store) error
}{
	{"decide", "decide", func(s *Store) error {
		_, err := s.Decide(context.Background(), NewDecision{What: "Use SQLite", Why: "one file", Topic: "storage"})
		return err
	}},
	{"reverse", "reverse", func(s *Store) error {
		_, err := s.Reverse(context.Background(), num(1), NewDecision{What: "Use JSON", Why: "no parser needed"})
		return err
	}},
	{"contest", "contest", func(s *Store) error {
		_, err := s.Contest(context.Background(), num(2), "it is slow", "cache it")
		return err
	}},
	{"uphold", "uphold", func(s *Store) error {
		_, err := s.Uphold(context.Background(), num(3), "it stays")
		return err
	}},
}

const decisionLog = `[2026-11-01] DECISION: Use TOML BECAUSE: YAML broke
STATUS: active

[2026-11-02] DECISION: Fetch on demand BECAUSE: less traffic
STATUS: active

[2026-11-03] DECISION: Keep Go BECAUSE: the team knows it
STATUS: contested
OBJECTION: [2026-11-04] Rust is faster
PROPOSED: port the hot loop
`

// decisionRoot lays out a root whose log and snapshot agree, as wake left
// them, with an entry for each command to act on.
func decisionRoot(t *testing.T) afero.Fs {
	t.Helper()
	fs := afero.NewMemMapFs()
	s, _ := newHandoffStore(t, fs)
	if err := s.WriteDecisionsLocked([]byte(decisionLog)); err != nil {
		t.Fatal(err)
	}
	return fs
}

// TestDecisionCommandsSurviveEveryFault fails each mutating operation of
// each decision command in turn, once as an error the code sees and once
// as a crash after which nothing reaches the disk. After recovery the log
// must be the old content or the new exactly, wake's snapshot must agree
// with it (no hand edit is reported that wake made itself), a changed log
// must have its ledger line once and an unchanged one none, and the next
// commands must work.
func TestDecisionCommandsSurviveEveryFault(t *testing.T) {
	t.Parallel()
	for _, op := range decisionOps {
		fs := decisionRoot(t)
		count := &faultFs{Fs: fs}
		if err := op.run(storeOn(count, faultAt)); err != nil {
			t.Fatalf("%s: %v", op.name, err)
		}
		want := hoRead(t, storeOn(fs, faultAt), tiers.DecisionsPath)
		if want == decisionLog {
			t.Fatalf("%s changed nothing", op.name)
		}
		for _, crash := range []bool{false, true} {
			for n := 1; n <= count.n; n++ {
				name := map[bool]string{false: "error", true: "crash"}[crash]
				t.Run(op.name+"/"+name+"/"+count.ops[n-1], func(t *testing.T) {
					fs := decisionRoot(t)
					ffs := &faultFs{Fs: fs, failAt: n, crash: crash}
					err := op.run(storeOn(ffs, faultAt))
					if err != nil && !errors.Is(err, errFault) {
						t.Fatalf("err = %v, want the injected fault", err)
					}
					checkDecisionsAfterFault(t, fs, op.op, want, err)
				})
			}
		}
	}
}

func checkDecisionsAfterFault(t *testing.T, fs afero.Fs, op, want string, opErr error) {
	t.Helper()
	s := storeOn(fs, faultAt.Add(time.Hour))
	if _, err := Recover(context.Background(), s); err != nil {
		t.Fatalf("recovery: %v", err)
	}
	got := hoRead(t, s, tiers.DecisionsPath)
	changed := got == want
	switch {
	case !changed && got != decisionLog:
		t.Fatalf("the log is neither the old nor the new content:\n%s", got)
	case opErr == nil && !changed:
		t.Fatal("the command succeeded but the log is the old one")
	case opErr != nil && changed && !errors.As(opErr, new(*DecisionsInterruptedError)):
		t.Fatalf("the log changed, but the error %v does not say so", opErr)
	}
	if s.exists(tiers.StateDir + "/" + DecisionsPending) {
		t.Fatal("the pending record is still there after recovery")
	}

	snap := hoRead(t, s, tiers.StateDir+"/"+DecisionsSnapshot)
	if edits := tiers.FindHandEdits([]byte(snap), []byte(got)); len(edits) > 0 {
		t.Fatalf("a hand edit is reported that wake made: %+v\nsnapshot:\n%s\nlog:\n%s", edits, snap, got)
	}
	if n := countOps(t, s, op); n != map[bool]int{false: 0, true: 1}[changed] {
		t.Fatalf("%d %q ledger lines, the log changed: %v", n, op, changed)
	}
	// The log's entries had no IDs: the write that gave them theirs has
	// its "identify" line exactly when it changed the log.
	if n := countOps(t, s, "identify"); n != map[bool]int{false: 0, true: 1}[changed] {
		t.Fatalf("%d identify ledger lines, the log changed: %v", n, changed)
	}
	ch, err := s.Decide(context.Background(), NewDecision{What: "Next one", Why: "it works"})
	if err != nil {
		t.Fatalf("the next decide: %v", err)
	}
	if _, err := s.Contest(context.Background(), num(ch.Number), "objection", "proposal"); err != nil {
		t.Fatalf("the next contest: %v", err)
	}
	// The root has never had a hand-off, so no journal directory: the
	// recovery and the next commands still remove what the interrupted
	// write left (issue 9: warm/.decisions.md.tmp-* stayed for ever).
	afero.Walk(fs, s.Root, func(p string, fi os.FileInfo, err error) error {
		if err == nil && strings.Contains(fi.Name(), ".tmp-") {
			t.Errorf("temporary file left: %s", p)
		}
		return nil
	})
}

func countOps(t *testing.T, s *Store, op string) int {
	t.Helper()
	entries, bad, err := ReadLedger(s.FS, s.Root)
	if err != nil || len(bad) > 0 {
		t.Fatalf("ledger: %v %v", bad, err)
	}
	n := 0
	for _, e := range entries {
		if e.Op == op {
			n++
		}
	}
	return n
}

// A crash at the log's rename leaves a record that recovery discards; one
// just after it leaves a record that recovery finishes. Either way the
// recovery says what it did.
func TestRecoverReportsDecisionWrites(t *testing.T) {
	t.Parallel()
	count := &faultFs{Fs: decisionRoot(t)}
	if err := decisionOps[0].run(storeOn(count, faultAt)); err != nil {
		t.Fatal(err)
	}
	rename := 0
	for i, op := range count.ops {
		if strings.HasPrefix(op, "rename") && strings.HasSuffix(op, "/"+tiers.DecisionsPath) {
			rename = i + 1
		}
	}
	if rename == 0 {
		t.Fatalf("no rename of the log in %v", count.ops)
	}
	for _, tc := range []struct {
		failAt int
		back   bool
		want   string
	}{
		{rename, true, `rolled back a write of warm/decisions.md ("decided #4 (id d-1ccbb9-wtest): Use SQLite"), interrupted before it changed the log`},
		{rename + 1, false, `finished a write of warm/decisions.md ("decided #4 (id d-1ccbb9-wtest): Use SQLite"), interrupted after it changed the log: wrote .state/decisions.last.md; made sure of the ledger line of the ids it gave; made sure of its ledger line`},
	} {
		fs := decisionRoot(t)
		decisionOps[0].run(storeOn(&faultFs{Fs: fs, failAt: tc.failAt, crash: true}, faultAt))
		rec, err := Recover(context.Background(), storeOn(fs, faultAt))
		if err != nil || len(rec) != 1 || !rec[0].Log || rec[0].RolledBack != tc.back {
			t.Fatalf("crash at %d: %+v %v", tc.failAt, rec, err)
		}
		if msg := rec[0].String(); msg != tc.want {
			t.Errorf("crash at %d: report\n%q\nwant\n%q", tc.failAt, msg, tc.want)
		}
	}
}
