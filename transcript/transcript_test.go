package transcript

import (
	"errors"
	"io"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"
)

func readFile(t *testing.T, name string, f Format) *Summary {
	t.Helper()
	file, err := os.Open("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	s, err := Read(file, f, DefaultLimits(), Scope{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestClaude(t *testing.T) {
	t.Parallel()
	for _, f := range []Format{Claude, Auto} {
		s := readFile(t, "claude.jsonl", f)
		want := &Summary{
			Format: Claude, SessionID: "83a1cd33", Cwd: "/work/proj",
			Start:   time.Date(2026, 11, 22, 20, 1, 41, 761e6, time.UTC),
			Prompts: []string{"please write notes.txt and fix the rounding", "now commit it"}, PromptCount: 2,
			PromptTimes:   []time.Time{time.Date(2026, 11, 22, 20, 1, 41, 870e6, time.UTC), time.Date(2026, 11, 22, 20, 1, 46, 0, time.UTC)},
			LastMessageAt: time.Date(2026, 11, 22, 20, 1, 48, 0, time.UTC),
			// The denied Write does not count; MultiEdit of notes.txt is
			// the same file again.
			Edits:    []Edit{{"notes.txt", "Write"}, {"calc.go", "Edit"}, {"nb.ipynb", "NotebookEdit"}},
			Commands: []string{"go test ./... go vet ./..."}, CommandCount: 1,
			LastMessage: "Done: notes.txt written, calc.go fixed.",
			Lines:       15, Malformed: 1,
		}
		if !reflect.DeepEqual(s, want) {
			t.Errorf("format %q:\n got %+v\nwant %+v", f, s, want)
		}
		if !s.DidWork() {
			t.Error("DidWork is false")
		}
	}
}

func TestCodex(t *testing.T) {
	t.Parallel()
	for _, f := range []Format{Codex, Auto} {
		s := readFile(t, "codex.jsonl", f)
		want := &Summary{
			Format: Codex, SessionID: "0199-abc", Cwd: "/work/proj",
			Start:   time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC),
			Prompts: []string{"add a README and fix main.go"}, PromptCount: 1,
			PromptTimes:   []time.Time{time.Date(2026, 11, 22, 10, 0, 0, 800e6, time.UTC)},
			LastMessageAt: time.Date(2026, 11, 22, 10, 0, 5, 0, time.UTC),
			// The failed patch of /etc/passwd does not count.
			Edits: []Edit{{"README.md", "apply_patch"}, {"main.go", "apply_patch"}, {"old.go", "apply_patch"},
				{"new.go", "apply_patch"}, {"docs/x.md", "apply_patch"}},
			Commands:     []string{"go test ./...", "git status", "apply_patch *** Begin Patch *** Add File: docs/x.md +x *** End Patch"},
			CommandCount: 3,
			LastMessage:  "README added; main.go fixed.",
			Lines:        21, Malformed: 1,
		}
		if !reflect.DeepEqual(s, want) {
			t.Errorf("format %q:\n got %+v\nwant %+v", f, s, want)
		}
	}
}

// TestCodexPromptFallback: without the client's record of the user's
// messages, the prompts are read from what the model received, leaving
// out what Codex injected.
func TestCodexPromptFallback(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	for _, l := range strings.Split(readTestdata(t, "codex.jsonl"), "\n") {
		if !strings.Contains(l, `"user_message"`) {
			b.WriteString(l + "\n")
		}
	}
	s, err := Read(strings.NewReader(b.String()), Codex, DefaultLimits(), Scope{})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"add a README and fix main.go"}; !reflect.DeepEqual(s.Prompts, want) {
		t.Errorf("prompts %q, want %q", s.Prompts, want)
	}
}

func readTestdata(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func TestWake(t *testing.T) {
	t.Parallel()
	for _, f := range []Format{Wake, Auto} {
		s := readFile(t, "wake.jsonl", f)
		want := &Summary{
			Format: Wake, SessionID: "ses_1", Cwd: "/abs/proj",
			Start:   time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC),
			Prompts: []string{"the user's prompt"}, PromptCount: 1,
			// The wake format's records bear no time of their own.
			PromptTimes: []time.Time{{}},
			Edits:       []Edit{{"src/a.ts", "write"}, {"src/b.ts", "edit"}},
			Commands:    []string{"npm test"}, CommandCount: 1,
			LastMessage: "the last one", Decisions: 1, Lines: 10,
		}
		if !reflect.DeepEqual(s, want) {
			t.Errorf("format %q:\n got %+v\nwant %+v", f, s, want)
		}
	}
}

// TestDecisionIsWork: a session that only decided did work.
func TestDecisionIsWork(t *testing.T) {
	t.Parallel()
	s, _ := Read(strings.NewReader(`{"type":"session","at":"2026-11-22T10:00:00Z"}`+"\n"+`{"type":"decision"}`), Wake, DefaultLimits(), Scope{})
	if !s.DidWork() {
		t.Error("a decision is not work")
	}
	s, _ = Read(strings.NewReader(`{"type":"session","at":"2026-11-22T10:00:00Z"}`+"\n"+`{"type":"prompt","text":"hi"}`), Wake, DefaultLimits(), Scope{})
	if s.DidWork() {
		t.Error("a prompt alone is work")
	}
}

// failAfter is a reader that fails the test if read past its text.
type failAfter struct {
	t *testing.T
	r io.Reader
}

func (f *failAfter) Read(p []byte) (int, error) {
	n, err := f.r.Read(p)
	if err == io.EOF {
		f.t.Error("ReadWork read past the first work")
		return 0, errors.New("read too far")
	}
	return n, err
}

// TestReadWorkStopsEarly: the Stop hook's reading stops once it knows
// the start and one edit that did not fail.
func TestReadWorkStopsEarly(t *testing.T) {
	t.Parallel()
	text := readTestdata(t, "claude.jsonl")
	head := text[:strings.Index(text, `{"parentUuid":"as1"`)]
	result := text[len(head):strings.Index(text, `{"parentUuid":"as2"`)]
	s, err := ReadWork(&failAfter{t, strings.NewReader(head + result)}, Claude, 0, Scope{})
	if err != nil || !s.DidWork() || s.Start.IsZero() {
		t.Fatalf("ReadWork: %v, did work %v, start %v", err, s.DidWork(), s.Start)
	}
	if s.Prompts != nil || s.LastMessage != "" {
		t.Errorf("ReadWork kept prompts %q and message %q", s.Prompts, s.LastMessage)
	}
}

// TestReadWorkNoWork: denied edits, prompts and commands are no work; a
// call whose result never came (the session ended mid-call) is.
func TestReadWorkNoWork(t *testing.T) {
	t.Parallel()
	text := readTestdata(t, "claude.jsonl")
	// Only the denied Write is left of the first turn's edits; the later
	// edits go.
	denied := strings.Replace(text, `{"type":"tool_use","id":"toolu_1","name":"Write"`, `{"type":"tool_use","id":"toolu_1","name":"Read"`, 1)
	denied = strings.Replace(denied, `"name":"Edit"`, `"name":"Grep"`, 1)
	denied = denied[:strings.Index(denied, `{"parentUuid":"u6"`)]
	for _, f := range []func(string) (*Summary, error){
		func(s string) (*Summary, error) { return ReadWork(strings.NewReader(s), Claude, 0, Scope{}) },
		func(s string) (*Summary, error) { return Read(strings.NewReader(s), Claude, DefaultLimits(), Scope{}) },
	} {
		s, err := f(denied)
		if err != nil || s.DidWork() {
			t.Errorf("a session whose only edit was denied did work (%v): %+v", err, s.Edits)
		}
	}
	cut := text[:strings.Index(text, `{"parentUuid":"as1","isSidechain":false,"type":"user"`)]
	s, err := ReadWork(strings.NewReader(cut), Claude, 0, Scope{})
	if err != nil || !s.DidWork() {
		t.Errorf("edits without a recorded result are not work (%v)", err)
	}
}

// TestLongLines: a line over the cap is skipped and counted, whatever its
// length, and the lines around it are read.
func TestLongLines(t *testing.T) {
	t.Parallel()
	lim := DefaultLimits()
	lim.MaxLine = 100
	long := `{"type":"prompt","text":"` + strings.Repeat("x", 300) + `"}`
	exact := `{"type":"prompt","text":"` + strings.Repeat("y", 100-len(`{"type":"prompt","text":""}`)) + `"}`
	for _, eol := range []string{"\n", "\r\n"} {
		in := strings.Join([]string{`{"type":"prompt","text":"a"}`, long, exact, long, `{"type":"prompt","text":"b"}`, long}, eol)
		s, err := Read(strings.NewReader(in), Wake, lim, Scope{})
		if err != nil {
			t.Fatal(err)
		}
		if s.TooLong != 3 || s.PromptCount != 3 || s.Lines != 3 || s.Prompts[2] != "b" {
			t.Errorf("eol %q: too long %d, prompts %d %q, lines %d", eol, s.TooLong, s.PromptCount, s.Prompts, s.Lines)
		}
	}
}

func TestEnds(t *testing.T) {
	t.Parallel()
	for n := 0; n < 20; n++ {
		e := ends[string]{first: 2, last: 3}
		var all []string
		for i := range n {
			s := string(rune('a' + i))
			all = append(all, s)
			e.add(s)
		}
		want := all
		if n > 5 {
			want = append(append([]string{}, all[:2]...), all[n-3:]...)
		}
		if got := e.list(); !reflect.DeepEqual(got, want) && !(len(got) == 0 && len(want) == 0) {
			t.Errorf("n=%d: %q, want %q", n, got, want)
		}
		if e.n != n {
			t.Errorf("n=%d: counted %d", n, e.n)
		}
	}
}

func TestOneLine(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		in   string
		max  int
		want string
	}{
		{"  a\n\tb\r\n c  ", 100, "a b c"},
		{"abcdef", 3, "abc…"},
		{"héllo", 2, "h…"},
		{"a\u2028b\x00c\u0085d", 100, "a b c d"},
		{"bad \xff byte", 100, "bad \uFFFD byte"},
		{"", 10, ""},
	} {
		if got := oneLine(c.in, c.max); got != c.want {
			t.Errorf("oneLine(%q, %d) = %q, want %q", c.in, c.max, got, c.want)
		}
	}
}

func TestParseFormat(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"", "auto", "claude", "codex", "wake"} {
		if _, err := ParseFormat(s); err != nil {
			t.Errorf("%q: %v", s, err)
		}
	}
	if _, err := ParseFormat("opencode"); err == nil || !strings.Contains(err.Error(), `"opencode"`) {
		t.Errorf("opencode: %v", err)
	}
}

// TestCodex0169 reads a rollout Codex 0.169.0 wrote (codex exec against a
// loopback stub whose agent applied a patch through exec_command and ran
// ls; long texts of Codex's own trimmed): its records of the user's and
// the agent's messages and of the file change are item_completed events.
func TestCodex0169(t *testing.T) {
	t.Parallel()
	s := readFile(t, "codex-0.169.jsonl", Auto)
	want := &Summary{
		Format: Codex, SessionID: "01a204f2-252a-7c03-8324-562d39eaf788", Cwd: "/tmp/h-auto/cx/proj",
		Start:   time.Date(2026, 11, 22, 20, 28, 27, 826e6, time.UTC),
		Prompts: []string{"add a notes file"}, PromptCount: 1,
		PromptTimes:   []time.Time{time.Date(2026, 11, 22, 20, 28, 27, 876e6, time.UTC)},
		LastMessageAt: time.Date(2026, 11, 22, 20, 28, 28, 26e6, time.UTC),
		Edits:         []Edit{{"notes.txt", "apply_patch"}},
		Commands:      []string{"apply_patch <<'EOF' *** Begin Patch *** Add File: notes.txt +hello from codex stub *** End Patch EOF", "ls"},
		CommandCount:  2, LastMessage: "stub reply 3", Lines: 23,
	}
	if !reflect.DeepEqual(s, want) {
		t.Errorf("\n got %+v\nwant %+v", s, want)
	}
	text := readTestdata(t, "codex-0.169.jsonl")
	failed := strings.Replace(text, `"status":"completed","stdout":"Success.`, `"status":"failed","stdout":"Success.`, 1)
	if failed == text {
		t.Fatal("no FileChange to fail")
	}
	for _, read := range []func() (*Summary, error){
		func() (*Summary, error) { return Read(strings.NewReader(failed), Codex, DefaultLimits(), Scope{}) },
		func() (*Summary, error) { return ReadWork(strings.NewReader(failed), Codex, 0, Scope{}) },
	} {
		if s, err := read(); err != nil || s.DidWork() {
			t.Errorf("a failed file change is work (%v): %+v", err, s.Edits)
		}
	}
}

// TestClaudeSubagent: a subagent's turns (isSidechain) are no prompts of
// the user's and no message of the agent's, but the files its tools edit
// and the commands it runs are the session's work.
func TestClaudeSubagent(t *testing.T) {
	t.Parallel()
	const tr = `{"type":"user","isSidechain":false,"message":{"role":"user","content":"tidy the docs"},"timestamp":"2026-11-22T10:00:00Z","cwd":"/p","sessionId":"s"}
{"type":"assistant","isSidechain":false,"message":{"role":"assistant","content":[{"type":"tool_use","id":"task1","name":"Task","input":{"prompt":"fix the typos"}}]},"timestamp":"2026-11-22T10:00:01Z"}
{"type":"user","isSidechain":true,"message":{"role":"user","content":"fix the typos"},"timestamp":"2026-11-22T10:00:02Z"}
{"type":"assistant","isSidechain":true,"message":{"role":"assistant","content":[{"type":"text","text":"fixing"},{"type":"tool_use","id":"sub1","name":"Edit","input":{"file_path":"/p/docs/a.md"}},{"type":"tool_use","id":"sub2","name":"Bash","input":{"command":"make docs"}},{"type":"tool_use","id":"sub3","name":"Write","input":{"file_path":"/p/docs/denied.md"}}]},"timestamp":"2026-11-22T10:00:03Z"}
{"type":"user","isSidechain":true,"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"sub1","content":"ok"},{"type":"tool_result","tool_use_id":"sub2","content":"ok"},{"type":"tool_result","tool_use_id":"sub3","is_error":true,"content":"denied"}]},"timestamp":"2026-11-22T10:00:04Z"}
{"type":"user","isSidechain":false,"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"task1","content":"done"}]},"timestamp":"2026-11-22T10:00:05Z"}
{"type":"assistant","isSidechain":false,"message":{"role":"assistant","content":[{"type":"text","text":"The docs are tidy."}]},"timestamp":"2026-11-22T10:00:06Z"}
`
	s, err := Read(strings.NewReader(tr), Claude, DefaultLimits(), Scope{})
	if err != nil {
		t.Fatal(err)
	}
	if want := []Edit{{"docs/a.md", "Edit"}}; !reflect.DeepEqual(s.Edits, want) {
		t.Errorf("edits %+v, want %+v", s.Edits, want)
	}
	if want := []string{"make docs"}; !reflect.DeepEqual(s.Commands, want) {
		t.Errorf("commands %q, want %q", s.Commands, want)
	}
	if want := []string{"tidy the docs"}; !reflect.DeepEqual(s.Prompts, want) || s.LastMessage != "The docs are tidy." {
		t.Errorf("prompts %q, last message %q", s.Prompts, s.LastMessage)
	}
	w, err := ReadWork(strings.NewReader(tr), Claude, 0, Scope{})
	if err != nil || !w.DidWork() || len(w.Edits) != 1 || w.Edits[0].Path != "docs/a.md" {
		t.Errorf("ReadWork: %v, %+v", err, w)
	}
}

// TestClaudeTaskNotification: the notice Claude Code puts in a user turn
// when a subagent's task ends is not the user's prompt.
func TestClaudeTaskNotification(t *testing.T) {
	t.Parallel()
	in := `{"type":"user","message":{"role":"user","content":"fix the parser"},"timestamp":"2026-11-22T10:00:00Z","sessionId":"s"}
{"type":"user","message":{"role":"user","content":"<task-notification> <task-id>t1</task-id> <output-file>/tmp/x</output-file> </task-notification>"},"origin":{"kind":"task-notification"},"timestamp":"2026-11-22T10:01:00Z","sessionId":"s"}
`
	s, err := Read(strings.NewReader(in), Claude, DefaultLimits(), Scope{})
	if err != nil || len(s.Prompts) != 1 || s.Prompts[0] != "fix the parser" {
		t.Fatalf("prompts %q, %v", s.Prompts, err)
	}
}
