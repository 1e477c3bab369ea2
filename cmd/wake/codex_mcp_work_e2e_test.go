package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestCodexMCPDecisionIsWork runs the real Codex CLI with wake's hooks
// and its MCP server (issue 26, point 4): a session whose only work is a
// decision through wake_decide is asked for its hand-off by the Stop
// hook, as the same decision through the shell is, and its end hands it
// off.
func TestCodexMCPDecisionIsWork(t *testing.T) {
	t.Parallel()
	_, _, stub, p := codexE2E(t)
	p.wake(t, "install", "codex", "--mcp")
	stub.script(
		[]any{map[string]any{"type": "function_call", "id": "fc_1", "call_id": "call_1", "namespace": "mcp__wake", "name": "wake_decide",
			"arguments": `{"what":"Bake at dawn","because":"the ovens are free"}`}},
		[]any{assistantMessage("msg_2", "Recorded the decision.")},
	)
	// A model Codex knows nothing of: the tools are offered whole, not
	// behind a tool search.
	runBounded(t, p.dir, p.env, 120*time.Second, p.codexBin, "exec", "--dangerously-bypass-approvals-and-sandbox", "--color", "never", "-m", "stub-model", "record that we bake at dawn")
	ledger := readFile(t, filepath.Join(p.dir, ".wake", "ledger.jsonl"))
	if !strings.Contains(ledger, `"op":"decide"`) || !strings.Contains(ledger, "Bake at dawn") {
		t.Fatalf("the MCP call recorded no decision:\n%s", ledger)
	}
	asked := false
	for _, text := range stub.take() {
		if strings.Contains(text, "wake: this session recorded decisions") {
			asked = true
		}
	}
	if !asked {
		t.Error("the Stop hook did not ask the session that decided through MCP for its hand-off")
	}
	latest := filepath.Join(p.dir, ".wake", "recent", "latest.md")
	deadline := time.Now().Add(10 * time.Second)
	var now []byte
	for time.Now().Before(deadline) {
		if now, _ = os.ReadFile(latest); strings.Contains(string(now), "Automatic hand-off") {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if !strings.Contains(string(now), "Automatic hand-off") || !strings.Contains(string(now), "recorded 1 decision") {
		t.Errorf("the session's end wrote no automatic hand-off of the decision:\n%s", now)
	}
	if t.Failed() {
		matches, _ := filepath.Glob(filepath.Join(p.home, ".codex", "sessions", "*", "*", "*", "*.jsonl"))
		for _, m := range matches {
			t.Logf("%s:\n%s", m, readFile(t, m))
		}
	}
}
