//go:build unix

package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// TestCodexCompactKeepsCheckpoint runs the real Codex through its app
// server (what its TUI's /compact drives): a turn that writes a file,
// then a compaction of the thread (thread/compact/start), then another
// turn. wake's PreCompact hook keeps a checkpoint of the session, and the
// first request after the compaction carries it, in the context of the
// SessionStart hook Codex runs with source "compact" (issue 26, point 8).
func TestCodexCompactKeepsCheckpoint(t *testing.T) {
	t.Parallel()
	codex, bin, stub, p := codexE2E(t)
	if out := p.wake(t, "install", "codex"); !strings.Contains(out, `PreCompact "wake hook compact codex"`) || !strings.Contains(out, "trusted 5 of wake's hooks") {
		t.Fatalf("wake install codex did not add and trust the PreCompact hook:\n%s", out)
	}
	env, hooks := logHooks(t, p.env, bin)
	defer dumpHooks(t, hooks)

	s := startCodexAppServer(t, p.dir, env, codex)
	var thread struct {
		Thread struct {
			ID string `json:"id"`
		} `json:"thread"`
	}
	s.call(t, "thread/start", map[string]any{"cwd": p.dir, "approvalPolicy": "never", "sandbox": "danger-full-access"}, &thread)
	id := thread.Thread.ID
	if id == "" {
		t.Fatal("thread/start gave no thread id")
	}

	stub.script(
		[]any{map[string]any{"type": "custom_tool_call", "id": "ctc_1", "call_id": "call_1", "name": "apply_patch",
			"input": "*** Begin Patch\n*** Add File: notes/bakery.txt\n+rye on Tuesdays\n*** End Patch\n"}},
		[]any{assistantMessage("msg_2", "Wrote notes/bakery.txt. The delivery times are still open.")},
	)
	s.turn(t, id, "write the notes for the bakery")
	if data, err := os.ReadFile(filepath.Join(p.dir, "notes", "bakery.txt")); err != nil || string(data) != "rye on Tuesdays\n" {
		t.Fatalf("the tool call did not write notes/bakery.txt: %q %v", data, err)
	}
	stub.take()

	s.call(t, "thread/compact/start", map[string]any{"threadId": id}, nil)
	s.waitTurn(t)
	if log := readFile(t, hooks); !strings.Contains(log, "wake hook compact codex") {
		t.Fatalf("no PreCompact hook ran:\n%s", log)
	}
	checkpoint := readFile(t, filepath.Join(p.dir, ".wake", ".state", "checkpoints", id+".md"))
	if len(stub.take()) == 0 {
		t.Fatal("the compaction sent the model no request: Codex did not compact")
	}

	s.turn(t, id, "go on")
	reqs := stub.requests()
	if len(reqs) == 0 {
		t.Fatal("the model got no request after the compaction")
	}
	carried := ""
	for _, m := range reqs[0].Input {
		if m.Type == "custom_tool_call" {
			t.Errorf("the request after the compaction still holds the tool call: the history was not compacted")
		}
		if text := m.text(); m.Role == "developer" && strings.Contains(text, "## Checkpoint before the compaction") {
			carried = text
		}
	}
	for _, want := range []string{"## Checkpoint before the compaction", "write the notes for the bakery", "notes/bakery.txt", "The delivery times are still open."} {
		if !strings.Contains(carried, want) {
			t.Errorf("the first request after the compaction carries no developer message with %q", want)
		}
	}
	if !strings.HasPrefix(carried, strings.TrimSpace(checkpoint)) {
		t.Errorf("the SessionStart hook's text after the compaction does not start with the checkpoint wake wrote:\n%s", checkpoint)
	}
	if n := len(carried); n > 10000 {
		t.Errorf("the hook's text is %d bytes, past Codex's 10,000", n)
	}
	if t.Failed() {
		t.Logf("first request after the compaction:\n%.6000s", strings.Join(stub.take(), "\n"))
	}
}

// codexAppServer is a JSON-RPC conversation with the real `codex
// app-server` over its standard input and output: requests in turn,
// their responses awaited, the server's notifications queued.
type codexAppServer struct {
	in     io.Writer
	lines  chan map[string]any
	next   int
	notes  []map[string]any
	stderr *syncBuilder
}

// syncBuilder is a strings.Builder that exec's copying goroutine writes
// while the test reads it.
type syncBuilder struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuilder) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuilder) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// startCodexAppServer starts the app server in dir and initializes the
// conversation; the test's end closes its input and, past five seconds,
// kills its process group.
func startCodexAppServer(t *testing.T, dir string, env []string, codex string) *codexAppServer {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	cmd := exec.CommandContext(ctx, codex, "app-server")
	cmd.Dir, cmd.Env = dir, env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	s := &codexAppServer{lines: make(chan map[string]any, 256), stderr: &syncBuilder{}}
	cmd.Stderr = s.stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s.in = in
	go func() {
		defer close(s.lines)
		r := bufio.NewReaderSize(out, 1<<20)
		for {
			line, err := r.ReadBytes('\n')
			var m map[string]any
			if json.Unmarshal(line, &m) == nil {
				s.lines <- m
			}
			if err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() {
		in.Close()
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-done
		}
		cancel()
	})
	s.call(t, "initialize", map[string]any{"clientInfo": map[string]string{"name": "wake-e2e", "title": "wake e2e", "version": "1"}}, nil)
	s.send(t, map[string]any{"method": "initialized"})
	return s
}

func (s *codexAppServer) send(t *testing.T, m map[string]any) {
	t.Helper()
	data, _ := json.Marshal(m)
	if _, err := s.in.Write(append(data, '\n')); err != nil {
		t.Fatalf("writing to codex app-server: %v\nstderr:\n%.4000s", err, s.stderr)
	}
}

// read is the server's next message, within a minute.
func (s *codexAppServer) read(t *testing.T, what string) map[string]any {
	t.Helper()
	select {
	case m, ok := <-s.lines:
		if !ok {
			t.Fatalf("codex app-server closed its output awaiting %s\nstderr:\n%.4000s", what, s.stderr)
		}
		// The server's own requests (approvals) are refused: the
		// thread runs with none.
		if m["id"] != nil && m["method"] != nil {
			s.send(t, map[string]any{"id": m["id"], "error": map[string]any{"code": -32601, "message": "the test answers no requests"}})
		}
		return m
	case <-time.After(time.Minute):
		t.Fatalf("codex app-server said nothing for a minute awaiting %s\nstderr:\n%.4000s", what, s.stderr)
	}
	return nil
}

// call sends a request and decodes its result into result.
func (s *codexAppServer) call(t *testing.T, method string, params, result any) {
	t.Helper()
	id := s.next
	s.next++
	s.send(t, map[string]any{"id": id, "method": method, "params": params})
	for {
		m := s.read(t, method)
		if m["method"] != nil {
			if m["id"] == nil {
				s.notes = append(s.notes, m)
			}
			continue
		}
		if n, ok := m["id"].(float64); !ok || int(n) != id {
			continue
		}
		if m["error"] != nil {
			t.Fatalf("%s: %v", method, m["error"])
		}
		if result != nil {
			data, _ := json.Marshal(m["result"])
			if err := json.Unmarshal(data, result); err != nil {
				t.Fatalf("%s: %v", method, err)
			}
		}
		return
	}
}

// turn runs one turn of the thread with the prompt, to its end.
func (s *codexAppServer) turn(t *testing.T, thread, prompt string) {
	t.Helper()
	s.call(t, "turn/start", map[string]any{"threadId": thread, "input": []any{map[string]any{"type": "text", "text": prompt}}}, nil)
	s.waitTurn(t)
}

// waitTurn waits for the notification that a turn completed, and fails
// the test when it did not complete.
func (s *codexAppServer) waitTurn(t *testing.T) {
	t.Helper()
	for {
		var m map[string]any
		if len(s.notes) > 0 {
			m, s.notes = s.notes[0], s.notes[1:]
		} else {
			m = s.read(t, "turn/completed")
		}
		if m["method"] != "turn/completed" {
			continue
		}
		params, _ := m["params"].(map[string]any)
		turn, _ := params["turn"].(map[string]any)
		if status := fmt.Sprint(turn["status"]); status != "completed" {
			t.Fatalf("the turn ended %s: %v\nstderr:\n%.4000s", status, turn["error"], s.stderr)
		}
		return
	}
}

// TestCodexCompactAutoKeepsCheckpoint: Codex compacts a thread on its own
// when a reply reports more tokens than model_auto_compact_token_limit
// and the turn goes on (a tool was called). In one `codex exec` turn the
// PreCompact hook (trigger "auto") keeps the checkpoint, and Codex runs
// the SessionStart hook of the compaction before the turn goes on: the
// first request after the compaction carries the checkpoint.
func TestCodexCompactAutoKeepsCheckpoint(t *testing.T) {
	t.Parallel()
	_, bin, stub, p := codexE2E(t)
	config := filepath.Join(p.home, ".codex", "config.toml")
	if err := os.WriteFile(config, []byte("model_auto_compact_token_limit = 5000\n"+readFile(t, config)), 0o600); err != nil {
		t.Fatal(err)
	}
	p.wake(t, "install", "codex")
	var hooks string
	p.env, hooks = logHooks(t, p.env, bin)
	defer dumpHooks(t, hooks)

	// The tool call's reply reports 90,000 tokens: past the limit, with
	// the turn to go on, Codex compacts before its next request.
	stub.script(
		[]any{map[string]any{"type": "custom_tool_call", "id": "ctc_1", "call_id": "call_1", "name": "apply_patch",
			"input": "*** Begin Patch\n*** Add File: notes/bakery.txt\n+rye on Tuesdays\n*** End Patch\n"}},
	)
	stub.usage(90000)
	p.codex(t, "write the notes for the bakery")
	if log := readFile(t, hooks); !strings.Contains(log, "wake hook compact codex") {
		t.Fatalf("no PreCompact hook ran:\n%s", log)
	}
	// The prompt's request, the compaction's, then the turn goes on.
	reqs := stub.requests()
	if len(reqs) < 3 {
		t.Fatalf("the model got %d requests, want the prompt's, the compaction's and more", len(reqs))
	}
	carried := make([]string, len(reqs))
	for i, r := range reqs {
		for _, m := range r.Input {
			if text := m.text(); m.Role == "developer" && strings.Contains(text, "## Checkpoint before the compaction") {
				carried[i] = text
			}
			if i == 2 && m.Type == "custom_tool_call" {
				t.Errorf("the request after the compaction still holds the tool call: the history was not compacted")
			}
		}
	}
	if carried[0] != "" || carried[1] != "" {
		t.Errorf("a request before the compaction's end carries a checkpoint")
	}
	for _, want := range []string{"## Checkpoint before the compaction", "write the notes for the bakery", "notes/bakery.txt (apply_patch)"} {
		if !strings.Contains(carried[2], want) {
			t.Errorf("the first request after the compaction carries no developer message with %q", want)
		}
	}
	if t.Failed() {
		t.Logf("the requests:\n%.8000s", strings.Join(stub.take(), "\n"))
	}
}
