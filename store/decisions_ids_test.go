package store

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/tiers"
)

// threeDecided returns a store whose log holds three decisions wake wrote,
// A, B and C, with their IDs.
func threeDecided(t *testing.T) (*Store, []string) {
	t.Helper()
	s, _ := newDecisionStore(t, "")
	var ids []string
	for _, w := range []string{"A", "B", "C"} {
		ch, err := s.Decide(context.Background(), NewDecision{What: "Use " + w, Why: "w"})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, ch.ID)
	}
	return s, ids
}

// insertByHand puts an entry without an ID before entry n.
func insertByHand(t *testing.T, s *Store, n int) string {
	t.Helper()
	log := readLog(t, s)
	at := tiers.ParseDecisions([]byte(log)).Entries[n-1].Bytes.Start
	log = log[:at] + "[2026-02-01] DECISION: Use X BECAUSE: hand\nSTATUS: active\n\n" + log[at:]
	if err := afero.WriteFile(s.FS, s.Path(tiers.DecisionsPath), []byte(log), 0o644); err != nil {
		t.Fatal(err)
	}
	return log
}

// An entry added by hand before entry 2 renumbers B and C: "reverse 3",
// read before the insertion, would reverse B. wake refuses it, naming
// what 3 is now and what it was, with .state/ there or not; the ID still
// reaches the entry meant.
func TestMovedNumberRefused(t *testing.T) {
	t.Parallel()
	for _, withState := range []bool{true, false} {
		s, ids := threeDecided(t)
		if !withState {
			if err := s.FS.RemoveAll(s.Path(tiers.StateDir)); err != nil {
				t.Fatal(err)
			}
		}
		log := insertByHand(t, s, 2)
		ledger, _, _ := ReadLedger(s.FS, s.Root)
		_, err := s.Reverse(context.Background(), num(3), NewDecision{What: "Use D", Why: "d"})
		var me *MovedNumberError
		if !errors.As(err, &me) {
			t.Fatalf("state %v: want a MovedNumberError, got %v", withState, err)
		}
		want := "decision 3 is now [2026-03-01] Use B (id " + ids[1] + "); it was [2026-03-01] Use C (id " + ids[2] + ") when wake last wrote the log: use the id; nothing was changed"
		if err.Error() != want {
			t.Errorf("state %v: error\n%s\nwant\n%s", withState, err, want)
		}
		if readLog(t, s) != log {
			t.Fatalf("state %v: a refused reverse changed the log", withState)
		}
		if after, _, _ := ReadLedger(s.FS, s.Root); len(after) != len(ledger) {
			t.Fatalf("state %v: a refused reverse wrote ledger lines", withState)
		}
		// Number 2 names the entry written by hand: refused, naming the ID
		// it is about to get; that ID already reaches it.
		_, err = s.Contest(context.Background(), num(2), "o", "p")
		x := tiers.PlanIDs(tiers.ParseDecisions([]byte(log)), idSet(ids), "wtest")[0].ID
		if !errors.As(err, &me) || !strings.HasPrefix(err.Error(), "decision 2 is now [2026-02-01] Use X (id "+x+"; written by hand, it gets that id at wake's next write); it was [2026-03-01] Use B (id "+ids[1]+")") {
			t.Fatalf("state %v: %v", withState, err)
		}
		// Entry 1 did not move: its number still works.
		if _, err := s.Contest(context.Background(), num(1), "o", "p"); err != nil {
			t.Fatalf("state %v: contest 1: %v", withState, err)
		}
		ch, err := s.Reverse(context.Background(), DecisionRef{ID: strings.ToUpper(ids[2])}, NewDecision{What: "Use D", Why: "d"})
		if err != nil || ch.Number != 4 || ch.ID != ids[2] || ch.Title != "[2026-03-01] Use C" {
			t.Fatalf("state %v: reverse by id: %+v %v", withState, ch, err)
		}
		got := tiers.ParseDecisions([]byte(readLog(t, s)))
		if e := got.ByID(ids[2])[0]; e.Status != tiers.StatusReversed || got.ByID(ids[1])[0].Status != tiers.StatusActive {
			t.Fatalf("state %v: the wrong entry was reversed:\n%s", withState, readLog(t, s))
		}
		if e := got.ByID(x); len(e) != 1 || e[0].Number != 2 {
			t.Fatalf("state %v: the entry written by hand did not get the ID it was shown: %+v", withState, got.Entries)
		}
		// Once wake has written the log, the numbers are its own again.
		if _, err := s.Uphold(context.Background(), num(1), "kept"); err != nil {
			t.Fatalf("state %v: uphold 1 after the write: %v", withState, err)
		}
		if _, err := s.Contest(context.Background(), num(3), "o", "p"); err != nil {
			t.Fatalf("state %v: contest 3 after the write: %v", withState, err)
		}
	}
}

func idSet(ids []string) tiers.IDSet {
	s := tiers.IDSet{}
	for _, id := range ids {
		s.Add(id)
	}
	return s
}

// A log written by hand, or by a wake before IDs, keeps working: its
// numbers are taken as they are (there is no write of wake's to compare
// with), and the first write gives every entry its ID with one
// "identify" ledger line naming them.
func TestFirstWriteGivesIDs(t *testing.T) {
	t.Parallel()
	s, _ := newDecisionStore(t, handWritten)
	if _, err := s.Contest(context.Background(), num(2), "o", "p"); err != nil {
		t.Fatal(err)
	}
	es, _, _ := ReadLedger(s.FS, s.Root)
	if len(es) != 2 || es[0].Op != "identify" || es[1].Op != "contest" {
		t.Fatalf("ledger %+v", es)
	}
	want := "gave ids to 2 decision(s) that had none (written by hand): #1 d-e9b24e-wtest [2026-02-14] Use YAML for config; #2 d-3e550b-wtest [2026-02-20] Keep one binary"
	if es[0].ChangeSummary != want || strings.Join(es[0].DecisionIDs, " ") != "d-e9b24e-wtest d-3e550b-wtest" || es[0].Paths[0] != tiers.DecisionsPath {
		t.Errorf("identify line %+v", es[0])
	}
	// A second write gives none.
	if _, err := s.Decide(context.Background(), NewDecision{What: "Use SQLite", Why: "one file"}); err != nil {
		t.Fatal(err)
	}
	if es, _, _ := ReadLedger(s.FS, s.Root); len(es) != 3 || es[2].Op != "decide" {
		t.Fatalf("ledger %+v", es)
	}
}

// The ID line stays, byte for byte, through every annotation.
func TestIDKeptThroughAnnotations(t *testing.T) {
	t.Parallel()
	s, tick := newDecisionStore(t, "")
	ctx := context.Background()
	ch, err := s.Decide(ctx, NewDecision{What: "Use YAML", Why: "readability", Topic: "config"})
	if err != nil {
		t.Fatal(err)
	}
	line := "\nID: " + ch.ID + "\n"
	ref := DecisionRef{ID: ch.ID}
	steps := []func() error{
		func() error { _, err := s.Contest(ctx, ref, "anchors", "TOML"); return err },
		func() error { _, err := s.Uphold(ctx, ref, "kept"); return err },
		func() error { _, err := s.Contest(ctx, ref, "again", "TOML"); return err },
		func() error {
			_, err := s.Reverse(ctx, ref, NewDecision{What: "Use TOML", Why: "fewer errors"})
			return err
		},
	}
	for i, step := range steps {
		tick()
		if err := step(); err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		e := tiers.ParseDecisions([]byte(readLog(t, s))).Entries[0]
		if !strings.HasPrefix(e.Raw, "[2026-03-01] DECISION: Use YAML BECAUSE: readability"+line) || e.ID != ch.ID {
			t.Fatalf("step %d: the ID line moved or changed:\n%s", i, e.Raw)
		}
	}
}

// With .state/ deleted, the ledger still knows every ID wake wrote: an
// entry deleted by hand is found, and annotating is refused until it is
// back.
func TestDeletionFoundWithoutState(t *testing.T) {
	t.Parallel()
	s, ids := threeDecided(t)
	log := readLog(t, s)
	b := tiers.ParseDecisions([]byte(log)).Entries[1].Raw + "\n"
	afero.WriteFile(s.FS, s.Path(tiers.DecisionsPath), []byte(strings.Replace(log, b, "", 1)), 0o644)
	if err := s.FS.RemoveAll(s.Path(tiers.StateDir)); err != nil {
		t.Fatal(err)
	}
	_, err := s.Contest(context.Background(), DecisionRef{ID: ids[0]}, "o", "p")
	var he *HandEditError
	if !errors.As(err, &he) || len(he.Gone) != 1 || he.Gone[0].ID != ids[1] || he.Gone[0].Op != "decide" || len(he.Edits) != 0 {
		t.Fatalf("want the deletion of %s reported, got %v", ids[1], err)
	}
	if !strings.Contains(err.Error(), "(entry id "+ids[1]+" as it wrote them)") || !strings.Contains(he.Hint(), "deleting .state/ does not accept a deletion") {
		t.Errorf("error %q hint %q", err, he.Hint())
	}
	written, _ := WrittenDecisionIDs(s.FS, s.Root)
	if gone := Vanished(tiers.ParseDecisions([]byte(readLog(t, s))), written, nil, nil); len(gone) != 1 || gone[0].ID != ids[1] {
		t.Errorf("vanished %+v", gone)
	}
	// Put back with its ID line, even reworded, the entry is no longer gone.
	afero.WriteFile(s.FS, s.Path(tiers.DecisionsPath), []byte(log), 0o644)
	if _, err := s.Contest(context.Background(), DecisionRef{ID: ids[0]}, "o", "p"); err != nil {
		t.Fatal(err)
	}
}

// An entry copied by hand keeps its original's ID: the ID is refused as
// ambiguous, the number still works, and a new entry never takes an ID
// in use.
func TestDuplicateIDRefused(t *testing.T) {
	t.Parallel()
	s, ids := threeDecided(t)
	log := readLog(t, s)
	a := tiers.ParseDecisions([]byte(log)).Entries[0].Raw
	afero.WriteFile(s.FS, s.Path(tiers.DecisionsPath), []byte(log+"\n"+a), 0o644)
	_, err := s.Contest(context.Background(), DecisionRef{ID: ids[0]}, "o", "p")
	var de *DuplicateIDError
	if !errors.As(err, &de) || len(de.Entries) != 2 || de.Entries[1].Number != 4 || !strings.HasPrefix(err.Error(), "id "+ids[0]+" names 2 entries") {
		t.Fatalf("want a DuplicateIDError, got %v", err)
	}
	if _, err := s.Contest(context.Background(), num(4), "o", "p"); err != nil {
		t.Fatalf("the copy by number: %v", err)
	}
}

func TestParseDecisionRef(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]DecisionRef{"3": {Number: 3}, "#12": {Number: 12}, " d-7f3a ": {ID: "d-7f3a"}, "D-7F3A": {ID: "D-7F3A"}} {
		if got, err := ParseDecisionRef(in); err != nil || got != want {
			t.Errorf("%q: %+v %v", in, got, err)
		}
	}
	for _, in := range []string{"0", "-1", "", "d 7", "7f3a", "#"} {
		if got, err := ParseDecisionRef(in); err == nil {
			t.Errorf("%q: accepted as %+v", in, got)
		}
	}
}

// A hand-off's decisions get the IDs planned before its commit point: the
// journal keeps them and its ledger line names them; entries written by
// hand get theirs, with an "identify" line before the hand-off's.
func TestHandoffDecisionIDs(t *testing.T) {
	t.Parallel()
	fs := afero.NewMemMapFs()
	s, _ := newHandoffStore(t, fs)
	afero.WriteFile(fs, s.Path(tiers.DecisionsPath), []byte(handWritten), 0o644)
	in := faultInput("ids")
	in.Decisions = append(in.Decisions, NewDecision{What: "Ship on Fridays", Why: "no", ID: "d-caller"})
	if _, err := WriteSession(context.Background(), s, in); err != nil {
		t.Fatal(err)
	}
	log := tiers.ParseDecisions([]byte(hoRead(t, s, tiers.DecisionsPath)))
	es, _, _ := ReadLedger(s.FS, s.Root)
	id, ho := es[len(es)-2], es[len(es)-1]
	if id.Op != "identify" || strings.Join(id.DecisionIDs, " ") != "d-e9b24e-wtest d-3e550b-wtest" {
		t.Errorf("identify line %+v", id)
	}
	want := []string{log.Entries[2].ID, log.Entries[3].ID}
	if ho.Op != "handoff" || strings.Join(ho.DecisionIDs, " ") != strings.Join(want, " ") || want[1] == "d-caller" || !tiers.ValidID(want[0]) {
		t.Errorf("hand-off line %+v, entries %+v", ho, want)
	}
	if in.Decisions[1].ID != "d-caller" {
		t.Errorf("the hand-off changed its caller's input")
	}
}

// WrittenDecisionIDs reads each ID once, from the first line naming it,
// and skips lines it cannot read.
func TestWrittenDecisionIDs(t *testing.T) {
	t.Parallel()
	fs := afero.NewMemMapFs()
	ledger := `{"at":"2026-03-01T12:00:00Z","op":"init","paths":[],"change_summary":"init"}
{"at":"2026-03-01T12:00:01Z","op":"decide","paths":["warm/decisions.md"],"change_summary":"decided","decision_ids":["d-0001"]}
{"at":"2026-03-01T12:00:02Z","op":"reverse","paths":["warm/decisions.md"],"change_summary":"re","decision_ids":["D-0001","d-0002"]}
{"at":"2026-03-01T12:00:03Z","op":"decide","decision_ids":["d-00
{"at":"2026-03-01T12:00:04Z","op":"contest","paths":[],"change_summary":"c","decision_ids":["d-0003"]}`
	afero.WriteFile(fs, testRoot+"/"+tiers.LedgerPath, []byte(ledger), 0o644)
	ws, err := WrittenDecisionIDs(fs, testRoot)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, w := range ws {
		got = append(got, w.ID+" "+w.Op)
	}
	if strings.Join(got, ", ") != "d-0001 decide, d-0002 reverse, d-0003 contest" {
		t.Errorf("written %q", got)
	}
	if ws, err := WrittenDecisionIDs(afero.NewMemMapFs(), testRoot); err != nil || ws != nil {
		t.Errorf("no ledger: %v %v", ws, err)
	}
}
