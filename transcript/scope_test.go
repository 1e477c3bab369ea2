package transcript

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

// twoTurns is a Claude Code session of two turns, the second at 10:05,
// and a last edit recorded without a time.
const twoTurns = `{"type":"queue-operation","operation":"enqueue","timestamp":"2026-11-22T10:00:00Z","sessionId":"s9"}
{"type":"user","message":{"role":"user","content":"write a"},"timestamp":"2026-11-22T10:00:01Z","cwd":"/p","sessionId":"s9"}
{"type":"assistant","message":{"role":"assistant","content":[{"type":"tool_use","id":"w1","name":"Write","input":{"file_path":"/p/a.txt"}},{"type":"tool_use","id":"b1","name":"Bash","input":{"command":"make a"}}]},"timestamp":"2026-11-22T10:00:02Z","sessionId":"s9"}
{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"w1","content":"ok"}]},"timestamp":"2026-11-22T10:00:03Z","sessionId":"s9"}
{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"a is written"}]},"timestamp":"2026-11-22T10:00:04Z","sessionId":"s9"}
{"type":"user","message":{"role":"user","content":"write b"},"timestamp":"2026-11-22T10:05:00Z","sessionId":"s9"}
{"type":"assistant","message":{"role":"assistant","content":[{"type":"tool_use","id":"w2","name":"Edit","input":{"file_path":"/p/b.txt"}},{"type":"tool_use","id":"b2","name":"Bash","input":{"command":"make b"}}]},"timestamp":"2026-11-22T10:05:01Z","sessionId":"s9"}
{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"w2","content":"ok"}]},"timestamp":"2026-11-22T10:05:02Z","sessionId":"s9"}
{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"b is edited"}]},"timestamp":"2026-11-22T10:05:03Z","sessionId":"s9"}
`

// TestSince: a reading since a time counts only what was recorded at or
// after it (and what bears no time), while the start stays the first
// time recorded.
func TestSince(t *testing.T) {
	t.Parallel()
	at := func(m, s int) time.Time { return time.Date(2026, 11, 22, 10, m, s, 0, time.UTC) }
	s, err := Read(strings.NewReader(twoTurns), Claude, DefaultLimits(), Scope{Since: at(5, 0)})
	if err != nil {
		t.Fatal(err)
	}
	want := &Summary{Format: Claude, SessionID: "s9", Cwd: "/p", Start: at(0, 0),
		Prompts: []string{"write b"}, PromptCount: 1, PromptTimes: []time.Time{at(5, 0)}, Edits: []Edit{{"b.txt", "Edit"}},
		Commands: []string{"make b"}, CommandCount: 1, LastMessage: "b is edited", LastMessageAt: at(5, 3), Lines: 9}
	if !reflect.DeepEqual(s, want) {
		t.Errorf("\n got %+v\nwant %+v", s, want)
	}
	w, err := ReadWork(strings.NewReader(twoTurns), Claude, 0, Scope{Since: at(5, 0)})
	if err != nil || !w.DidWork() || w.Edits[0].Path != "b.txt" {
		t.Errorf("ReadWork: %v %+v", err, w)
	}
	after := Scope{Since: at(5, 3)}
	if w, err := ReadWork(strings.NewReader(twoTurns), Claude, 0, after); err != nil || w.DidWork() || !w.Start.Equal(at(0, 0)) {
		t.Errorf("ReadWork after the work: %v %+v", err, w)
	}
	// A record without a time counts.
	untimed := twoTurns + `{"type":"assistant","message":{"role":"assistant","content":[{"type":"tool_use","id":"w3","name":"Write","input":{"file_path":"/p/c.txt"}}]}}` + "\n"
	if w, err := ReadWork(strings.NewReader(untimed), Claude, 0, after); err != nil || !w.DidWork() || w.Edits[0].Path != "c.txt" {
		t.Errorf("ReadWork of an untimed edit: %v %+v", err, w)
	}

	// The wake format's "at" on every line, as the OpenCode plugin writes it.
	oc := `{"type":"session","id":"ses_1","at":"2026-11-22T10:00:00Z","cwd":"/p"}
{"type":"prompt","text":"first","at":"2026-11-22T10:00:01Z"}
{"type":"edit","path":"a.ts","tool":"write","at":"2026-11-22T10:00:02Z"}
{"type":"decision","at":"2026-11-22T10:00:03Z"}
{"type":"prompt","text":"second","at":"2026-11-22T10:05:01Z"}
{"type":"command","command":"npm test","at":"2026-11-22T10:05:02Z"}
{"type":"message","text":"tested","at":"2026-11-22T10:05:03Z"}
`
	s, err = Read(strings.NewReader(oc), Wake, DefaultLimits(), Scope{Since: at(5, 0)})
	if err != nil || s.DidWork() || !reflect.DeepEqual(s.Prompts, []string{"second"}) || s.CommandCount != 1 || s.LastMessage != "tested" || !s.Start.Equal(at(0, 0)) {
		t.Errorf("wake format: %v %+v", err, s)
	}
	s, _ = Read(strings.NewReader(oc), Wake, DefaultLimits(), Scope{Since: at(0, 2)})
	if s.Decisions != 1 || len(s.Edits) != 1 || s.PromptCount != 1 {
		t.Errorf("wake format since 10:00:02: %+v", s)
	}
}

// TestHead: the opening of a transcript, its start and session, read
// without reading on.
func TestHead(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		f       Format
		text    string
		session string
		start   time.Time
	}{
		{Claude, twoTurns, "s9", time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)},
		{Auto, readTestdata(t, "codex.jsonl"), "0199-abc", time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)},
		{Wake, readTestdata(t, "wake.jsonl"), "ses_1", time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)},
	} {
		first := c.text[:strings.Index(c.text, "\n")+1]
		s, err := Head(&failAfter{t, strings.NewReader(first)}, c.f, 0)
		if err != nil || s.SessionID != c.session || !s.Start.Equal(c.start) {
			t.Errorf("%s: %v %+v", c.f, err, s)
		}
	}
	// Without an id at hand, Head reads a few lines past the start only.
	noID := strings.Repeat(`{"type":"message","text":"x","at":"2026-11-22T10:00:00Z"}`+"\n", headLines+1)
	s, err := Head(&failAfter{t, strings.NewReader(noID)}, Wake, 0)
	if err != nil || s.SessionID != "" || s.Start.IsZero() {
		t.Errorf("no id: %v %+v", err, s)
	}
}

// TestSinceByTopLevelTime: the Stop hook's reading passes over a turn
// recorded before the scope without parsing it, by its own time: a
// "timestamp" in what its tool carries is not it.
func TestSinceByTopLevelTime(t *testing.T) {
	t.Parallel()
	head := `{"type":"user","message":{"role":"user","content":"go"},"timestamp":"2026-11-22T10:00:00Z","cwd":"/p","sessionId":"s"}` + "\n"
	turn := func(top, nested string) string {
		return `{"type":"assistant","message":{"role":"assistant","content":[{"type":"tool_use","id":"w","name":"Write","input":{"file_path":"/p/a.json","meta":{"timestamp":"` + nested + `"}}}]},"timestamp":"` + top + `"}` + "\n"
	}
	sc := Scope{Since: time.Date(2026, 11, 22, 10, 5, 0, 0, time.UTC)}
	for _, c := range []struct {
		top, nested string
		work        bool
	}{
		{"2026-11-22T10:01:00Z", "2026-11-22T10:09:00Z", false},
		{"2026-11-22T10:09:00Z", "2026-11-22T10:01:00Z", true},
	} {
		tr := head + turn(c.top, c.nested)
		s, _ := Read(strings.NewReader(tr), Claude, DefaultLimits(), sc)
		w, _ := ReadWork(strings.NewReader(tr), Claude, 0, sc)
		if s.DidWork() != c.work || w.DidWork() != c.work {
			t.Errorf("turn of %s: Read did work %v, ReadWork %v, want %v", c.top, s.DidWork(), w.DidWork(), c.work)
		}
	}
}

// TestScopeMemory: an edit in the memory root is wake's own file (the
// ledger or the decision log a wake command wrote, a note the agent
// wrote into .wake/), never the agent's edit nor its work, in every
// format, named absolutely or relative to the working directory.
func TestScopeMemory(t *testing.T) {
	t.Parallel()
	sc := Scope{Memory: []string{"/p/.wake"}}
	for _, c := range []struct{ name, tr string }{
		{"claude", `{"type":"user","message":{"role":"user","content":"decide"},"timestamp":"2026-11-22T10:00:00Z","cwd":"/p","sessionId":"s"}
{"type":"assistant","message":{"role":"assistant","content":[{"type":"tool_use","id":"w1","name":"Write","input":{"file_path":"/p/.wake/warm/decisions.md"}},{"type":"tool_use","id":"w2","name":"Edit","input":{"file_path":".wake/ledger.jsonl"}},{"type":"tool_use","id":"w3","name":"Edit","input":{"file_path":"/p/.wakefile"}}]},"timestamp":"2026-11-22T10:00:01Z"}
`},
		{"codex", `{"timestamp":"2026-11-22T10:00:00Z","type":"session_meta","payload":{"id":"s","timestamp":"2026-11-22T10:00:00Z","cwd":"/p"}}
{"timestamp":"2026-11-22T10:00:01Z","type":"response_item","payload":{"type":"custom_tool_call","call_id":"c1","name":"apply_patch","input":"*** Begin Patch\n*** Update File: .wake/warm/decisions.md\n*** Add File: /p/.wake/ledger.jsonl\n*** Add File: .wakefile\n*** End Patch"}}
`},
		{"wake", `{"type":"session","id":"s","at":"2026-11-22T10:00:00Z","cwd":"/p"}
{"type":"edit","path":"/p/.wake/ledger.jsonl","tool":"snapshot"}
{"type":"edit","path":".wake/warm/decisions.md","tool":"snapshot"}
{"type":"edit","path":".wakefile","tool":"write"}
`},
	} {
		s, err := Read(strings.NewReader(c.tr), Auto, DefaultLimits(), sc)
		if err != nil || len(s.Edits) != 1 || s.Edits[0].Path != ".wakefile" || s.Outside != 0 {
			t.Errorf("%s: edits %+v, outside %d (%v); want .wakefile alone", c.name, s.Edits, s.Outside, err)
		}
		only := strings.ReplaceAll(c.tr, ".wakefile", ".wake/x")
		if s, err := Read(strings.NewReader(only), Auto, DefaultLimits(), sc); err != nil || s.DidWork() {
			t.Errorf("%s: the memory's files alone are work: %+v (%v)", c.name, s.Edits, err)
		}
		if w, err := ReadWork(strings.NewReader(only), Auto, 0, sc); err != nil || w.DidWork() {
			t.Errorf("%s: ReadWork takes the memory's files for work: %+v (%v)", c.name, w.Edits, err)
		}
		if s, err := Read(strings.NewReader(c.tr), Auto, DefaultLimits(), Scope{}); err != nil || len(s.Edits) != 3 {
			t.Errorf("%s: without the memory in the scope, edits %+v (%v)", c.name, s.Edits, err)
		}
	}
}
