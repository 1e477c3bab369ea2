package main

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestOpenCodeMCPDecisionIsWork runs the real OpenCode with wake's plugin
// and its MCP server (issue 26, point 4): a session whose only work is a
// decision through wake_decide is handed off when it ends, as the same
// decision through the shell is; the server's instructions say the
// plugin gave the session its boot context, and add no second copy.
func TestOpenCodeMCPDecisionIsWork(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs the real OpenCode client")
	}
	opencode := openCode(t)
	bin := wakeBinary(t)
	stub := newChatStub(t)
	proj, env := openCodeProject(t, bin, stub.URL)
	stub.boot = filepath.Join(proj, ".wake", "boot.md")
	runBounded(t, proj, env, 60*time.Second, bin, "install", "opencode", "--mcp")
	latestBefore := readFile(t, filepath.Join(proj, ".wake", "recent", "latest.md"))
	stub.callTool("wake_wake_decide", map[string]string{"what": "Bake at dawn", "because": "the ovens are free"})
	runBounded(t, proj, env, 180*time.Second, opencode, "run", "record that we bake at dawn")
	ledger := readFile(t, filepath.Join(proj, ".wake", "ledger.jsonl"))
	if !strings.Contains(ledger, `"op":"decide"`) || !strings.Contains(ledger, "Bake at dawn") {
		t.Fatalf("the MCP call recorded no decision:\n%s", ledger)
	}
	latest := readFile(t, filepath.Join(proj, ".wake", "recent", "latest.md"))
	if latest == latestBefore || !strings.Contains(latest, "Automatic hand-off") || !strings.Contains(latest, "recorded 1 decision") {
		t.Errorf("the session's end wrote no automatic hand-off of the decision:\n%s", latest)
	}
	// OpenCode, whose plugin gives the session the boot context, is told
	// so by the server: the protocol card once, the plugin's.
	agent := stub.agentRequests()
	if len(agent) == 0 {
		t.Fatal("no request of the working agent reached the stub")
	}
	assertHookedInstructions(t, string(agent[0].body))
	if stray := stub.strays(); len(stray) > 0 {
		t.Errorf("OpenCode reached for the network: %q", stray)
	}
}
