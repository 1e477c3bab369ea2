package merge

import (
	"strings"
	"testing"

	"github.com/wakeproto/wake/tiers"
)

const logHead = "---\nsummary: Decision log\n---\n# Decisions\n\n"

const goEntry = "[2026-11-20] DECISION: Use Go BECAUSE: fast\nID: d-0001\nSTATUS: active\n"

func entry(what, id string, lines ...string) string {
	s := "[2026-11-21] DECISION: " + what + " BECAUSE: why\nID: " + id + "\nSTATUS: active\n"
	for _, l := range lines {
		s += l + "\n"
	}
	return s
}

func mergeLog(t *testing.T, base, ours, theirs string) (string, Result) {
	t.Helper()
	r, err := File(opts(t, ".wake/warm/decisions.md"), []byte(base), []byte(ours), []byte(theirs))
	if err != nil {
		t.Fatal(err)
	}
	return string(r.Data), r
}

func statusOfID(t *testing.T, text, id string) (string, tiers.Decision) {
	t.Helper()
	es := tiers.ParseDecisions([]byte(text)).ByID(id)
	if len(es) != 1 {
		t.Fatalf("%d entries with id %s in\n%s", len(es), id, text)
	}
	return es[0].Status, es[0]
}

func TestDecisionsUnionKeepsBytes(t *testing.T) {
	base := logHead + goEntry
	ours := base + "\n" + entry("Use SQLite", "d-0002")
	theirs := base + "\n" + entry("Use TOML", "d-0003")
	got, r := mergeLog(t, base, ours, theirs)
	want := ours + "\n" + entry("Use TOML", "d-0003")
	if got != want || r.Conflict {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	// Merged again with the same side: nothing new.
	if again, _ := mergeLog(t, base, got, theirs); again != got {
		t.Errorf("a second merge changed it:\n%s", again)
	}
}

func TestDecisionsDoubleReversalContested(t *testing.T) {
	base := logHead + goEntry
	rev := func(by, id string) string {
		return logHead + strings.Replace(goEntry, "STATUS: active", "STATUS: reversed", 1) +
			"REVERSED_BY: [2026-11-22] " + by + " BECAUSE: x\n\n" + entry(by, id)
	}
	got, r := mergeLog(t, base, rev("Use Rust", "d-00r1"), rev("Use Zig", "d-00z1"))
	st, e := statusOfID(t, got, "d-0001")
	if st != tiers.StatusContested {
		t.Fatalf("status %q, want contested:\n%s", st, got)
	}
	if len(e.Values(tiers.KeyReversedBy)) != 2 || !strings.Contains(e.Value(tiers.KeyObjection), doubleReversal) || !strings.Contains(e.Value(tiers.KeyObjection), ".wake/warm/decisions.md") {
		t.Errorf("want both reversals and an objection naming the merge:\n%s", e.Raw)
	}
	if len(r.Notes) != 1 {
		t.Errorf("notes %v", r.Notes)
	}
	for _, id := range []string{"d-00r1", "d-00z1"} {
		if st, _ := statusOfID(t, got, id); st != tiers.StatusActive {
			t.Errorf("%s: %s", id, st)
		}
	}
	// The same two met again: no second objection.
	again, _ := mergeLog(t, base, got, rev("Use Zig", "d-00z1"))
	if strings.Count(again, doubleReversal) != 1 {
		t.Errorf("objection written twice:\n%s", again)
	}
}

func TestDecisionsAnnotationsUnionAndPrecedence(t *testing.T) {
	contested := func(extra ...string) string {
		lines := append([]string{"OBJECTION: [2026-11-22] too slow", "PROPOSED: use C"}, extra...)
		return logHead + strings.Replace(goEntry, "active", "contested", 1) + strings.Join(lines, "\n") + "\n"
	}
	base := contested()
	// Ours upholds; theirs objects again later: contested, both kept by date.
	ours := strings.Replace(contested("UPHELD: [2026-11-23] speed is fine"), "contested", "active", 1)
	theirs := contested("OBJECTION: [2026-11-24] still slow", "PROPOSED: use Rust")
	got, _ := mergeLog(t, base, ours, theirs)
	st, e := statusOfID(t, got, "d-0001")
	if st != tiers.StatusContested || len(e.Values(tiers.KeyObjection)) != 2 || len(e.Values(tiers.KeyUpheld)) != 1 {
		t.Errorf("status %s:\n%s", st, got)
	}
	if strings.Index(got, "UPHELD") > strings.Index(got, "still slow") {
		t.Errorf("annotations not by date:\n%s", got)
	}
	// An uphold newer than the last objection gives active.
	theirs = contested("OBJECTION: [2026-11-21] an older one")
	got, _ = mergeLog(t, base, ours, theirs)
	if st, _ := statusOfID(t, got, "d-0001"); st != tiers.StatusActive {
		t.Errorf("status %s, want active:\n%s", st, got)
	}
	// Reversed over contested.
	theirs = logHead + strings.Replace(goEntry, "active", "reversed", 1) + "OBJECTION: [2026-11-22] too slow\nPROPOSED: use C\nREVERSED_BY: [2026-11-25] Use C BECAUSE: speed\n"
	got, _ = mergeLog(t, base, ours, theirs)
	if st, _ := statusOfID(t, got, "d-0001"); st != tiers.StatusReversed {
		t.Errorf("status %s, want reversed:\n%s", st, got)
	}
}

func TestDecisionsCRLF(t *testing.T) {
	crlf := func(s string) string { return strings.ReplaceAll(s, "\n", "\r\n") }
	base := crlf(logHead + goEntry)
	ours := crlf(logHead+goEntry) + "\r\n" + crlf(entry("Use SQLite", "d-0002"))
	theirs := logHead + goEntry + "\n" + entry("Use TOML", "d-0003") // LF on that machine
	got, _ := mergeLog(t, base, ours, theirs)
	want := ours + "\r\n" + crlf(entry("Use TOML", "d-0003"))
	if got != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
	// Annotated on both sides, in CRLF: the entry stays CRLF.
	o := crlf(logHead + strings.Replace(goEntry, "active", "contested", 1) + "OBJECTION: [2026-11-22] a\nPROPOSED: b\n")
	th := crlf(logHead + strings.Replace(goEntry, "active", "contested", 1) + "OBJECTION: [2026-11-23] c\nPROPOSED: d\n")
	got, _ = mergeLog(t, base, o, th)
	if strings.Contains(strings.ReplaceAll(got, "\r\n", ""), "\n") {
		t.Errorf("a bare LF in a CRLF log: %q", got)
	}
}

func TestDecisionsSharedIDBothKept(t *testing.T) {
	base := logHead + goEntry
	ours := base + "\n" + entry("Use SQLite", "d-0002")
	theirs := base + "\n" + entry("Use Postgres", "d-0002")
	got, _ := mergeLog(t, base, ours, theirs)
	if !strings.Contains(got, "Use SQLite") || !strings.Contains(got, "Use Postgres") {
		t.Errorf("an entry lost:\n%s", got)
	}
}

func TestDecisionsCompactedOnOneSide(t *testing.T) {
	old := entry("Use YAML", "d-0009")
	base := logHead + goEntry + "\n" + old
	ours := logHead + goEntry // wake compact moved d-0009 to cold/
	theirs := base + "\n" + entry("Use TOML", "d-0003")
	got, _ := mergeLog(t, base, ours, theirs)
	if strings.Contains(got, "d-0009") || !strings.Contains(got, "d-0003") {
		t.Errorf("got\n%s", got)
	}
}

func TestDecisionsPreambleThreeWay(t *testing.T) {
	base := logHead + goEntry
	ours := strings.Replace(base, "# Decisions", "# Decisions of the bakery", 1)
	theirs := base + "\n" + entry("Use TOML", "d-0003")
	got, _ := mergeLog(t, base, ours, theirs)
	if !strings.HasPrefix(got, "---\nsummary: Decision log\n---\n# Decisions of the bakery\n") || !strings.Contains(got, "d-0003") {
		t.Errorf("got\n%s", got)
	}
}

// TestDecisionsLooseLinesKept: a heading or note theirs wrote between
// entries is not lost.
func TestDecisionsLooseLinesKept(t *testing.T) {
	base := logHead + goEntry
	ours := base + "\n" + entry("Use SQLite", "d-0002")
	theirs := base + "\n## Storage\n\nnot sure yet\n\n" + entry("Use TOML", "d-0003")
	got, _ := mergeLog(t, base, ours, theirs)
	if !strings.Contains(got, "## Storage") || !strings.Contains(got, "not sure yet") || !strings.Contains(got, "d-0003") {
		t.Errorf("got\n%s", got)
	}
	if again, _ := mergeLog(t, base, got, theirs); again != got {
		t.Errorf("a second merge changed it:\n%s", again)
	}
}
