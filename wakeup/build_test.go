package wakeup

import (
	"bytes"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/wakeproto/wake/tiers"
)

// valid checks a packet against the published schema (as
// internal/wakeupschema does for the other packages' tests, which this
// package cannot import).
func valid(t *testing.T, p Packet) Packet {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(Schema))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("wakeup.v1.schema.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("wakeup.v1.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(JSON(p)))
	if err != nil {
		t.Fatal(err)
	}
	if err := sch.Validate(v); err != nil {
		t.Fatalf("packet does not match the schema: %v", err)
	}
	return p
}

var now = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)

func limits() Limits { return tiers.DefaultConfig().Wakeup }

func TestLogDecisions(t *testing.T) {
	log := `[2026-01-02] DECISION: Use SQLite until the data outgrows one file BECAUSE: one file to back up
STATUS: active

[2026-01-03] DECISION: Use TOML BECAUSE: readable
STATUS: contested
OBJECTION: YAML is what the CI expects

[2026-01-04] DECISION: Use YAML BECAUSE: habit
STATUS: reversed
`
	got := logDecisions([]byte(log))
	if len(got) != 2 {
		t.Fatalf("got %d entries, want the active and the contested one: %+v", len(got), got)
	}
	if got[0].Reversal != "until the data outgrows one file" || got[0].Ref != "warm/decisions.md#1" {
		t.Errorf("first: %+v", got[0])
	}
	if got[1].Reversal != "contested: YAML is what the CI expects" {
		t.Errorf("second: %+v", got[1])
	}
}

// An upheld decision keeps its OBJECTION line as history; the packet must
// not show it as the condition the decision may fall on.
func TestLogDecisionsUpheld(t *testing.T) {
	log := `[2026-01-03] DECISION: Use TOML until the CI needs YAML BECAUSE: readable
STATUS: active
OBJECTION: [2026-01-04] YAML is what the CI expects
UPHELD: [2026-01-05] the CI reads TOML too
`
	got := logDecisions([]byte(log))
	if len(got) != 1 {
		t.Fatalf("got %+v", got)
	}
	if got[0].Reversal != "until the CI needs YAML" {
		t.Errorf("reversal_condition %q, want the entry's own, not the objection that lost", got[0].Reversal)
	}
}

func TestTasks(t *testing.T) {
	open, blocked := tasks("# Tasks\n\n## In progress\n- [ ] one\n- [x] finished\n- [ ] two\n  continued\n\n## Blocked\n- [ ] three\n\n## Done\n- [x] four\n- [ ] not really open\n")
	if !slices.Equal(open, []string{"one", "two continued"}) || !slices.Equal(blocked, []string{"three"}) {
		t.Errorf("open %q, blocked %q", open, blocked)
	}
}

// The skeleton asks for blockers noted under the task, indented: the note
// blocks its task, it is not a task of its own.
func TestTasksBlockedByNote(t *testing.T) {
	open, blocked := tasks("# Tasks\n\n## In progress\n- [ ] ship the API\n  - blocked by: the key from ops\n- [ ] write the docs\n  - see docs/plan.md\n\n## Blocked\n")
	if !slices.Equal(open, []string{"write the docs (see docs/plan.md)"}) {
		t.Errorf("open %q: the blocked task or its note is among the priorities", open)
	}
	if !slices.Equal(blocked, []string{"ship the API — blocked by: the key from ops"}) {
		t.Errorf("blocked %q", blocked)
	}
	p := Build(Sources{Tasks: open, Blocked: blocked}, Query{Task: "api"}, limits(), now)
	for _, pr := range p.Priorities {
		if strings.Contains(pr.Title, "blocked by") || strings.Contains(pr.Title, "ship the API") {
			t.Errorf("priorities hold %q", pr.Title)
		}
	}
	if !slices.Equal(p.ActiveContext.Blocked, blocked) {
		t.Errorf("active_context.blocked %q", p.ActiveContext.Blocked)
	}
}

// Equal scores are ordered by path, whatever order the sources come in.
func TestTiesByPath(t *testing.T) {
	docs := []Doc{
		{Path: "cold/c.md", Title: "C", MemoryType: TypeConstraint, Sensitivity: "internal"},
		{Path: "cold/a.md", Title: "A", MemoryType: TypeConstraint, Sensitivity: "internal"},
		{Path: "cold/b.md", Title: "B", MemoryType: TypeConstraint, Sensitivity: "internal"},
	}
	var first []string
	for range 3 {
		p := valid(t, Build(Sources{Docs: docs}, Query{}, limits(), now))
		var got []string
		for _, c := range p.Constraints {
			got = append(got, c.Source)
		}
		if !slices.Equal(got, []string{"cold/a.md", "cold/b.md", "cold/c.md"}) {
			t.Fatalf("order %q", got)
		}
		if first == nil {
			first = got
		}
		docs[0], docs[2] = docs[2], docs[0]
	}
}

// Only the best-ranked unread documents are read whole; one the policy
// now holds secret is dropped and counted.
func TestReadBodies(t *testing.T) {
	var docs []Doc
	for i := range 40 {
		docs = append(docs, Doc{Path: "cold/n" + string(rune('a'+i%26)) + string(rune('a'+i/26)) + ".md", Title: "Note",
			MemoryType: TypeIncident, Sensitivity: "internal", Unread: true})
	}
	docs[7].Title = "Rounding incident"
	var read []string
	src := Sources{Docs: docs, ReadBody: func(p string) (string, string, error) {
		read = append(read, p)
		if p == docs[7].Path {
			return "secret", "", nil
		}
		return "internal", "## Consequence\nLost a day.\n", nil
	}}
	p := valid(t, Build(src, Query{Task: "rounding"}, limits(), now))
	if len(read) != bodyReads*limits().Incidents {
		t.Errorf("read %d bodies, want %d", len(read), bodyReads*limits().Incidents)
	}
	if !slices.Contains(read, docs[7].Path) {
		t.Errorf("the matching document was not read: %q", read)
	}
	if p.Policy.SuppressedNoteCount != 1 || len(p.Incidents) != 3 || p.Incidents[0].Consequence != "Lost a day." {
		t.Errorf("policy %+v, incidents %+v", p.Policy, p.Incidents)
	}
	if strings.Contains(string(JSON(p)), "Rounding incident") {
		t.Error("the document now secret shows")
	}
}

// Prompt cuts the fewest items that fit.
func TestPromptFewestCuts(t *testing.T) {
	var docs []Doc
	for i := range 8 {
		docs = append(docs, Doc{Path: "cold/p" + string(rune('a'+i)) + ".md", Title: strings.Repeat("word ", 10+i), MemoryType: TypePattern, Sensitivity: "internal"})
	}
	p := valid(t, Build(Sources{Docs: docs}, Query{}, limits(), now))
	words := countFn(func(s string) int { return len(strings.Fields(s)) })
	full, cut := Prompt(p, 100000, words)
	if cut != 0 {
		t.Fatalf("cut %d with room to spare", cut)
	}
	limit := words.Count(full) - 15
	text, cut := Prompt(p, limit, words)
	if words.Count(text) > limit || cut == 0 {
		t.Fatalf("%d words for %d, %d cut", words.Count(text), limit, cut)
	}
	r := render(p, true)
	for range cut - 1 {
		r.cutOne()
	}
	if words.Count(r.text()) <= limit {
		t.Errorf("%d cuts where %d fit", cut, cut-1)
	}
}

type countFn func(string) int

func (f countFn) Count(s string) int { return f(s) }
