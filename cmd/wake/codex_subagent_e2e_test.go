//go:build unix

package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/capsule"
	"github.com/wakeproto/wake/store"
)

// TestCodexSubagentCapsule runs the real Codex CLI with wake installed
// and its multi-agent tools on (features.multi_agent_v2) against a
// Responses API stub whose first answer to the main agent spawns a
// subagent (spawn_agent) and whose second waits for it (wait_agent).
// wake's SubagentStart hook gives the subagent the branch's capsule: its
// first request carries it, and subagents.jsonl names it and the agent.
func TestCodexSubagentCapsule(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs the real Codex CLI")
	}
	codex := codexCLI(t)
	bin := wakeBinary(t)
	stub := newSpawnStub(t)
	p := newCodexProject(t, bin, codex, stub.URL)
	f, err := os.OpenFile(filepath.Join(p.home, ".codex", "config.toml"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString("\n[features]\nmulti_agent_v2 = true\n"); err != nil {
		t.Fatal(err)
	}
	f.Close()
	out := p.wake(t, "install", "codex")
	if !strings.Contains(out, `SubagentStart "wake capsule --hook codex"`) || !strings.Contains(out, "trusted 5 of wake's hooks") {
		t.Fatalf("wake install codex:\n%s", out)
	}
	p.codex(t, "hand the invoice count to a subagent")
	first, spawned := stub.result()
	if !spawned {
		t.Fatal("no main-agent request offered spawn_agent")
	}
	if first == nil {
		t.Fatal("no request of the subagent reached the stub")
	}
	root := filepath.Join(p.dir, ".wake")
	rs, bad, err := store.ReadSubagents(afero.NewOsFs(), root)
	if err != nil || len(bad) > 0 || len(rs) != 1 {
		t.Fatalf("subagents.jsonl: %+v %v %v", rs, bad, err)
	}
	r := rs[0]
	branch := strings.TrimSpace(runBounded(t, p.dir, p.env, 30*time.Second, "git", "symbolic-ref", "--short", "HEAD"))
	// Codex 0.169.0 names the type of an agent spawn_agent starts "default".
	if r.Client != "codex" || r.AgentID == "" || r.AgentType != "default" || r.Session == "" || r.Bytes == 0 || r.Bytes > 4096 || !strings.HasPrefix(r.Capsule, capsule.BranchDir(branch)+"/") {
		t.Errorf("registry line %+v", r)
	}
	data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(capsule.PathOf(r.Capsule))))
	if err != nil {
		t.Fatalf("the capsule the registry names: %v", err)
	}
	c, err := capsule.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Join(first, "\n")
	for _, want := range []string{"## Context Capsule", "Capsule " + r.Capsule, "### Mission Snapshot\n\n" + c.Section(capsule.MissionSnapshot),
		"Treat this capsule as authoritative for current context", subagentPrompt} {
		if !strings.Contains(text, want) {
			t.Errorf("the subagent's first request lacks %q", want)
		}
	}
	if t.Failed() {
		t.Logf("registry %+v; the subagent's first request:\n%.8000s", r, text)
	}
}

// spawnTask is the task name of the subagent the stub spawns.
const spawnTask = "count_invoices"

// spawnStub answers the Responses API: a request whose input holds the
// task message to the subagent is the subagent's (its first is kept; it
// gets a text reply); of the main agent's requests offering spawn_agent, the first
// gets a spawn_agent call, the second a wait_agent call, the others text.
type spawnStub struct {
	*httptest.Server
	mu       sync.Mutex
	main     int
	spawned  bool
	subFirst []string
	n        int
}

func newSpawnStub(t *testing.T) *spawnStub {
	s := &spawnStub{}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

func (s *spawnStub) result() ([]string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.subFirst, s.spawned
}

func (s *spawnStub) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	if r.Method != http.MethodPost || r.URL.Path != "/v1/responses" {
		http.NotFound(w, r)
		return
	}
	var req struct {
		Input []struct {
			Type      string `json:"type"`
			Recipient string `json:"recipient"`
		} `json:"input"`
	}
	json.Unmarshal(body, &req)
	// The subagent's task reaches it as an agent message from the root.
	sub := false
	for _, it := range req.Input {
		sub = sub || it.Type == "agent_message" && it.Recipient == "/root/"+spawnTask
	}
	s.mu.Lock()
	s.n++
	n := s.n
	items := []any{assistantMessage(fmt.Sprintf("msg_%d", n), "stub reply")}
	switch {
	case sub:
		if s.subFirst == nil {
			s.subFirst, _ = jsonStrings(body)
		}
	case strings.Contains(string(body), `"spawn_agent"`):
		s.main++
		switch s.main {
		case 1:
			s.spawned = true
			args, _ := json.Marshal(map[string]string{"task_name": spawnTask, "message": subagentPrompt, "fork_turns": "none"})
			items = []any{map[string]any{"type": "function_call", "id": "fc_1", "call_id": "call_spawn", "name": "spawn_agent",
				"namespace": "collaboration", "arguments": string(args)}}
		case 2:
			items = []any{map[string]any{"type": "function_call", "id": "fc_2", "call_id": "call_wait", "name": "wait_agent",
				"namespace": "collaboration", "arguments": `{"timeout_ms":20000}`}}
		}
	}
	s.mu.Unlock()
	w.Header().Set("Content-Type", "text/event-stream")
	id := fmt.Sprintf("resp_%d", n)
	events := []map[string]any{{"type": "response.created", "response": map[string]any{"id": id}}}
	for _, it := range items {
		events = append(events, map[string]any{"type": "response.output_item.done", "item": it})
	}
	events = append(events, map[string]any{"type": "response.completed", "response": map[string]any{"id": id,
		"usage": map[string]any{"input_tokens": 0, "input_tokens_details": nil, "output_tokens": 0, "output_tokens_details": nil, "total_tokens": 0}}})
	for _, ev := range events {
		data, _ := json.Marshal(ev)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", ev["type"], data)
	}
}
