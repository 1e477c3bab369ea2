package store

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/wakeproto/wake/internal/memlock"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/tiers"
)

const testRoot = "/mem"

// newDecisionStore returns a store on an in-memory root whose clock reads
// 2026-03-0<day> and moves a day at each call of the returned tick.
func newDecisionStore(t *testing.T, log string) (*Store, func()) {
	t.Helper()
	fs := afero.NewMemMapFs()
	if log != "" {
		if err := afero.WriteFile(fs, testRoot+"/"+tiers.DecisionsPath, []byte(log), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	s := &Store{FS: fs, Root: testRoot, Now: func() time.Time { return now }, Locker: &memlock.Locker{}, Writer: "wtest"}
	return s, func() { now = now.AddDate(0, 0, 1) }
}

func readLog(t *testing.T, s *Store) string {
	t.Helper()
	data, err := afero.ReadFile(s.FS, s.Path(tiers.DecisionsPath))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

const handWritten = `# Decisions

[2026-02-14] DECISION: Use YAML for config BECAUSE: readability
STATUS: active
TOPIC: config

[2026-02-20] DECISION: Keep one binary BECAUSE: simpler installs
`

func TestReverse(t *testing.T) {
	t.Parallel()
	s, _ := newDecisionStore(t, handWritten)
	ch, err := s.Reverse(context.Background(), num(1), NewDecision{What: "Use TOML for config", Why: "YAML indentation broke parsing"})
	if err != nil {
		t.Fatal(err)
	}
	// The hand-written entries get their ID lines at their ends; the
	// new one has its own after its DECISION line.
	want := `# Decisions

[2026-02-14] DECISION: Use YAML for config BECAUSE: readability
STATUS: reversed
TOPIC: config
ID: d-e9b24e-wtest
REVERSED_BY: [2026-03-01] Use TOML for config BECAUSE: YAML indentation broke parsing

[2026-02-20] DECISION: Keep one binary BECAUSE: simpler installs
ID: d-3e550b-wtest

[2026-03-01] DECISION: Use TOML for config BECAUSE: YAML indentation broke parsing
ID: d-5cd477-wtest
STATUS: active
TOPIC: config
`
	if got := readLog(t, s); got != want {
		t.Fatalf("after reverse:\n%s\nwant:\n%s", got, want)
	}
	if ch != (DecisionChange{Number: 1, ID: "d-e9b24e-wtest", Title: "[2026-02-14] Use YAML for config", Status: "reversed", Added: 3, AddedID: "d-5cd477-wtest", AddedTitle: "[2026-03-01] Use TOML for config"}) {
		t.Errorf("change %+v", ch)
	}
	_, err = s.Reverse(context.Background(), num(1), NewDecision{What: "Use JSON", Why: "x"})
	if err == nil || !strings.Contains(err.Error(), "decision 1 (id d-e9b24e-wtest) is already reversed ([2026-03-01] Use TOML for config BECAUSE: YAML indentation broke parsing)") {
		t.Errorf("reversing a reversed entry: %v", err)
	}
	checkLedger(t, s, "reverse", "reversed #1 (id d-e9b24e-wtest) (Use YAML for config) by #3 (id d-5cd477-wtest): Use TOML for config", "d-e9b24e-wtest", "d-5cd477-wtest")
	checkSnapshot(t, s)
}

// An entry without a STATUS line gets one after its last line, so the
// original bytes stay one unbroken run; a missing final newline is added.
func TestContestUpholdWithoutStatusLine(t *testing.T) {
	t.Parallel()
	log := strings.TrimSuffix(handWritten, "\n")
	s, tick := newDecisionStore(t, log)
	if _, err := s.Contest(context.Background(), num(2), "two binaries start faster", "split the daemon out"); err != nil {
		t.Fatal(err)
	}
	log = strings.Replace(log, "TOPIC: config\n", "TOPIC: config\nID: d-e9b24e-wtest\n", 1)
	contested := log + "\nID: d-3e550b-wtest\nSTATUS: contested\nOBJECTION: [2026-03-01] two binaries start faster\nPROPOSED: split the daemon out\n"
	if got := readLog(t, s); got != contested {
		t.Fatalf("after contest:\n%q\nwant\n%q", got, contested)
	}
	checkLedger(t, s, "contest", "contested #2 (id d-3e550b-wtest) (Keep one binary): two binaries start faster", "d-3e550b-wtest")
	tick()
	ch, err := s.Uphold(context.Background(), num(2), "install size matters more")
	if err != nil {
		t.Fatal(err)
	}
	upheld := strings.Replace(contested, "STATUS: contested", "STATUS: active", 1) + "UPHELD: [2026-03-02] install size matters more\n"
	if got := readLog(t, s); got != upheld || ch.Status != "active" || ch.Number != 2 {
		t.Fatalf("after uphold (%+v):\n%q\nwant\n%q", ch, got, upheld)
	}
	checkLedger(t, s, "uphold", "upheld #2 (id d-3e550b-wtest) (Keep one binary): install size matters more", "d-3e550b-wtest")
	checkSnapshot(t, s)
}

func TestAnnotateErrors(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newDecisionStore(t, handWritten)
	for _, tc := range []struct {
		name string
		do   func() error
		want string
	}{
		{"number past the end", func() error { _, err := s.Contest(ctx, num(3), "o", "p"); return err }, "decision 3: no such decision (warm/decisions.md has 2)"},
		{"number zero", func() error { _, err := s.Uphold(ctx, num(0), "why"); return err }, "decision 0: no such decision"},
		{"uphold an active entry", func() error { _, err := s.Uphold(ctx, num(1), "why"); return err }, "decision 1 (id d-e9b24e-wtest) is active, not contested"},
		{"uphold an entry with no STATUS", func() error { _, err := s.Uphold(ctx, num(2), "why"); return err }, "decision 2 (id d-3e550b-wtest) is active (no STATUS line), not contested"},
		{"empty objection", func() error { _, err := s.Contest(ctx, num(1), " ", "p"); return err }, "the objection is empty"},
		{"two-line proposal", func() error { _, err := s.Contest(ctx, num(1), "o", "a\nb"); return err }, "the proposal must be one line"},
		{"empty replacement", func() error { _, err := s.Reverse(ctx, num(1), NewDecision{Why: "x"}); return err }, "the decision text is empty"},
		{"BECAUSE in the decision", func() error {
			_, err := s.Reverse(ctx, num(1), NewDecision{What: "A BECAUSE: B", Why: "x"})
			return err
		}, `must not contain "BECAUSE:"`},
	} {
		err := tc.do()
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
	if _, err := s.Contest(ctx, num(9), "o", "p"); !errors.Is(err, ErrNoSuchDecision) {
		t.Errorf("want ErrNoSuchDecision, got %v", err)
	}
	if got := readLog(t, s); got != handWritten {
		t.Errorf("failed commands changed the log:\n%s", got)
	}
	if es, _, _ := ReadLedger(s.FS, s.Root); len(es) != 0 {
		t.Errorf("failed commands wrote ledger lines: %+v", es)
	}
}

// Annotating entries by number after one was deleted by hand could hit the
// wrong entry: wake refuses and changes nothing. Appending still works, and
// the snapshot keeps wake's version so the check goes on reporting it.
func TestHandEditsRefuseAnnotation(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newDecisionStore(t, "")
	for _, w := range []string{"A", "B", "C"} {
		if _, err := s.Decide(ctx, NewDecision{What: "Use " + w, Why: "w"}); err != nil {
			t.Fatal(err)
		}
	}
	full := readLog(t, s)
	cut := strings.Replace(full, tiers.ParseDecisions([]byte(full)).Entries[1].Raw+"\n", "", 1)
	afero.WriteFile(s.FS, s.Path(tiers.DecisionsPath), []byte(cut), 0o644)
	_, err := s.Reverse(ctx, num(2), NewDecision{What: "Use D", Why: "d"})
	var he *HandEditError
	if !errors.As(err, &he) || len(he.Edits) != 1 || he.Edits[0].Entry != 2 || !he.Edits[0].Deleted {
		t.Fatalf("want a HandEditError for entry 2, got %v", err)
	}
	if readLog(t, s) != cut {
		t.Fatal("a refused reverse changed the log")
	}
	ch, err := s.Decide(ctx, NewDecision{What: "Use E", Why: "e"})
	if err != nil || ch.Number != 3 {
		t.Fatalf("decide after a hand edit: %+v, %v", ch, err)
	}
	last, _ := afero.ReadFile(s.FS, s.snapshotPath())
	if want := full + "\n[2026-03-01] DECISION: Use E BECAUSE: e\nID: d-623715-wtest\nSTATUS: active\n"; string(last) != want {
		t.Errorf("snapshot:\n%s\nwant\n%s", last, want)
	}
	if edits := tiers.FindHandEdits(last, []byte(readLog(t, s))); len(edits) != 1 || edits[0].Entry != 2 {
		t.Errorf("the deletion is no longer detectable: %+v", edits)
	}
}

// Appending after an HTML comment left open would hide the entry: refused.
func TestDecideIntoOpenComment(t *testing.T) {
	t.Parallel()
	s, _ := newDecisionStore(t, "# Decisions\n<!-- unfinished\n")
	_, err := s.Decide(context.Background(), NewDecision{What: "A", Why: "b"})
	if err == nil || !strings.Contains(err.Error(), "HTML comment") {
		t.Fatalf("want a refusal naming the open comment, got %v", err)
	}
}

func checkLedger(t *testing.T, s *Store, op, summary string, ids ...string) {
	t.Helper()
	es, bad, err := ReadLedger(s.FS, s.Root)
	if err != nil || len(bad) > 0 || len(es) == 0 {
		t.Fatalf("ledger: %v %v %v", es, bad, err)
	}
	last := es[len(es)-1]
	if last.Op != op || last.ChangeSummary != summary || len(last.Paths) != 1 || last.Paths[0] != tiers.DecisionsPath {
		t.Errorf("last ledger line %+v, want op %q summary %q", last, op, summary)
	}
	if ids != nil && !reflect.DeepEqual(last.DecisionIDs, ids) {
		t.Errorf("last ledger line names ids %q, want %q", last.DecisionIDs, ids)
	}
}

func checkSnapshot(t *testing.T, s *Store) {
	t.Helper()
	last, err := afero.ReadFile(s.FS, s.snapshotPath())
	if err != nil || string(last) != readLog(t, s) {
		t.Errorf("snapshot differs from the log (%v)", err)
	}
}

// TestReverseOneLineEntry: an entry in seed 004's one-line form, its
// STATUS on the DECISION line, is reversed in place: the status word
// changes where it stands, every other byte stays, and the log reads back
// with the entry reversed.
func TestReverseOneLineEntry(t *testing.T) {
	const entry = "[2026-02-14] DECISION: Use YAML for config BECAUSE: readability STATUS: active TOPIC: config\n"
	s, _ := newDecisionStore(t, entry)
	ctx := context.Background()
	if _, err := s.Reverse(ctx, num(1), NewDecision{What: "Use TOML for config", Why: "YAML indentation broke parsing"}); err != nil {
		t.Fatal(err)
	}
	got := readLog(t, s)
	if !strings.HasPrefix(got, "[2026-02-14] DECISION: Use YAML for config BECAUSE: readability STATUS: reversed TOPIC: config\nID: d-e9b24e-wtest\nREVERSED_BY: [2026-03-01] Use TOML for config BECAUSE: YAML indentation broke parsing\n") {
		t.Fatalf("log after reverse:\n%s", got)
	}
	log := tiers.ParseDecisions([]byte(got))
	if len(log.Entries) != 2 || log.Entries[0].Status != tiers.StatusReversed || !log.Entries[1].Active() || len(log.Malformed) != 0 {
		t.Fatalf("reads back as %+v, malformed %v", log.Entries, log.Malformed)
	}
	// A reason that would start a field of its own is refused.
	if _, err := s.Decide(ctx, NewDecision{What: "Use X", Why: "fast STATUS: reversed"}); err == nil || !strings.Contains(err.Error(), `"STATUS:"`) {
		t.Fatalf("a reason holding STATUS: was written: %v", err)
	}
}

// TestDecideGuard: with a guard, a conflicting decision is refused and
// nothing written; forced, it is written contested, naming the entry.
func TestDecideGuard(t *testing.T) {
	const entry = "[2026-02-14] DECISION: Use YAML for config BECAUSE: readability\nSTATUS: active\n"
	s, _ := newDecisionStore(t, entry)
	s.Guard = func(log tiers.DecisionLog, ds []NewDecision) []Conflict {
		if len(log.Entries) > 0 && strings.Contains(ds[0].What, "TOML") {
			return []Conflict{{New: 0, With: log.Entries[0], Why: "another choice"}}
		}
		return nil
	}
	ctx := context.Background()
	_, err := s.Decide(ctx, NewDecision{What: "Use TOML for config", Why: "YAML broke"})
	var ce *ConflictError
	if !errors.As(err, &ce) || !strings.Contains(err.Error(), "contradicts decision 1 (id d-e9b24e-wtest)") || !strings.Contains(ce.Hint(), "wake reverse d-e9b24e-wtest") {
		t.Fatalf("refusal: %v", err)
	}
	if got := readLog(t, s); got != entry {
		t.Fatalf("a refused decision changed the log:\n%s", got)
	}
	ch, err := s.Decide(ctx, NewDecision{What: "Use TOML for config", Why: "YAML broke", Force: true})
	if err != nil || ch.Status != tiers.StatusContested {
		t.Fatalf("forced: %+v %v", ch, err)
	}
	log := tiers.ParseDecisions([]byte(readLog(t, s)))
	e := log.Entries[1]
	if len(log.Malformed) != 0 || e.Status != tiers.StatusContested || !strings.Contains(e.Value(tiers.KeyObjection), "contradicts decision 1 (id d-e9b24e-wtest) ([2026-02-14] Use YAML for config): another choice") {
		t.Fatalf("forced entry %+v, malformed %v", e, log.Malformed)
	}
}

// num names a decision by its number.
func num(n int) DecisionRef { return DecisionRef{Number: n} }
