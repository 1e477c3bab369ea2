//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestCodexMCPEndToEnd runs the real Codex CLI against the Responses stub
// after 'wake install codex --mcp' (which has Codex trust the project, so
// that it reads the project's .codex/config.toml): the request lists each
// of wake's tools and carries the server instructions whole; uninstall
// takes the server out again.
func TestCodexMCPEndToEnd(t *testing.T) {
	t.Parallel()
	_, _, stub, p := codexE2E(t)
	out := p.wake(t, "install", "codex", "--mcp")
	if !strings.Contains(out, `.codex/config.toml: created; registered the MCP server "wake"`) {
		t.Errorf("wake install codex --mcp does not say it registered the server:\n%s", out)
	}
	// Codex defers the MCP tools of a model that can search for tools
	// (codexModel) behind tool_search, with the instructions cut short;
	// those of a model it knows nothing of it offers whole, as a client
	// that has no tool search does.
	runBounded(t, p.dir, p.env, 120*time.Second, p.codexBin, "exec", "--dangerously-bypass-approvals-and-sandbox", "--color", "never", "-m", "stub-model", "hello")
	text := strings.Join(stub.take(), "\n")
	if !strings.Contains(text, "mcp__wake") {
		t.Error("the model request has no mcp__wake namespace")
	}
	for _, tool := range mcpTools {
		if !strings.Contains(text, tool) {
			t.Errorf("the model request does not list wake's %s", tool)
		}
	}
	assertHookedInstructions(t, text)
	// A current model: the tools deferred behind tool_search, and the
	// hooked instructions, short, there all the same.
	p.codex(t, "hello")
	// The hook and the MCP server together: each fact of the hook's text
	// once in the first request.
	if reqs := stub.requests(); len(reqs) > 0 {
		var first []string
		hook := ""
		for _, m := range reqs[0].Input {
			first = append(first, m.text())
			if m.Role == "developer" && strings.HasPrefix(m.text(), "# wake: memory loaded") {
				hook = m.text()
			}
		}
		if hook == "" {
			t.Error("the first request carries no hook text")
		}
		assertEachFactOnce(t, "with MCP, the first request", strings.Join(first, "\n"), hook)
	}
	deferred := strings.Join(stub.take(), "\n")
	if !strings.Contains(deferred, "tool_search") || !strings.Contains(deferred, mcpHookedLine) {
		t.Errorf("with %s: the request lacks tool_search (%v) or the hooked instructions (%v)", codexModel, strings.Contains(deferred, "tool_search"), strings.Contains(deferred, mcpHookedLine))
		t.Logf("request text:\n%.8000s", deferred)
	}
	if n := strings.Count(deferred, "You are one instance in a chain"); n != 1 {
		t.Errorf("with %s: the protocol card %d times, want once", codexModel, n)
	}
	p.wake(t, "uninstall", "codex")
	if _, err := os.Stat(filepath.Join(p.dir, ".codex", "config.toml")); !os.IsNotExist(err) {
		t.Errorf(".codex/config.toml left after uninstall: %v", err)
	}
	if t.Failed() {
		t.Logf("request text:\n%.6000s", text)
	}
}
