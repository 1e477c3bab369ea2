package main

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// mcpCallStub is the model stub whose first reply to a request offering
// the tool, once armed, calls it with input; every other reply is text.
type mcpCallStub struct {
	*modelStub
	mu          sync.Mutex
	tool, input string // "" once called
}

func newMCPCallStub(t *testing.T, tool, input string) *mcpCallStub {
	s := &mcpCallStub{modelStub: &modelStub{}, tool: tool, input: input}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

func (s *mcpCallStub) serve(w http.ResponseWriter, r *http.Request) {
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
	tool, input := s.tool, s.input
	call := tool != "" && bytes.Contains(body, []byte(`"name":"`+tool+`"`))
	if call {
		s.tool = ""
	}
	s.mu.Unlock()
	block, delta, stop := textBlock, textDelta("stub reply"), "end_turn"
	if call {
		block, delta = toolUse("toolu_mcp1", tool, []byte(input))
		stop = "tool_use"
	}
	streamReply(w, "msg_stub", block, delta, stop)
}

// TestClaudeCodeMCPDecisionIsWork runs the real Claude Code with wake's
// hooks and its MCP server (issue 26, point 4): a session whose only work
// is a decision through wake_decide is asked for its hand-off by the Stop
// hook, as the same decision through the shell is, and the SessionEnd
// hook hands it off.
func TestClaudeCodeMCPDecisionIsWork(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs the real Claude Code client")
	}
	claude := claudeCode(t)
	bin := wakeBinary(t)
	stub := newMCPCallStub(t, "mcp__wake__wake_decide", `{"what":"Bake at dawn","because":"the ovens are free"}`)
	proj, env, _ := claudeProject(t, bin, "full", stub.URL)
	env = append(env, "ENABLE_TOOL_SEARCH=false")
	env, hooks := logHooks(t, env, bin)
	defer dumpHooks(t, hooks)
	runBounded(t, proj, env, 60*time.Second, bin, "install", "claude", "--mcp")
	runBounded(t, proj, env, 120*time.Second, claude, "-p", "record that we bake at dawn", "--allowedTools", "mcp__wake__wake_decide")

	ledger := readFile(t, filepath.Join(proj, ".wake", "ledger.jsonl"))
	if !strings.Contains(ledger, `"op":"decide"`) || !strings.Contains(ledger, "Bake at dawn") {
		t.Fatalf("the MCP call recorded no decision:\n%s", ledger)
	}
	// The decision's line names the session (Claude Code gives its MCP
	// servers CLAUDE_CODE_SESSION_ID), so Stop counts it however far its
	// transcript lags behind.
	for _, l := range strings.Split(ledger, "\n") {
		if strings.Contains(l, "Bake at dawn") && !strings.Contains(l, `"session":"`) {
			t.Errorf("the decision's ledger line names no session: %s", l)
		}
	}
	asked := false
	for _, r := range stub.takeRequests() {
		if strings.Contains(strings.Join(r, "\n"), "wake: this session recorded decisions") {
			asked = true
		}
	}
	if !asked {
		t.Error("the Stop hook did not ask the session that decided through MCP for its hand-off")
	}
	latest := readFile(t, filepath.Join(proj, ".wake", "recent", "latest.md"))
	if !strings.Contains(latest, "Automatic hand-off") || !strings.Contains(latest, "recorded 1 decision") {
		t.Errorf("SessionEnd wrote no automatic hand-off of the decision:\n%s", latest)
	}
	assertStaysInTempDir(t, proj)
}
