package tiers

import (
	"os"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

const seedExample = `[2026-02-14] DECISION: Use YAML for config BECAUSE: readability
STATUS: reversed
REVERSED_BY: [2026-02-15] Switched to TOML. YAML indentation
was causing parse errors in the memory files.
`

// The Wake Protocol's own example (section 5, rule 2) must parse as written.
func TestParseDecisionsSeedExample(t *testing.T) {
	t.Parallel()
	log := ParseDecisions([]byte(seedExample))
	if len(log.Entries) != 1 || len(log.Malformed) != 0 {
		t.Fatalf("got %d entries, malformed %v; want 1 entry, none malformed", len(log.Entries), log.Malformed)
	}
	e := log.Entries[0]
	want := map[string]string{
		"number": "1", "date": "2026-02-14", "what": "Use YAML for config", "why": "readability",
		"status": "reversed", "reversed_by": "[2026-02-15] Switched to TOML. YAML indentation\nwas causing parse errors in the memory files.",
	}
	got := map[string]string{
		"number": strconv.Itoa(e.Number), "date": e.Date, "what": e.What, "why": e.Why,
		"status": e.Status, "reversed_by": e.ReversedBy(),
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("entry:\n got  %q\n want %q", got, want)
	}
	if e.Line != 1 || e.EndLine != 4 || e.Raw != seedExample || e.Bytes != (Span{0, len(seedExample)}) {
		t.Errorf("position: lines %d-%d bytes %v", e.Line, e.EndLine, e.Bytes)
	}
	if v := seedExample[e.StatusValue.Start:e.StatusValue.End]; v != "reversed" {
		t.Errorf("StatusValue locates %q, want %q", v, "reversed")
	}
	if e.Render() != seedExample {
		t.Errorf("Render:\n%s\nwant\n%s", e.Render(), seedExample)
	}
}

// The skeleton wake init writes has front matter, a heading and a comment
// holding an example entry: none of it is an entry, none of it malformed.
func TestParseDecisionsSkeleton(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("../skeleton/files/warm/decisions.md")
	if err != nil {
		t.Fatal(err)
	}
	log := ParseDecisions(data)
	if len(log.Entries) != 0 || len(log.Malformed) != 0 {
		t.Fatalf("skeleton: %d entries, malformed %v; want none", len(log.Entries), log.Malformed)
	}
	withEntry := string(data) + "\n[2026-03-01] DECISION: Ship it BECAUSE: done\nSTATUS: active\n"
	log = ParseDecisions([]byte(withEntry))
	if len(log.Entries) != 1 || log.Entries[0].Line != strings.Count(string(data), "\n")+2 {
		t.Fatalf("skeleton plus one entry: %+v", log.Entries)
	}
}

func TestParseDecisionsCases(t *testing.T) {
	t.Parallel()
	type entry struct {
		Line, End         int
		Date, What, Why   string
		Status, Topic     string
		HasStatus         bool
		Objection, Upheld string
	}
	for _, tc := range []struct {
		name      string
		in        string
		entries   []entry
		malformed []int // line numbers
	}{
		{"empty", "", nil, nil},
		{"two entries and a topic", "[2026-01-01] DECISION: A thing BECAUSE: why\nSTATUS: active\nTOPIC: config\n\n[2026-01-02] DECISION: B BECAUSE: y\nSTATUS: contested\nOBJECTION: [2026-01-03] no\nPROPOSED: C\n",
			[]entry{{1, 3, "2026-01-01", "A thing", "why", "active", "config", true, "", ""}, {5, 8, "2026-01-02", "B", "y", "contested", "", true, "[2026-01-03] no", ""}}, nil},
		{"no blank line between entries", "[2026-01-01] DECISION: A BECAUSE: x\n[2026-01-02] DECISION: B BECAUSE: y\n",
			[]entry{{1, 1, "2026-01-01", "A", "x", "", "", false, "", ""}, {2, 2, "2026-01-02", "B", "y", "", "", false, "", ""}}, nil},
		{"BECAUSE on a line of its own", "[2026-01-01] DECISION: Use\nthe long form\nBECAUSE: it reads better\nSTATUS: Active\n",
			[]entry{{1, 4, "2026-01-01", "Use\nthe long form", "it reads better", "active", "", true, "", ""}}, nil},
		{"stray lines", "# Decisions\nsome prose\n\n- a bullet\n[2026-01-01] DECISION: A BECAUSE: x\n\nSTATUS: active\n",
			[]entry{{5, 5, "2026-01-01", "A", "x", "", "", false, "", ""}}, []int{2, 4, 7}},
		{"bad date, no reason, unknown and second status", "[2026-13-45] DECISION: A\nSTATUS: pending\nSTATUS: active\n",
			[]entry{{1, 3, "2026-13-45", "A", "", "pending", "", true, "", ""}}, []int{1, 1, 2, 3}},
		{"unclosed comment hides the rest", "[2026-01-01] DECISION: A BECAUSE: x\n<!-- note\n[2026-01-02] DECISION: B BECAUSE: y\n",
			[]entry{{1, 1, "2026-01-01", "A", "x", "", "", false, "", ""}}, []int{2}},
		{"comment, heading and CRLF", "---\nsummary: s\n---\n<!-- c -->\n## Old\r\n[2026-01-01] DECISION: A BECAUSE: x\r\nSTATUS: reversed\r\nREVERSED_BY: [2026-01-02] B BECAUSE: y\r\n",
			[]entry{{6, 8, "2026-01-01", "A", "x", "reversed", "", true, "", ""}}, nil},
		{"unknown key continues the field", "[2026-01-01] DECISION: A BECAUSE: x\nNOTE: more reason\nSTATUS: active\n",
			[]entry{{1, 3, "2026-01-01", "A", "x\nNOTE: more reason", "active", "", true, "", ""}}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			log := ParseDecisions([]byte(tc.in))
			var got []entry
			for i, e := range log.Entries {
				if e.Number != i+1 {
					t.Errorf("entry %d numbered %d", i+1, e.Number)
				}
				got = append(got, entry{e.Line, e.EndLine, e.Date, e.What, e.Why, e.Status, e.Topic(), e.HasStatus(), e.Value(KeyObjection), e.Value(KeyUpheld)})
			}
			if !reflect.DeepEqual(got, tc.entries) {
				t.Errorf("entries:\n got  %+v\n want %+v", got, tc.entries)
			}
			var lines []int
			for _, m := range log.Malformed {
				lines = append(lines, m.Line)
			}
			if !reflect.DeepEqual(lines, tc.malformed) {
				t.Errorf("malformed lines %v, want %v (%+v)", lines, tc.malformed, log.Malformed)
			}
			checkInvariants(t, []byte(tc.in), log)
		})
	}
}

func TestParseDecisionsMalformedReasons(t *testing.T) {
	t.Parallel()
	log := ParseDecisions([]byte("prose\n[2026-01-01] DECISION: A\nSTATUS: maybe\n"))
	want := []MalformedLine{
		{1, "prose", `not part of a decision entry (an entry starts "[YYYY-MM-DD] DECISION:")`},
		{2, "[2026-01-01] DECISION: A", "entry 1: no reason (BECAUSE:)"},
		{3, "STATUS: maybe", `entry 1: STATUS "maybe" is not active, reversed or contested`},
	}
	if !reflect.DeepEqual(log.Malformed, want) {
		t.Errorf("malformed:\n got  %+v\n want %+v", log.Malformed, want)
	}
}

// Entries wake writes come back byte for byte from their fields.
func TestDecisionRenderRoundTrip(t *testing.T) {
	t.Parallel()
	for _, in := range []string{
		"[2026-01-01] DECISION: Use TOML for config BECAUSE: fewer parse errors\nSTATUS: active\n",
		"[2026-01-01] DECISION: A BECAUSE: x\nSTATUS: active\nTOPIC: config\n",
		"[2026-01-01] DECISION: A BECAUSE: x\nSTATUS: reversed\nTOPIC: t\nREVERSED_BY: [2026-01-05] B BECAUSE: y\n",
		"[2026-01-01] DECISION: A BECAUSE: x\nSTATUS: active\nOBJECTION: [2026-01-02] o\nPROPOSED: p\nUPHELD: [2026-01-03] still right\n",
	} {
		log := ParseDecisions([]byte(in))
		if len(log.Entries) != 1 || log.Entries[0].Render() != in || len(log.Malformed) != 0 {
			t.Errorf("round trip of %q: %+v", in, log)
		}
	}
}

func FuzzParseDecisions(f *testing.F) {
	skel, _ := os.ReadFile("../skeleton/files/warm/decisions.md")
	demo, _ := os.ReadFile("../testdata/demo/warm/decisions.md")
	for _, s := range []string{
		seedExample, string(skel), string(demo), "", "\n\n", "[", "[]DECISION:", "[x] DECISION: BECAUSE:",
		"[2026-01-01] DECISION: A BECAUSE: x\nSTATUS: active\nTOPIC: t\n\n[2026-01-02] DECISION: B BECAUSE: y\nSTATUS:\n",
		"<!--\n[2026-01-01] DECISION: A BECAUSE: x\n-->\n", "---\nsummary: x\n---\n", "---\n[2026-01-01] DECISION: A\n",
		"[2026-01-01] DECISION: A BECAUSE: x\r\nSTATUS: active", "[2026-01-01]\tDECISION:\tA\n  STATUS:  reversed  \n",
		"[2026-01-01] DECISION: A BECAUSE: x ID: d-1 STATUS: active\nID: d-7f3a\nID:\n", "[2026-01-01] DECISION: A BECAUSE: x\nID: 7 d\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		log := ParseDecisions(data)
		checkInvariants(t, data, log)
		for _, e := range log.Entries {
			r := e.Render()
			again := ParseDecisions([]byte(r))
			if len(again.Entries) != 1 || again.Entries[0].Render() != r {
				t.Fatalf("render of entry %d is not a fixed point:\n%q\nreparsed: %+v", e.Number, r, again.Entries)
			}
		}
	})
}

// checkInvariants holds for every input: entries numbered in order, each
// locating its own bytes, STATUS values inside their entries.
func checkInvariants(t *testing.T, data []byte, log DecisionLog) {
	t.Helper()
	prev := 0
	for i, e := range log.Entries {
		if e.Number != i+1 || e.Bytes.Start < prev || e.Bytes.End > len(data) || e.Bytes.Start >= e.Bytes.End {
			t.Fatalf("entry %d: number %d bytes %v (prev end %d, len %d)", i+1, e.Number, e.Bytes, prev, len(data))
		}
		prev = e.Bytes.End
		if e.Raw != string(data[e.Bytes.Start:e.Bytes.End]) {
			t.Fatalf("entry %d: Raw is not its bytes", e.Number)
		}
		if e.HasStatus() {
			s := e.StatusValue
			if s.Start < e.Bytes.Start || s.End > e.Bytes.End || strings.ToLower(string(data[s.Start:s.End])) != e.Status {
				t.Fatalf("entry %d: StatusValue %v does not hold %q", e.Number, s, e.Status)
			}
		}
		if e.Line > e.EndLine {
			t.Fatalf("entry %d: lines %d-%d", e.Number, e.Line, e.EndLine)
		}
	}
	lines := strings.Count(string(data), "\n") + 1
	for _, m := range log.Malformed {
		if m.Line < 1 || m.Line > lines {
			t.Fatalf("malformed line %d outside 1-%d", m.Line, lines)
		}
	}
}

// OpenComment locates the comment that hides the rest of the log, so that
// wake can refuse to append new entries into it and name its line.
func TestParseDecisionsOpenComment(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in   string
		line int
	}{
		{"[2026-01-01] DECISION: A BECAUSE: x\n\n<!-- note\n[2026-01-02] DECISION: B BECAUSE: y\n", 3},
		{"---\nsummary: s\n---\n<!-- c -->\n<!--\r\nstill open\r\n", 5},
		{"<!-- closed -->\n[2026-01-01] DECISION: A BECAUSE: x\n", 0},
		{"<!--\nopen\n-->\n", 0},
	} {
		if got := ParseDecisions([]byte(tc.in)).OpenComment; got != tc.line {
			t.Errorf("%q: OpenComment %d, want %d", tc.in, got, tc.line)
		}
	}
}

// TestParseDecisionsOneLineForms: every form seed 004 shows parses to the
// same entry: the one-line form of section 1 ("... BECAUSE: why STATUS:
// reversed"), the multi-line form of rule 2, and a mix, with the fields
// after the reason on the DECISION line read as fields.
func TestParseDecisionsOneLineForms(t *testing.T) {
	t.Parallel()
	type entry struct{ what, why, status, topic, reversedBy string }
	want := entry{"Use YAML for config", "readability", "reversed", "", ""}
	for _, c := range []struct {
		text string
		want entry
	}{
		{"[2026-02-14] DECISION: Use YAML for config BECAUSE: readability STATUS: reversed\n", want},
		{"[2026-02-14] DECISION: Use YAML for config BECAUSE: readability\nSTATUS: reversed\n", want},
		{"[2026-02-14] DECISION: Use YAML for config BECAUSE: readability STATUS: Reversed  \n", want},
		{"[2026-02-14] DECISION: Use YAML for config BECAUSE: readability STATUS: reversed TOPIC: config\n",
			entry{"Use YAML for config", "readability", "reversed", "config", ""}},
		{"[2026-02-14] DECISION: Use YAML for config BECAUSE: readability STATUS: reversed\nREVERSED_BY: [2026-02-15] Switched to TOML. YAML indentation\nwas causing parse errors.\n",
			entry{"Use YAML for config", "readability", "reversed", "", "[2026-02-15] Switched to TOML. YAML indentation\nwas causing parse errors."}},
		// Before the reason nothing is split: the decision may name a key.
		{"[2026-02-14] DECISION: Show STATUS: codes in the log BECAUSE: support asks STATUS: active\n",
			entry{"Show STATUS: codes in the log", "support asks", "active", "", ""}},
		// A key must follow white space and be in capitals.
		{"[2026-02-14] DECISION: Use YAML BECAUSE: the status: quo and xSTATUS: y\n",
			entry{"Use YAML", "the status: quo and xSTATUS: y", "", "", ""}},
	} {
		log := ParseDecisions([]byte(c.text))
		if len(log.Entries) != 1 || len(log.Malformed) != 0 {
			t.Errorf("%q: %d entries, malformed %v", c.text, len(log.Entries), log.Malformed)
			continue
		}
		e := log.Entries[0]
		if got := (entry{e.What, e.Why, e.Status, e.Topic(), e.ReversedBy()}); got != c.want {
			t.Errorf("%q:\n got  %+v\n want %+v", c.text, got, c.want)
		}
		if e.HasStatus() && !strings.EqualFold(c.text[e.StatusValue.Start:e.StatusValue.End], e.Status) {
			t.Errorf("%q: StatusValue locates %q", c.text, c.text[e.StatusValue.Start:e.StatusValue.End])
		}
	}
	// An unknown inline status is malformed, named on its line.
	log := ParseDecisions([]byte("[2026-02-14] DECISION: A BECAUSE: b STATUS: maybe\n"))
	if len(log.Malformed) != 1 || !strings.Contains(log.Malformed[0].Reason, `STATUS "maybe"`) || log.Malformed[0].Text != "STATUS: maybe" {
		t.Errorf("malformed %+v", log.Malformed)
	}
}

func TestInlineKey(t *testing.T) {
	t.Parallel()
	for why, want := range map[string]string{
		"readability": "", "STATUS: reversed": "STATUS:", "it is fast TOPIC: speed": "TOPIC:",
		"the status: quo": "", "xUPHELD: y": "", "a\tREVERSED_BY: b": "REVERSED_BY:",
	} {
		if got := InlineKey(why); got != want {
			t.Errorf("InlineKey(%q) = %q, want %q", why, got, want)
		}
	}
}
