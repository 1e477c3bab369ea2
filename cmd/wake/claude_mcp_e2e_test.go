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

// mcpHookedLine is what the server instructions of a session whose hook
// gave it the boot context say of it (mcpserver.HookedInstructions).
const mcpHookedLine = "wake's hook gave this session its boot context"

// assertHookedInstructions checks that the request text carries the
// server instructions of a session whose hook gave it the boot context,
// and the protocol card and the announcement once: the hook's copy, not
// a second one from the server (issue 26, point 4).
func assertHookedInstructions(t *testing.T, text string) {
	t.Helper()
	if !strings.Contains(text, mcpInstructionsHead) || !strings.Contains(text, mcpHookedLine) {
		t.Errorf("the model request lacks the instructions of a session its hook gave the boot context")
	}
	if strings.Contains(text, "Call wake_load first") {
		t.Errorf("a session its hook gave the boot context is told to load it first")
	}
	for _, once := range []string{"You are one instance in a chain; this memory is all that carries over.", mcpInstructionsTail} {
		if n := strings.Count(text, once); n > 1 {
			t.Errorf("the model request carries %q %d times", once, n)
		}
	}
	if n := strings.Count(text, "You are one instance in a chain"); n != 1 {
		t.Errorf("the model request carries the protocol card %d times, want once (the hook's)", n)
	}
}

// mcpTools are the tools wake mcp lists.
var mcpTools = []string{"memory_wakeup", "wake_load", "wake_check", "wake_cold", "wake_decide", "wake_contest", "wake_handoff", "wake_log", "wake_remember"}

// TestClaudeCodeMCPEndToEnd runs the real Claude Code against the model
// stub after 'wake install claude --mcp', with tool search off (every
// tool in the request) and on (the tools deferred behind ToolSearch, as
// for a current model by default): 'claude -p' starts the project's server
// without asking for an approval (an interactive session asks once), and
// the request lists each of wake's tools and carries the server
// instructions of a session the hook gave the boot context, the protocol
// card once; uninstall gives back a project with no .mcp.json.
func TestClaudeCodeMCPEndToEnd(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs the real Claude Code client")
	}
	claude := claudeCode(t)
	bin := wakeBinary(t)
	stub := newModelStub(t)
	proj, env, _ := claudeProject(t, bin, "full", stub.URL)
	runBounded(t, proj, env, 60*time.Second, bin, "install", "claude", "--mcp")
	var text string
	// With tool search off, and on, as Claude Code has it by default for
	// a current model: the tools then deferred behind ToolSearch, listed
	// by name, the instructions there all the same.
	for _, search := range []string{"false", "true"} {
		out := runBounded(t, proj, append(env, "ENABLE_TOOL_SEARCH="+search), 120*time.Second, claude, "-p", "hello")
		if !strings.Contains(out, "stub reply") {
			t.Fatalf("claude -p printed %q, not the stub's reply", out)
		}
		requests := stub.takeRequests()
		var texts []string
		for _, r := range requests {
			texts = append(texts, r...)
		}
		text = strings.Join(texts, "\n")
		// The hooks and the MCP server together: each fact once.
		if len(requests) > 0 {
			assertEachFactOnce(t, "tool search "+search+", the first request", strings.Join(requests[0], "\n"), readFile(t, filepath.Join(proj, ".wake", "boot.md")))
		}
		for _, tool := range mcpTools {
			if !strings.Contains(text, "mcp__wake__"+tool) {
				t.Errorf("tool search %s: the model request does not list mcp__wake__%s", search, tool)
			}
		}
		if deferred := strings.Contains(text, "deferred tools are now available via ToolSearch"); deferred != (search == "true") {
			t.Errorf("tool search %s: the tools deferred: %v", search, deferred)
		}
		assertHookedInstructions(t, text)
	}
	runBounded(t, proj, env, 60*time.Second, bin, "uninstall", "claude")
	if _, err := os.Stat(filepath.Join(proj, ".mcp.json")); !os.IsNotExist(err) {
		t.Errorf(".mcp.json left after uninstall: %v", err)
	}
	if t.Failed() {
		t.Logf("request text:\n%.6000s", text)
	}
}
