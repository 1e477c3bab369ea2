package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// mcpInstructionsHead and mcpInstructionsTail begin and end wake's
// server instructions (mcpserver.Instructions), and are nowhere else.
const (
	mcpInstructionsHead = "wake keeps this project's memory in plain files ("
	mcpInstructionsTail = "`wake reverse` and `wake uphold` are the user's, on the command line."
)

// assertInstructions checks that the request text carries wake's server
// instructions whole: their beginning, and their end after it.
func assertInstructions(t *testing.T, text string) {
	t.Helper()
	i := strings.Index(text, mcpInstructionsHead)
	if i < 0 || !strings.Contains(text[i:], mcpInstructionsTail) {
		t.Errorf("the model request lacks wake's server instructions, whole (found the beginning: %v)", i >= 0)
	}
}

// mcpTools are the tools wake mcp lists.
var mcpTools = []string{"memory_wakeup", "wake_load", "wake_check", "wake_cold", "wake_decide", "wake_contest", "wake_handoff", "wake_log", "wake_remember"}

// TestClaudeCodeMCPEndToEnd runs the real Claude Code against the model
// stub after 'wake install claude --mcp', with tool search off, so that
// every tool is in the request: 'claude -p' starts the project's server
// without asking for an approval (an interactive session asks once), and
// the request lists each of wake's tools and carries the server
// instructions whole; uninstall gives back a project with no .mcp.json.
func TestClaudeCodeMCPEndToEnd(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs the real Claude Code client")
	}
	claude := claudeCode(t)
	bin := wakeBinary(t)
	stub := newModelStub(t)
	proj, env, _ := claudeProject(t, bin, "full", stub.URL)
	env = append(env, "ENABLE_TOOL_SEARCH=false")
	runBounded(t, proj, env, 60*time.Second, bin, "install", "claude", "--mcp")
	out := runBounded(t, proj, env, 120*time.Second, claude, "-p", "hello")
	if !strings.Contains(out, "stub reply") {
		t.Fatalf("claude -p printed %q, not the stub's reply", out)
	}
	text := strings.Join(stub.take(), "\n")
	for _, tool := range mcpTools {
		if !strings.Contains(text, "mcp__wake__"+tool) {
			t.Errorf("the model request does not list mcp__wake__%s", tool)
		}
	}
	assertInstructions(t, text)
	runBounded(t, proj, env, 60*time.Second, bin, "uninstall", "claude")
	if _, err := os.Stat(filepath.Join(proj, ".mcp.json")); !os.IsNotExist(err) {
		t.Errorf(".mcp.json left after uninstall: %v", err)
	}
	if t.Failed() {
		t.Logf("request text:\n%.6000s", text)
	}
}
