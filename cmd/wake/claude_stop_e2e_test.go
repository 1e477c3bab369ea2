package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// stopReasonStart opens the reason wake's Stop hook gives for a session
// that wrote files: how the test finds it in what the model received.
const stopReasonStart = "wake: this session changed files (notes.txt among them) but wrote no hand-off"

// TestClaudeCodeStopAndEnd runs the real Claude Code with wake installed
// against a model stub that, asked to, has the agent write a file with
// its Write tool. A session that only talks is neither stopped nor handed
// off. A session that wrote a file and no hand-off is stopped once: wake's
// reason reaches the model in one request, as its newest turn, and the
// next stop goes through; when the session ends, recent/latest.md holds
// the automatic hand-off built from its transcript, with the last message
// of the work (not the answer to the hook) and what it left open as an
// open thread and the next priority.
func TestClaudeCodeStopAndEnd(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs the real Claude Code client")
	}
	claude := claudeCode(t)
	bin := wakeBinary(t)
	stub := newWriterStub(t)
	proj, env, _ := claudeProject(t, bin, "full", stub.URL)
	env, hooks := logHooks(t, env, bin)
	defer dumpHooks(t, hooks)
	runBounded(t, proj, env, 60*time.Second, bin, "install", "claude")
	// In a git work tree, the hand-off lists what git shows changed too.
	runBounded(t, proj, env, 60*time.Second, "git", "init", "-q")
	latest := filepath.Join(proj, ".wake", "recent", "latest.md")
	before := readFile(t, latest)

	// A session that only talks.
	runBounded(t, proj, env, 120*time.Second, claude, "-p", "what is VAT?")
	for _, r := range stub.takeRequests() {
		if strings.Contains(strings.Join(r, "\n"), "wake: this session") {
			t.Fatal("a session that did nothing was asked for a hand-off")
		}
	}
	if readFile(t, latest) != before {
		t.Fatalf("a session that did nothing was handed off:\n%s", readFile(t, latest))
	}

	// A session that writes a file, says what is left to do, and writes
	// no hand-off: asked by the Stop hook, it answers (the stub's next
	// reply) and stops.
	notes := filepath.Join(proj, "notes.txt")
	stub.writeNext(notes)
	const work = "Wrote the notes. The weekly totals still need checking against the till rolls."
	stub.afterWrite = work
	const prompt = "write the notes for the bakery"
	runBounded(t, proj, env, 120*time.Second, claude, "-p", "--permission-mode", "acceptEdits", prompt)
	if got := readFile(t, notes); got != writerContent {
		t.Fatalf("notes.txt holds %q: the agent's Write did not run", got)
	}
	reqs := stub.takeMessages(t)
	assertReasonOnce(t, reqs)

	got := readFile(t, latest)
	for _, want := range []string{
		"summary: 'Automatic hand-off (the session ended without one): the agent''s tools edited 1 file (notes.txt); the user asked: “" + prompt + "”'",
		"- The agent's tools edited: notes.txt (Write)\n",
		"## What changed (files)\n- notes.txt (untracked, uncommitted)\n",
		// The last message of the work, not the answer to the hook; what
		// it left open is the next priority's, once.
		"- The agent's last message: “Wrote the notes.” (what it left open: the next priority and the open threads)\n",
		"from the claude transcript " + filepath.Join(filepath.Dir(proj), "home", ".claude", "projects"),
	} {
		if !strings.Contains(got, want) {
			t.Errorf("recent/latest.md lacks %q", want)
		}
	}
	if strings.Contains(got, stubText(len(reqs))) {
		t.Errorf("recent/latest.md quotes the agent's answer to the Stop hook, %q", stubText(len(reqs)))
	}
	if main := readFile(t, filepath.Join(proj, ".wake", "main.md")); !strings.Contains(main, "next_priority: Check this automatic hand-off against the work tree, then take up what the agent's last message left open: “The weekly totals still need checking against the till rolls.”\n") {
		t.Errorf("main.md's next priority is not what the work left open:\n%s", main)
	}
	ledger := readFile(t, filepath.Join(proj, ".wake", "ledger.jsonl"))
	if lines := strings.Split(strings.TrimSpace(ledger), "\n"); !strings.Contains(lines[len(lines)-1], `"auto":true`) {
		t.Errorf("the last ledger line is not the automatic hand-off: %s", lines[len(lines)-1])
	}
	assertStaysInTempDir(t, proj)
	if t.Failed() {
		t.Logf("recent/latest.md:\n%s", got)
	}
}

// TestClaudeCodeAsksAgainAfterHandoff runs the real Claude Code through
// a session that goes on after its hand-off, as --continue does (the same
// session, its transcript going on): the first run writes a.txt, is asked
// once and handed off at its end; the next run writes b.txt, and is asked
// once more, for that work alone, which its end hands off after the
// first; a last run that only talks is neither asked nor handed off.
func TestClaudeCodeAsksAgainAfterHandoff(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs the real Claude Code client")
	}
	claude := claudeCode(t)
	bin := wakeBinary(t)
	stub := newWriterStub(t)
	// The ledger keeps times to the second: the stub's pause after a
	// Write puts the hand-off that follows in a later second than the
	// edit, so that the edit is before it as the ledger tells.
	stub.pause = 1100 * time.Millisecond
	proj, env, _ := claudeProject(t, bin, "full", stub.URL)
	runBounded(t, proj, env, 60*time.Second, bin, "install", "claude")
	runBounded(t, proj, env, 60*time.Second, "git", "init", "-q")
	latest := filepath.Join(proj, ".wake", "recent", "latest.md")

	stub.writeNext(filepath.Join(proj, "a.txt"))
	runBounded(t, proj, env, 120*time.Second, claude, "-p", "--permission-mode", "acceptEdits", "write a")
	assertReasonOnceWith(t, stub.takeMessages(t), "wake: this session changed files (a.txt among them) but wrote no hand-off")
	first := readFile(t, latest)
	if !strings.Contains(first, "summary: 'Automatic hand-off (the session ended without one): the agent''s tools edited 1 file (a.txt)") {
		t.Fatalf("the first run's automatic hand-off:\n%s", first)
	}

	// The work after a hand-off begins with the second after it (the
	// ledger keeps seconds): a real model takes longer than that to
	// answer, the stub does not, so the next run waits it out.
	time.Sleep(1100 * time.Millisecond)
	stub.writeNext(filepath.Join(proj, "b.txt"))
	runBounded(t, proj, env, 120*time.Second, claude, "-p", "--continue", "--permission-mode", "acceptEdits", "now write b")
	assertReasonOnceWith(t, stub.takeMessages(t), "wake: this session changed files (b.txt among them) since its hand-off of ")
	got := readFile(t, latest)
	for _, want := range []string{
		"summary: 'Automatic hand-off of the work after the hand-off of ",
		"(the session ended without another): the agent''s tools edited 1 file (b.txt); the user asked: “now write b”'",
		"- The agent's tools edited: b.txt (Write)\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("recent/latest.md lacks %q", want)
		}
	}
	if strings.Contains(got, "a.txt (Write)") || strings.Contains(got, "“write a”") {
		t.Errorf("the second hand-off covers the first run's work too")
	}
	if prev := readFile(t, filepath.Join(proj, ".wake", "recent", "previous.md")); prev != first {
		t.Errorf("recent/previous.md is not the first run's hand-off:\n%s", prev)
	}

	runBounded(t, proj, env, 120*time.Second, claude, "-p", "--continue", "what is next?")
	for _, msgs := range stub.takeMessages(t) {
		if newest := msgs[lastAssistant(msgs)+1:]; turnHolds(newest, "wake: this session") {
			t.Error("a run that did nothing after its hand-off was asked for one")
		}
	}
	if readFile(t, latest) != got {
		t.Errorf("a run that did nothing after its hand-off was handed off:\n%s", readFile(t, latest))
	}
	if t.Failed() {
		t.Logf("recent/latest.md:\n%s", got)
	}
}

// assertReasonOnce checks that wake's reason reached the model once: one
// request carries it in its newest turn (the messages after the last
// assistant message, where Claude Code puts it as the user's "Stop hook
// feedback"), and that request holds its text exactly once. The request
// after the reason is the last: the next stop went through.
func assertReasonOnce(t *testing.T, reqs [][]stubMessage) {
	t.Helper()
	assertReasonOnceWith(t, reqs, stopReasonStart)
}

// assertReasonOnceWith is assertReasonOnce for the reason that starts
// with stopReasonStart.
func assertReasonOnceWith(t *testing.T, reqs [][]stubMessage, stopReasonStart string) {
	t.Helper()
	delivered := -1
	for i, msgs := range reqs {
		newest := msgs[lastAssistant(msgs)+1:]
		if !turnHolds(newest, stopReasonStart) {
			continue
		}
		if delivered >= 0 {
			t.Errorf("requests %d and %d both carry wake's reason as their newest turn", delivered, i)
		}
		delivered = i
	}
	if delivered < 0 {
		t.Fatalf("no request carries wake's reason (%d requests)", len(reqs))
	}
	if delivered != len(reqs)-1 {
		t.Errorf("%d requests followed the one carrying wake's reason: the stop after it was blocked again", len(reqs)-1-delivered)
	}
	// The reason's text, once in the whole request: the JSON form of the
	// block reached the model twice, as the user's turn and in a system
	// note; the form Claude Code documents (exit status 2, stderr) once.
	copies := 0
	for _, m := range reqs[delivered] {
		copies += strings.Count(m.Text, stopReasonStart)
	}
	if copies != 1 {
		t.Errorf("the request carrying wake's reason holds it %d times, not once:\n%v", copies, reqs[delivered])
	}
	if strings.Count(reqs[delivered][len(reqs[delivered])-1].Text, "Before you stop, write it with one command") != 1 {
		t.Errorf("the reason's whole text is not in the request's newest message:\n%v", reqs[delivered])
	}
}

func lastAssistant(msgs []stubMessage) int {
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == "assistant" {
			return i
		}
	}
	return -1
}

func turnHolds(msgs []stubMessage, s string) bool {
	for _, m := range msgs {
		if strings.Contains(m.Text, s) {
			return true
		}
	}
	return false
}

// writerContent is what the stub's Write puts in the file.
const writerContent = "Flour: 25 kg a week.\n"

// writerStub is the model stub whose next reply, once armed, is a Write
// tool call creating a file; every other reply is text naming its
// request's number.
type writerStub struct {
	*modelStub
	mu    sync.Mutex
	write string // the file the next tool-bearing request writes; "" when not armed
	n     int
	// pause delays the reply to the request after a Write; wrote says
	// the last reply was one. afterWrite, when set, is the text of that
	// reply, once.
	pause      time.Duration
	wrote      bool
	afterWrite string
}

func newWriterStub(t *testing.T) *writerStub {
	s := &writerStub{modelStub: &modelStub{}}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

func (s *writerStub) writeNext(path string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.write, s.n = path, 0
}

func stubText(n int) string { return fmt.Sprintf("stub reply %d", n) }

func (s *writerStub) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	s.modelStub.mu.Lock()
	s.bodies = append(s.bodies, body)
	s.modelStub.mu.Unlock()
	if r.Method != http.MethodPost || r.URL.Path != "/v1/messages" {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, "{}")
		return
	}
	s.mu.Lock()
	s.n++
	n, file := s.n, s.write
	pause, text := s.pause, stubText(n)
	if !s.wrote {
		pause = 0
	} else if s.afterWrite != "" {
		text, s.afterWrite = s.afterWrite, ""
	}
	s.write, s.wrote = "", file != ""
	s.mu.Unlock()
	time.Sleep(pause)
	block, delta, stop := textBlock, textDelta(text), "end_turn"
	if file != "" {
		input, _ := json.Marshal(map[string]string{"file_path": file, "content": writerContent})
		block, delta = toolUse("toolu_stub1", "Write", input)
		stop = "tool_use"
	}
	streamReply(w, fmt.Sprintf("msg_stub%d", n), block, delta, stop)
}

// stubMessage is one message of a request, its text blocks joined.
type stubMessage struct {
	Role, Text string
}

// takeMessages returns the messages of each Messages API request received
// since the last take, in order.
func (s *writerStub) takeMessages(t *testing.T) [][]stubMessage {
	t.Helper()
	s.modelStub.mu.Lock()
	bodies := s.bodies
	s.bodies = nil
	s.modelStub.mu.Unlock()
	var out [][]stubMessage
	for _, body := range bodies {
		var req struct {
			Messages []struct {
				Role    string          `json:"role"`
				Content json.RawMessage `json:"content"`
			} `json:"messages"`
		}
		if json.Unmarshal(body, &req) != nil || len(req.Messages) == 0 {
			continue
		}
		var msgs []stubMessage
		for _, m := range req.Messages {
			var text string
			if json.Unmarshal(m.Content, &text) != nil {
				var blocks []struct {
					Text    string          `json:"text"`
					Content json.RawMessage `json:"content"`
				}
				json.Unmarshal(m.Content, &blocks)
				var parts []string
				for _, b := range blocks {
					parts = append(parts, b.Text, string(b.Content))
				}
				text = strings.Join(parts, "\n")
			}
			msgs = append(msgs, stubMessage{m.Role, text})
		}
		out = append(out, msgs)
	}
	return out
}
