package checks

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/wakeproto/wake/store"
	"github.com/wakeproto/wake/tiers"
)

func decisionsMemory(log, lastWrite string) Memory {
	m := Memory{Decisions: tiers.Doc{Path: tiers.DecisionsPath, Content: []byte(log)}}
	if lastWrite != "" {
		m.LastWrite = []byte(lastWrite)
	}
	return m
}

const twoActive = `[2026-01-01] DECISION: Use YAML for config BECAUSE: readability
STATUS: active

[2026-01-05] DECISION: Use TOML for config BECAUSE: fewer parse errors
STATUS: active
`

// An uphold then a reverse to the same text leaves two active entries
// saying the same thing: no contradiction, but flagged.
func TestCheckDecisionsDuplicates(t *testing.T) {
	t.Parallel()
	log := "[2026-01-01] DECISION: Use TOML for config BECAUSE: readable\nSTATUS: active\nOBJECTION: [2026-01-02] YAML\nUPHELD: [2026-01-03] still TOML\n\n" +
		"[2026-01-04] DECISION: use TOML for config. BECAUSE: readable\nSTATUS: active\n\n" +
		"[2026-01-05] DECISION: Money in cents BECAUSE: rounding\nSTATUS: active\n"
	var found []string
	for _, f := range CheckDecisions(decisionsMemory(log, "")) {
		if f.Severity == Fail {
			t.Errorf("duplicates fail the check: %+v", f)
		}
		if strings.Contains(f.Message, "same text") {
			found = append(found, f.Details...)
		}
	}
	want := []string{`entries 1 and 2 are active with the same text "Use TOML for config"; reverse the later ones as duplicates of entry 1 ('wake reverse' keeps them as history)`}
	if !reflect.DeepEqual(found, want) {
		t.Errorf("got %q\nwant %q", found, want)
	}
}

func TestCheckDecisions(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, log, last string
		details         []string // nil: the check passes
	}{
		{"empty log", "", "", nil},
		{"a contradictory pair", twoActive, "", []string{
			`entries 1 and 2 contradict: "Use YAML for config" against "Use TOML for config" (the same subject with another choice: "yaml" against "toml")`}},
		{"a negation", "[2026-01-01] DECISION: Use cgo BECAUSE: speed\n\n[2026-01-02] DECISION: Do not use cgo BECAUSE: cross-compiling\nSTATUS: active\n", "", []string{
			`entries 1 and 2 contradict: "Use cgo" against "Do not use cgo" (one negates the other with "do not")`}},
		{"the pair once one is reversed", strings.Replace(twoActive, "STATUS: active", "STATUS: reversed\nREVERSED_BY: [2026-01-05] Use TOML for config BECAUSE: fewer parse errors", 1), "", nil},
		{"different topics are different subjects", strings.Replace(twoActive, "STATUS: active\n", "STATUS: active\nTOPIC: app config\n", 1) +
			"TOPIC: test fixtures\n", "", nil},
		{"same topic", "[2026-01-01] DECISION: Store entries in SQLite BECAUSE: one file\nSTATUS: active\nTOPIC: Storage\n\n" +
			"[2026-01-02] DECISION: Money in cents BECAUSE: rounding\nTOPIC: money\n\n" +
			"[2026-01-03] DECISION: Put the journal in Postgres BECAUSE: concurrency\nSTATUS: active\nTOPIC: storage\n", "", []string{
			`entries 1 and 3 are both active with TOPIC "Storage" (1: "Store entries in SQLite"; 3: "Put the journal in Postgres"); the one that no longer holds should be reversed`}},
		{"reversed without REVERSED_BY and the reverse", "[2026-01-01] DECISION: A thing BECAUSE: x\nSTATUS: reversed\n\n" +
			"[2026-01-02] DECISION: B thing BECAUSE: y\nSTATUS: active\nREVERSED_BY: [2026-01-03] C BECAUSE: z\n", "", []string{
			"entry 1 ([2026-01-01] A thing) is reversed but has no REVERSED_BY saying what replaced it and why",
			"entry 2 ([2026-01-02] B thing) has a REVERSED_BY but its STATUS is active, not reversed"}},
		{"contested", "[2026-01-01] DECISION: Keep one binary BECAUSE: installs\nSTATUS: contested\nOBJECTION: [2026-01-02] startup is slow\nPROPOSED: split the daemon\n", "", []string{
			`entry 1 ([2026-01-01] Keep one binary) is contested and awaits the user: objection "[2026-01-02] startup is slow", proposed "split the daemon"; the user settles it with 'wake reverse 1' or 'wake uphold 1'`}},
		{"reversed differently on two branches", "[2026-01-01] DECISION: Use Go BECAUSE: known\nID: d-1a2b3c-aaaaaa\nSTATUS: contested\n" +
			"REVERSED_BY: [2026-01-02] Use Rust BECAUSE: safe\nREVERSED_BY: [2026-01-02] Use Zig BECAUSE: small\n" +
			"OBJECTION: [2026-01-03] reversed differently on two branches\nPROPOSED: keep one\n", "", []string{
			`entry 1 (id d-1a2b3c-aaaaaa) ([2026-01-01] Use Go) is contested and awaits the user: objection "[2026-01-03] reversed differently on two branches", proposed "keep one"; the user settles it with 'wake reverse d-1a2b3c-aaaaaa' or 'wake uphold d-1a2b3c-aaaaaa'`}},
		{"upheld after two reversals", "[2026-01-01] DECISION: Use Go BECAUSE: known\nSTATUS: active\n" +
			"REVERSED_BY: [2026-01-02] Use Rust BECAUSE: safe\nREVERSED_BY: [2026-01-02] Use Zig BECAUSE: small\n" +
			"OBJECTION: [2026-01-03] reversed differently on two branches\nPROPOSED: keep one\nUPHELD: [2026-01-04] Go after all\n", "", nil},
		{"hand-deleted entry", strings.SplitAfter(twoActive, "\n\n")[1], twoActive, []string{
			"entry 1 as wake last wrote it ([2026-01-01] Use YAML for config) was deleted by hand, against rule 2 (annotate, don't delete); removed lines:\n" +
				"1: [2026-01-01] DECISION: Use YAML for config BECAUSE: readability\n2: STATUS: active"}},
		{"hand-edited status", strings.Replace(twoActive, "STATUS: active", "STATUS: reversed\nREVERSED_BY: x", 1), twoActive, []string{
			"entry 1 as wake last wrote it ([2026-01-01] Use YAML for config) was edited by hand, against rule 2 (annotate, don't delete); removed lines:\n2: STATUS: active"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs := CheckDecisions(decisionsMemory(tc.log, tc.last))
			f := fs[0]
			if tc.details == nil {
				if !f.Pass || f.Severity != OK || len(fs) != 1 {
					t.Fatalf("want a pass, got %+v", fs)
				}
				return
			}
			if f.Pass || f.Severity != Fail || f.Message != MsgConsistency || f.Path != tiers.DecisionsPath {
				t.Fatalf("want the consistency failure, got %+v", f)
			}
			if !reflect.DeepEqual(f.Details, tc.details) {
				t.Errorf("details:\n got  %q\n want %q", f.Details, tc.details)
			}
		})
	}
}

const withIDs = `[2026-01-01] DECISION: Keep one binary BECAUSE: installs
ID: d-0001
STATUS: contested
OBJECTION: [2026-01-02] startup is slow
PROPOSED: split the daemon

[2026-01-03] DECISION: Money in cents BECAUSE: rounding
ID: d-0002
STATUS: active
`

// Entries with an ID are named by it too, and the user is pointed at the
// ID, which does not move.
func TestCheckDecisionsNamesIDs(t *testing.T) {
	t.Parallel()
	fs := CheckDecisions(decisionsMemory(withIDs, ""))
	want := []string{`entry 1 (id d-0001) ([2026-01-01] Keep one binary) is contested and awaits the user: objection "[2026-01-02] startup is slow", proposed "split the daemon"; the user settles it with 'wake reverse d-0001' or 'wake uphold d-0001'`}
	if !reflect.DeepEqual(fs[0].Details, want) {
		t.Errorf("details:\n got  %q\n want %q", fs[0].Details, want)
	}
}

// An entry copied by hand keeps its original's ID: a problem, since an ID
// must name one entry.
func TestCheckDecisionsDuplicateIDs(t *testing.T) {
	t.Parallel()
	second := strings.SplitAfter(withIDs, "\n\n")[1]
	fs := CheckDecisions(decisionsMemory(second+"\n"+strings.Replace(second, "2026-01-03", "2026-01-09", 1), ""))
	want := []string{"entries 1 ([2026-01-03] Money in cents) and 2 ([2026-01-09] Money in cents) both have ID d-0002, which must name one entry: likely a copy made by hand, or a merge of branches that each wrote an entry with that ID without wake's merge driver ('wake init' sets it up); remove the ID line of the later entry, and wake gives it an ID of its own at its next write"}
	if fs[0].Pass || !reflect.DeepEqual(fs[0].Details, want) {
		t.Errorf("findings %+v", fs)
	}
}

// Without wake's snapshot (.state/ deleted), an ID the ledger records wake
// writing that no entry has is reported as deleted by hand; with the
// snapshot, the entry is reported once, with its lines.
func TestCheckDecisionsVanishedIDs(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 1, 3, 9, 0, 0, 0, time.UTC)
	written := []store.WrittenID{{ID: "d-0001", At: at, Op: "identify", ChangeSummary: "gave ids"},
		{ID: "d-0002", At: at, Op: "decide", ChangeSummary: "decided #2 (id d-0002): Money in cents"}}
	first := strings.SplitAfter(withIDs, "\n\n")[0]
	m := decisionsMemory(strings.Replace(first, "STATUS: contested", "STATUS: active", 1), "")
	m.Written = written
	fs := CheckDecisions(m)
	want := []string{`entry id d-0002, which the ledger records wake writing (decide 2026-01-03T09:00:00Z: "decided #2 (id d-0002): Money in cents"), is no longer in the log: deleted by hand or its ID line edited, against rule 2 (annotate, don't delete); put it back with its ID line`}
	if fs[0].Pass || !reflect.DeepEqual(fs[0].Details, want) {
		t.Fatalf("findings %+v", fs)
	}
	m.LastWrite = []byte(strings.Replace(withIDs, "STATUS: contested", "STATUS: active", 1))
	if d := CheckDecisions(m)[0].Details; len(d) != 1 || !strings.HasPrefix(d[0], "entry 2 (id d-0002) as wake last wrote it ([2026-01-03] Money in cents) was deleted by hand") {
		t.Errorf("with the snapshot: %q", d)
	}
	m = decisionsMemory(strings.Replace(withIDs, "STATUS: contested", "STATUS: active", 1), "")
	m.Written = written
	if fs := CheckDecisions(m); !fs[0].Pass || !strings.HasSuffix(fs[0].Message, ", none the ledger records wake writing is missing") {
		t.Errorf("all there: %+v", fs)
	}
	many := make([]store.WrittenID, 3*maxListed)
	for i := range many {
		many[i] = store.WrittenID{ID: fmt.Sprintf("d-%04x", 100+i), At: at, Op: "decide", ChangeSummary: "x"}
	}
	if d := CheckDecisions(Memory{Decisions: m.Decisions, Written: many})[0].Details; len(d) != maxListed+1 || d[maxListed] != fmt.Sprintf("and %d more ids the ledger records wake writing are no longer in the log", 2*maxListed) {
		t.Errorf("a log emptied by hand: %d details, last %q", len(d), d[len(d)-1])
	}
	m.WrittenSkipped = "ledger.jsonl: not read: a directory"
	if fs := CheckDecisions(m); len(fs) != 2 || fs[1].Severity != Warning || !strings.Contains(fs[1].Message, "a directory") {
		t.Errorf("unreadable ledger: %+v", fs)
	}
}

func TestCheckDecisionsMalformedIsAWarning(t *testing.T) {
	t.Parallel()
	var log strings.Builder
	log.WriteString("[2026-01-01] DECISION: A BECAUSE: b\nSTATUS: active\n\n")
	for range 25 {
		log.WriteString("- stray bullet\n")
	}
	fs := CheckDecisions(decisionsMemory(log.String(), ""))
	if len(fs) != 2 || !fs[0].Pass || fs[1].Severity != Warning || !fs[1].Pass {
		t.Fatalf("findings %+v", fs)
	}
	w := fs[1]
	if w.Message != "25 line(s) of warm/decisions.md are not part of a valid entry; they are kept as written" ||
		len(w.Details) != maxMalformedShown+1 || w.Details[maxMalformedShown] != "and 5 more" ||
		!strings.HasPrefix(w.Details[0], "line 4: not part of a decision entry") {
		t.Errorf("warning %+v", w)
	}
}

func TestCheckDecisionsUnreadable(t *testing.T) {
	t.Parallel()
	m := Memory{Decisions: tiers.Doc{Path: tiers.DecisionsPath, Skipped: "binary file (NUL byte at offset 3)"}}
	fs := CheckDecisions(m)
	if len(fs) != 1 || fs[0].Severity != Warning || !strings.Contains(fs[0].Message, "binary file") {
		t.Errorf("findings %+v", fs)
	}
}

// A huge log makes no huge finding: the pairs listed are bounded, and
// every active entry is compared, the oldest too, however many there are.
func TestCheckDecisionsHugeLog(t *testing.T) {
	t.Parallel()
	const n = 400
	var same, clash strings.Builder
	for i := range n {
		fmt.Fprintf(&same, "[2026-01-01] DECISION: Adopt practice number %d for the build BECAUSE: it saves time\nSTATUS: active\nTOPIC: build\n\n", i)
		fmt.Fprintf(&clash, "[2026-01-01] DECISION: Retry failed uploads %d times BECAUSE: flaky network\nSTATUS: active\n\n", i)
	}
	fs := CheckDecisions(decisionsMemory(strings.ReplaceAll(same.String(), "TOPIC: build\n", ""), ""))
	if len(fs) != 1 || !fs[0].Pass || fs[0].Message != fmt.Sprintf("%d decisions, %d active: no contradictions, none contested", n, n) {
		t.Errorf("numbered practices: %+v", fs)
	}
	fs = CheckDecisions(decisionsMemory(clash.String(), ""))
	if d := fs[0].Details; len(d) != maxListed+1 || d[maxListed] != fmt.Sprintf("and %d more contradicting pairs", n*(n-1)/2-maxListed) ||
		!strings.HasPrefix(d[0], "entries 1 and 2 contradict") {
		t.Errorf("contradicting retries: %d details, first %q, last %q", len(d), d[0], d[len(d)-1])
	}
	// The oldest entry against the newest.
	oldest := "[2026-01-01] DECISION: Store invoices in SQLite BECAUSE: one file\nSTATUS: active\n\n"
	newest := "[2026-01-02] DECISION: Store invoices in Postgres BECAUSE: replicas\nSTATUS: active\n\n"
	fs = CheckDecisions(decisionsMemory(oldest+strings.ReplaceAll(same.String(), "TOPIC: build\n", "")+newest, ""))
	if d := fs[0].Details; fs[0].Pass || len(d) != 1 || !strings.HasPrefix(d[0], fmt.Sprintf("entries 1 and %d contradict", n+2)) {
		t.Errorf("oldest against newest: %+v", fs)
	}
	fs = CheckDecisions(decisionsMemory(same.String(), ""))
	if d := fs[0].Details; len(d) != 1 || len(d[0]) > 600 || !strings.HasPrefix(d[0], "entries 1, 2, 3") || !strings.Contains(d[0], fmt.Sprintf("and %d more are all active", n-maxListed)) {
		t.Errorf("one TOPIC: %q", d)
	}
}

// Only the head of a huge log is read: its unread tail is not reported as
// deleted by hand, and the check says what it could not look at.
func TestCheckDecisionsHugeFileHead(t *testing.T) {
	t.Parallel()
	m := decisionsMemory(strings.SplitAfter(twoActive, "\n\n")[0], twoActive)
	m.Decisions.Huge = true
	fs := CheckDecisions(m)
	if len(fs) != 2 || !fs[0].Pass || fs[1].Severity != Warning || !strings.Contains(fs[1].Message, "only its head was read") {
		t.Errorf("findings %+v", fs)
	}
	m.Decisions.Huge = false
	if fs := CheckDecisions(m); fs[0].Pass {
		t.Errorf("the same log read whole must report entry 2 deleted: %+v", fs)
	}
}

// TestConflicts: the guard of rule 1 finds what the consistency check
// would find once the decision is written, and nothing else.
func TestConflicts(t *testing.T) {
	t.Parallel()
	log := tiers.ParseDecisions([]byte("[2026-02-01] DECISION: Use YAML for config BECAUSE: readability\nSTATUS: active\n\n" +
		"[2026-02-02] DECISION: Keep invoices ten years BECAUSE: law\nSTATUS: active\nTOPIC: Retention\n\n" +
		"[2026-02-03] DECISION: Use cgo BECAUSE: driver\nSTATUS: reversed\nREVERSED_BY: [2026-02-04] no\n"))
	for _, c := range []struct {
		d    store.NewDecision
		with int // 0: no conflict
	}{
		{store.NewDecision{What: "Use TOML for config"}, 1},
		{store.NewDecision{What: "Delete invoices after seven years", Topic: "retention"}, 2},
		{store.NewDecision{What: "Use TOML for config", Topic: "format"}, 1}, // entry 1 has no TOPIC
		{store.NewDecision{What: "Do not use cgo"}, 0},                       // entry 3 is reversed
		{store.NewDecision{What: "Write the loader in Go"}, 0},
		{store.NewDecision{What: "Keep invoices ten years", Topic: "other"}, 0}, // different TOPICs
	} {
		got := Conflicts(log, []store.NewDecision{c.d})
		switch {
		case c.with == 0 && len(got) != 0:
			t.Errorf("%+v: conflicts %+v, want none", c.d, got)
		case c.with != 0 && (len(got) != 1 || got[0].With.Number != c.with || got[0].Why == ""):
			t.Errorf("%+v: conflicts %+v, want one with entry %d", c.d, got, c.with)
		}
	}
}
