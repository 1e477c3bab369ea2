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

// subagentPrompt is the task the stubbed main agent gives its subagent:
// how the stub tells the subagent's requests from the main agent's.
const subagentPrompt = "Count the bakery's October invoices (subagent-task-4e1d)."

// TestClaudeCodeSubagentCapsule runs the real Claude Code with wake
// installed against a model stub whose first answer to the main agent
// spawns a subagent with Claude Code's Agent tool (subagent_type
// general-purpose). wake's SubagentStart hook builds the branch's capsule
// and gives it to the subagent: its first request carries the consumption
// prompt (which says the main session hands off, not the subagent) and
// what of the capsule the boot context, which the subagent reads through
// CLAUDE.md, does not hold already (the main session's task, from its
// transcript), none of what it does; subagents.jsonl names the capsule
// and the agent type.
func TestClaudeCodeSubagentCapsule(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs the real Claude Code client")
	}
	claude := claudeCode(t)
	bin := wakeBinary(t)
	stub := newAgentStub(t)
	proj, env, _ := claudeProject(t, bin, "full", stub.URL)
	env, hooks := logHooks(t, env, bin)
	defer dumpHooks(t, hooks)
	runBounded(t, proj, env, 60*time.Second, bin, "install", "claude")
	settings := readFile(t, filepath.Join(proj, ".claude", "settings.json"))
	if !strings.Contains(settings, `"SubagentStart"`) || !strings.Contains(settings, `"command": "wake capsule --hook claude"`) {
		t.Fatalf("install did not add the SubagentStart hook:\n%s", settings)
	}
	out := runBounded(t, proj, env, 180*time.Second, claude, "-p", "hand the invoice count to a subagent")
	if !strings.Contains(out, "stub reply") {
		t.Errorf("claude -p printed %q, not the stub's final reply", out)
	}
	first, spawned := stub.result()
	if !spawned {
		t.Fatal("no main-agent request offered the Agent tool: the stub spawned no subagent")
	}
	if first == nil {
		t.Fatal("no request of the subagent reached the stub")
	}
	root := filepath.Join(proj, ".wake")
	rs, bad, err := store.ReadSubagents(afero.NewOsFs(), root)
	if err != nil || len(bad) > 0 || len(rs) != 1 {
		// The subagent's request says why the hook gave no capsule.
		t.Fatalf("subagents.jsonl: %+v %v %v; the subagent's first request:\n%.8000s", rs, bad, err, strings.Join(first, "\n"))
	}
	r := rs[0]
	if r.AgentType != "general-purpose" || r.Client != "claude" || r.AgentID == "" || r.Session == "" || r.Bytes == 0 || r.Bytes > 4096 {
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
	if c.Front.SourceSession != r.Session {
		t.Errorf("the capsule's source_session %q is not the main session %q", c.Front.SourceSession, r.Session)
	}
	mission := c.Section(capsule.MissionSnapshot)
	text := strings.Join(first, "\n")
	for _, want := range []string{"## Context Capsule", "Capsule " + r.Capsule, "### Transcript Highlights\n", "hand the invoice count to a subagent",
		"lines of it that the boot context you were given holds already are left out",
		"Treat this capsule as authoritative for current context", "Capsule gap", subagentPrompt,
		"The main session hands off, not you: do not run `wake handoff`."} {
		if !strings.Contains(text, want) {
			t.Errorf("the subagent's first request lacks %q", want)
		}
	}
	// The subagent reads boot.md through CLAUDE.md: the capsule carries
	// none of its facts again (issue 26, point 6).
	before, given, _ := strings.Cut(text, "## Context Capsule")
	given, _, _ = strings.Cut(given, "Treat this capsule as authoritative")
	for _, l := range strings.Split(given, "\n") {
		l = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(l), "- "))
		if _, fact, ok := strings.Cut(l, ":** "); ok && strings.HasPrefix(l, "**") {
			l = fact // "**Objective:** Ship it": the fact
		}
		if len(l) >= 16 && !strings.HasPrefix(l, "Capsule ") && strings.Contains(before, l) {
			t.Errorf("the capsule gives the subagent %q, which its boot context holds already", l)
		}
	}
	if !strings.Contains(mission, "Ship the end-to-end test") {
		t.Errorf("the capsule's Mission Snapshot lacks the hand-off's next step:\n%s", mission)
	}
	ledger := readFile(t, filepath.Join(root, "ledger.jsonl"))
	if !strings.Contains(ledger, `"op":"subagent"`) || !strings.Contains(ledger, "capsule "+r.Capsule+" given to subagent general-purpose (agent "+r.AgentID+", claude)") {
		t.Errorf("no ledger line of the injection:\n%s", ledger)
	}
	assertStaysInTempDir(t, proj)
	if t.Failed() || os.Getenv("WAKE_DEBUG") != "" {
		t.Logf("the subagent's first request:\n%.12000s", text)
	}
}

// agentStub is the model stub whose first answer to a main-agent request
// offering the Agent tool is a call of it, spawning a subagent with
// subagentPrompt; it keeps the first request of that subagent. Every
// other answer is text.
type agentStub struct {
	*modelStub
	mu       sync.Mutex
	spawned  bool
	subFirst []string // the strings of the subagent's first request
	n        int
}

func newAgentStub(t *testing.T) *agentStub {
	s := &agentStub{modelStub: &modelStub{}}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

func (s *agentStub) result() ([]string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.subFirst, s.spawned
}

// agentRequest is what the stub reads of a Messages API request.
type agentRequest struct {
	Tools []struct {
		Name string `json:"name"`
	} `json:"tools"`
	Messages []struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"messages"`
}

// userTexts are the texts of the request's user messages: strings and
// text blocks, not tool results.
func (r agentRequest) userTexts() string {
	var parts []string
	for _, m := range r.Messages {
		if m.Role != "user" {
			continue
		}
		var s string
		if json.Unmarshal(m.Content, &s) == nil {
			parts = append(parts, s)
			continue
		}
		var blocks []struct {
			Type, Text string
		}
		json.Unmarshal(m.Content, &blocks)
		for _, b := range blocks {
			if b.Type == "text" {
				parts = append(parts, b.Text)
			}
		}
	}
	return strings.Join(parts, "\n")
}

func (r agentRequest) offers(tool string) bool {
	for _, t := range r.Tools {
		if t.Name == tool {
			return true
		}
	}
	return false
}

func (s *agentStub) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	s.modelStub.mu.Lock()
	s.bodies = append(s.bodies, body)
	s.modelStub.mu.Unlock()
	if r.Method != http.MethodPost || r.URL.Path != "/v1/messages" {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, "{}")
		return
	}
	var req agentRequest
	json.Unmarshal(body, &req)
	s.mu.Lock()
	s.n++
	n := s.n
	spawn := false
	switch {
	case strings.Contains(req.userTexts(), subagentPrompt):
		// The subagent's own request: its task is a user message.
		if s.subFirst == nil {
			s.subFirst, _ = jsonStrings(body)
		}
	case !s.spawned && req.offers("Agent"):
		s.spawned, spawn = true, true
	}
	s.mu.Unlock()
	block := `{"type":"text","text":""}`
	delta := fmt.Sprintf(`{"type":"text_delta","text":%q}`, "stub reply")
	stop := "end_turn"
	if spawn {
		input, _ := json.Marshal(map[string]any{"description": "Count October invoices", "prompt": subagentPrompt,
			"subagent_type": "general-purpose", "run_in_background": false})
		block = `{"type":"tool_use","id":"toolu_agent1","name":"Agent","input":{}}`
		delta = fmt.Sprintf(`{"type":"input_json_delta","partial_json":%q}`, input)
		stop = "tool_use"
	}
	w.Header().Set("Content-Type", "text/event-stream")
	for _, ev := range [][2]string{
		{"message_start", fmt.Sprintf(`{"type":"message_start","message":{"id":"msg_agent%d","type":"message","role":"assistant","model":"claude-stub","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":1,"output_tokens":1}}}`, n)},
		{"content_block_start", `{"type":"content_block_start","index":0,"content_block":` + block + `}`},
		{"content_block_delta", `{"type":"content_block_delta","index":0,"delta":` + delta + `}`},
		{"content_block_stop", `{"type":"content_block_stop","index":0}`},
		{"message_delta", fmt.Sprintf(`{"type":"message_delta","delta":{"stop_reason":%q,"stop_sequence":null},"usage":{"output_tokens":2}}`, stop)},
		{"message_stop", `{"type":"message_stop"}`},
	} {
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", ev[0], ev[1])
	}
}
