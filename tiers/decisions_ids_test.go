package tiers

import (
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// An ID line is a field; its value is the entry's ID, compared without
// regard to case. "ID:" on the DECISION line stays part of the reason.
func TestParseDecisionsIDs(t *testing.T) {
	t.Parallel()
	in := `[2026-01-01] DECISION: A BECAUSE: x
ID: d-7f3a
STATUS: active

[2026-01-02] DECISION: B BECAUSE: the user ID: U123 is stable STATUS: reversed
REVERSED_BY: [2026-01-03] C BECAUSE: y
ID: D-0042

[2026-01-04] DECISION: E BECAUSE: z
`
	log := ParseDecisions([]byte(in))
	if len(log.Malformed) != 0 || len(log.Entries) != 3 {
		t.Fatalf("entries %d, malformed %+v", len(log.Entries), log.Malformed)
	}
	a, b, e := log.Entries[0], log.Entries[1], log.Entries[2]
	if a.ID != "d-7f3a" || b.ID != "D-0042" || e.ID != "" || e.HasIDLine() {
		t.Errorf("IDs %q %q %q", a.ID, b.ID, e.ID)
	}
	if b.Why != "the user ID: U123 is stable" || b.Status != StatusReversed || b.ReversedBy() != "[2026-01-03] C BECAUSE: y" {
		t.Errorf("one-line entry with an ID line after it: why %q status %q reversed by %q", b.Why, b.Status, b.ReversedBy())
	}
	if got := log.ByID("d-0042"); len(got) != 1 || got[0].Number != 2 {
		t.Errorf("ByID is case-blind: %+v", got)
	}
	if a.Name() != "1 (id d-7f3a)" || e.Name() != "3" || a.Ref() != "d-7f3a" || e.Ref() != "3" {
		t.Errorf("names %q %q refs %q %q", a.Name(), e.Name(), a.Ref(), e.Ref())
	}
	if a.Render() != a.Raw {
		t.Errorf("render %q raw %q", a.Render(), a.Raw)
	}
}

func TestParseDecisionsBadIDs(t *testing.T) {
	t.Parallel()
	log := ParseDecisions([]byte("[2026-01-01] DECISION: A BECAUSE: x\nID:\n\n" +
		"[2026-01-02] DECISION: B BECAUSE: y\nID: 42\n\n" +
		"[2026-01-03] DECISION: C BECAUSE: z\nID: d-1\nID: d-2\n"))
	want := []MalformedLine{
		{2, "ID:", "entry 1: the ID is empty"},
		{5, "ID: 42", `entry 2: ID "42" is not one word of letters, digits, - and _ starting with a letter`},
		{9, "ID: d-2", "entry 3: a second ID line; the first one counts"},
	}
	if !reflect.DeepEqual(log.Malformed, want) {
		t.Errorf("malformed:\n got  %+v\n want %+v", log.Malformed, want)
	}
	if id := log.Entries[2].ID; id != "d-1" {
		t.Errorf("first ID line counts: %q", id)
	}
	if !log.Entries[0].HasIDLine() || PlanIDs(log, nil, "") != nil {
		t.Errorf("an entry with an ID line, even an empty one, is not given another")
	}
}

func TestDeriveID(t *testing.T) {
	t.Parallel()
	none := func(string) bool { return false }
	id := DeriveID("", "2026-02-14", "Use  YAML\nfor config", none)
	if !regexp.MustCompile(`^d-[0-9a-f]{4}$`).MatchString(id) {
		t.Fatalf("ID %q is not d- and four hex digits", id)
	}
	if again := DeriveID("", "2026-02-14", "Use YAML for config", none); again != id {
		t.Errorf("the same entry gives %q then %q; white space in the text must not count", id, again)
	}
	if other := DeriveID("", "2026-02-15", "Use YAML for config", none); other == id {
		t.Errorf("another date gives the same ID %q", id)
	}
	taken := IDSet{}
	taken.Add(id)
	if next := DeriveID("", "2026-02-14", "Use YAML for config", taken.Has); next == id || !ValidID(next) {
		t.Errorf("a taken ID is given again: %q", next)
	}
	// Every four-digit ID taken: the derivation still ends, with eight.
	if long := DeriveID("", "2026-02-14", "x", func(s string) bool { return len(s) == 6 }); len(long) != 10 {
		t.Errorf("crowded: %q", long)
	}
}

// The IDs a listing shows for entries without one are those the next
// write gives: they avoid the log's IDs, the ledger's and each other's.
func TestPlanIDs(t *testing.T) {
	t.Parallel()
	text := "[2026-01-01] DECISION: Same BECAUSE: x\n\n[2026-01-01] DECISION: Same BECAUSE: copied\n\n[2026-01-02] DECISION: Kept BECAUSE: y\nID: d-0001\n"
	log := ParseDecisions([]byte(text))
	first := DeriveID("", "2026-01-01", "Same", func(string) bool { return false })
	plan := PlanIDs(log, nil, "")
	if len(plan) != 2 || plan[0] != (Assignment{1, first}) || plan[1].Number != 2 || plan[1].ID == first {
		t.Fatalf("plan %+v (first %s)", plan, first)
	}
	if again := PlanIDs(log, nil, ""); !reflect.DeepEqual(again, plan) {
		t.Errorf("the plan is not stable: %+v then %+v", plan, again)
	}
	known := IDSet{}
	known.Add(first)
	if p := PlanIDs(log, known, ""); p[0].ID == first {
		t.Errorf("an ID the ledger knows is given again: %+v", p)
	}
}

func TestDuplicateIDs(t *testing.T) {
	t.Parallel()
	entry := "[2026-01-01] DECISION: A BECAUSE: x\nID: d-7f3a\n"
	log := ParseDecisions([]byte(entry + "\n[2026-01-02] DECISION: B BECAUSE: y\nID: d-0001\n\n" + strings.Replace(entry, "d-7f3a", "D-7F3A", 1)))
	dups := log.DuplicateIDs()
	if len(dups) != 1 || len(dups[0]) != 2 || dups[0][0].Number != 1 || dups[0][1].Number != 3 {
		t.Errorf("duplicates %+v", dups)
	}
}

// TestDeriveIDWithWriter: with a writer the ID is six hex digits and the
// writer, two writers never give the same one, and it is found again by
// its first four digits unless another shares them.
func TestDeriveIDWithWriter(t *testing.T) {
	t.Parallel()
	none := func(string) bool { return false }
	a := DeriveID("k3f9qa", "2026-02-14", "Use YAML for config", none)
	b := DeriveID("zz2abc", "2026-02-14", "Use YAML for config", none)
	if a == b || !ValidID(a) || len(a) != len("d-7f3a9c-k3f9qa") || a[8:] != "-k3f9qa" {
		t.Fatalf("ids %q and %q", a, b)
	}
	log := ParseDecisions([]byte("[2026-02-14] DECISION: x BECAUSE: y\nID: " + a + "\n\n[2026-02-14] DECISION: z BECAUSE: y\nID: d-1234\n"))
	for _, tc := range []struct {
		ref  string
		want int
	}{{a, 1}, {a[:6], 1}, {a[:9], 1}, {"d-1234", 1}, {a[:5], 0}, {"D-" + a[2:6], 1}, {"d-zzzz", 0}} {
		if got := log.Match(tc.ref); len(got) != tc.want {
			t.Errorf("Match(%q) = %d entries, want %d", tc.ref, len(got), tc.want)
		}
	}
}
