package store

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/skeleton"
	"github.com/wakeproto/wake/tiers"
)

var propWords = strings.Fields("use keep drop config parser tests cache TOML YAML SQLite cgo one binary daemon retries logs JSON every release quickly never")

func randText(r *rand.Rand) string {
	n := 1 + r.IntN(6)
	w := make([]string, n)
	for i := range w {
		w[i] = propWords[r.IntN(len(propWords))]
	}
	return strings.Join(w, " ")
}

// Property (rules 1 and 2): whatever sequence of decide, reverse, contest
// and uphold runs, every entry that existed before an operation keeps all
// its bytes, in order, in the same place relative to the rest of the file;
// only its STATUS value changes, new field lines are added at its end, and
// new entries are added at the end of the file.
func TestDecisionOperationsKeepEarlierBytes(t *testing.T) {
	t.Parallel()
	skel, err := skeleton.Files(skeleton.Params{Project: "p"})
	if err != nil {
		t.Fatal(err)
	}
	var skelLog string
	for _, f := range skel {
		if f.Path == tiers.DecisionsPath {
			skelLog = string(f.Data)
		}
	}
	starts := []string{"", skelLog, handWritten, strings.TrimSuffix(handWritten, "\n"),
		"[2026-02-14] DECISION: Use YAML BECAUSE: readability\r\nSTATUS: active\r\n",
		"prose that is not an entry\n\n[2026-02-14] DECISION: A\nBECAUSE: b\nSTATUS:   Active  \nNOTE: kept\n"}
	succeeded := map[string]int{}
	for seed := range uint64(120) {
		r := rand.New(rand.NewPCG(seed, 7))
		start := starts[int(seed)%len(starts)]
		s, tick := newDecisionStore(t, start)
		for step := range 25 {
			before := readLogOrEmpty(s)
			ledger, _, _ := ReadLedger(s.FS, s.Root)
			op, err := randomOp(s, r)
			after := readLogOrEmpty(s)
			ledgerAfter, _, _ := ReadLedger(s.FS, s.Root)
			where := fmt.Sprintf("seed %d step %d (%s)", seed, step, op)
			if err != nil {
				if after != before || len(ledgerAfter) != len(ledger) {
					t.Fatalf("%s: failed (%v) yet changed the log or the ledger", where, err)
				}
				continue
			}
			// One line of the op, after one "identify" line when the
			// operation gave entries written by hand their IDs.
			added := ledgerAfter[len(ledger):]
			if len(added) == 2 && added[0].Op == "identify" {
				checkIdentified(t, where, before, added[0])
				added = added[1:]
			}
			if len(added) != 1 || added[0].Op != op {
				t.Fatalf("%s: want exactly one %q ledger line, got %+v", where, op, ledgerAfter[len(ledger):])
			}
			checkIDs(t, where, after, added[0])
			succeeded[op]++
			checkKept(t, where, before, after)
			checkSnapshot(t, s)
			if r.IntN(3) == 0 {
				tick()
			}
		}
	}
	for _, op := range []string{"decide", "reverse", "contest", "uphold"} {
		if succeeded[op] < 20 {
			t.Errorf("only %d %s operations succeeded; the property was hardly exercised (%v)", succeeded[op], op, succeeded)
		}
	}
}

// checkIdentified: an "identify" line names exactly the entries that had
// no ID before the operation.
func checkIdentified(t *testing.T, where, before string, e Entry) {
	t.Helper()
	var want []string
	for _, a := range tiers.PlanIDs(tiers.ParseDecisions([]byte(before)), nil, "wtest") {
		want = append(want, a.ID)
	}
	if strings.Join(e.DecisionIDs, " ") != strings.Join(want, " ") {
		t.Fatalf("%s: identify names %v, want %v", where, e.DecisionIDs, want)
	}
}

// checkIDs: after every operation each entry has one ID, none shared,
// and the op's ledger line names IDs the log holds.
func checkIDs(t *testing.T, where, after string, e Entry) {
	t.Helper()
	log := tiers.ParseDecisions([]byte(after))
	for _, d := range log.Entries {
		if !tiers.ValidID(d.ID) {
			t.Fatalf("%s: entry %d has ID %q", where, d.Number, d.ID)
		}
	}
	if dups := log.DuplicateIDs(); len(dups) > 0 {
		t.Fatalf("%s: IDs shared: %+v", where, dups)
	}
	for _, id := range e.DecisionIDs {
		if len(log.ByID(id)) != 1 {
			t.Fatalf("%s: the ledger names %s, which the log does not hold once", where, id)
		}
	}
}

// randomOp runs one random operation, sometimes on a number the log does
// not have or on an entry in the wrong state.
func randomOp(s *Store, r *rand.Rand) (string, error) {
	ctx := context.Background()
	n := len(tiers.ParseDecisions([]byte(readLogOrEmpty(s))).Entries)
	pick := 1 + r.IntN(n+1)
	var topic string
	if r.IntN(3) == 0 {
		topic = propWords[r.IntN(4)]
	}
	var err error
	op := []string{"decide", "reverse", "contest", "uphold"}[r.IntN(4)]
	switch op {
	case "decide":
		_, err = s.Decide(ctx, NewDecision{What: randText(r), Why: randText(r), Topic: topic})
	case "reverse":
		_, err = s.Reverse(ctx, num(pick), NewDecision{What: randText(r), Why: randText(r), Topic: topic})
	case "contest":
		_, err = s.Contest(ctx, num(pick), randText(r), randText(r))
	case "uphold":
		_, err = s.Uphold(ctx, num(pick), randText(r))
	}
	return op, err
}

// checkKept compares the log before and after a successful operation.
func checkKept(t *testing.T, where, before, after string) {
	t.Helper()
	old, cur := tiers.ParseDecisions([]byte(before)), tiers.ParseDecisions([]byte(after))
	if len(cur.Entries) < len(old.Entries) {
		t.Fatalf("%s: %d entries became %d", where, len(old.Entries), len(cur.Entries))
	}
	// Put each old entry's bytes back in place of its new version: the
	// result must be "before" followed by new entries only.
	got := after
	for i := len(old.Entries) - 1; i >= 0; i-- {
		o, c := old.Entries[i], cur.Entries[i]
		oraw, craw := blankStatus(o), blankStatus(c)
		if !strings.HasPrefix(craw, oraw) {
			t.Fatalf("%s: entry %d lost bytes:\nbefore %q\nafter  %q", where, o.Number, o.Raw, c.Raw)
		}
		for _, l := range strings.Split(strings.TrimSuffix(strings.TrimPrefix(craw[len(oraw):], "\n"), "\n"), "\n") {
			if l != "" && !isFieldLine(l) {
				t.Fatalf("%s: entry %d gained a line that is not a field: %q", where, o.Number, l)
			}
		}
		got = got[:c.Bytes.Start] + o.Raw + got[c.Bytes.End:]
	}
	if !strings.HasPrefix(got, before) {
		t.Fatalf("%s: the file outside the entries changed:\nbefore %q\nafter  %q", where, before, got)
	}
	rest := tiers.ParseDecisions([]byte(strings.TrimLeft(got[len(before):], "\r\n")))
	if len(rest.Entries) != len(cur.Entries)-len(old.Entries) || len(rest.Malformed) > 0 {
		t.Fatalf("%s: what follows the old text is not just new entries: %q", where, got[len(before):])
	}
}

// blankStatus returns the entry's bytes with its STATUS value as "*".
func blankStatus(e tiers.Decision) string {
	if !e.HasStatus() {
		return e.Raw
	}
	v := e.StatusValue
	return e.Raw[:v.Start-e.Bytes.Start] + "*" + e.Raw[v.End-e.Bytes.Start:]
}

func isFieldLine(l string) bool {
	for _, k := range []string{tiers.KeyStatus, tiers.KeyReversedBy, tiers.KeyObjection, tiers.KeyProposed, tiers.KeyUpheld, tiers.KeyID} {
		if strings.HasPrefix(strings.TrimSuffix(l, "\r"), k+": ") {
			return true
		}
	}
	return false
}

func readLogOrEmpty(s *Store) string {
	data, _ := afero.ReadFile(s.FS, s.Path(tiers.DecisionsPath))
	return string(data)
}

// Every entry wake writes, annotations included, parses and renders back to
// exactly its bytes.
func FuzzWakeWrittenEntries(f *testing.F) {
	f.Add("Use TOML for config", "YAML indentation broke parsing", "config", "TOML is slow", "keep YAML", "still right")
	f.Add(" padded ", "\tx", "", "o", "p", "w")
	f.Add("Use cgo: no", "STATUS: active", "a BECAUSE: b", "<!--", "-->", "[2026-01-01] DECISION: x")
	f.Fuzz(func(t *testing.T, what, why, topic, objection, proposal, upheld string) {
		ctx := context.Background()
		s, tick := newDecisionStore(t, "")
		if _, err := s.Decide(ctx, NewDecision{What: what, Why: why, Topic: topic}); err != nil {
			return
		}
		tick()
		if _, err := s.Contest(ctx, num(1), objection, proposal); err == nil {
			s.Uphold(ctx, num(1), upheld)
			s.Contest(ctx, num(1), objection, proposal)
		}
		s.Reverse(ctx, num(1), NewDecision{What: why, Why: what, Topic: topic})
		log := tiers.ParseDecisions([]byte(readLog(t, s)))
		if len(log.Malformed) > 0 || len(log.Entries) == 0 {
			t.Fatalf("wake's own writes read back malformed: %+v\n%s", log.Malformed, readLog(t, s))
		}
		for _, e := range log.Entries {
			if r := renderEntry(e); r != e.Raw {
				t.Fatalf("entry %d: render\n%q\nraw\n%q", e.Number, r, e.Raw)
			}
		}
		if e := log.Entries[0]; e.What != strings.TrimSpace(what) || e.Why != strings.TrimSpace(why) {
			t.Fatalf("entry 1 reads back as %q / %q", e.What, e.Why)
		}
	})
}

// renderEntry formats a parsed entry from its fields as wake writes one:
// for an entry wake wrote it gives back its text exactly.
func renderEntry(d tiers.Decision) string {
	var b strings.Builder
	for _, f := range d.Fields {
		if f.Key == tiers.KeyDecision {
			fmt.Fprintf(&b, "[%s] %s: %s\n", d.Date, tiers.KeyDecision, f.Value)
		} else {
			fmt.Fprintf(&b, "%s: %s\n", f.Key, f.Value)
		}
	}
	return b.String()
}
