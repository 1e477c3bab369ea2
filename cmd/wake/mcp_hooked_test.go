package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestMCPKnowsItsHookedClients: wake mcp in a project where 'wake install
// claude --mcp' put wake's hooks tells a Claude Code session that its
// hook gave it the boot context, and no other client's: a client whose
// hooks are not installed there (Codex, or one wake does not wire) gets
// the whole instructions; so does Claude Code in a project without the
// install.
func TestMCPKnowsItsHookedClients(t *testing.T) {
	t.Parallel()
	dir := memoryWithSessions(t)
	initialize := func(cwd, client string) string {
		t.Helper()
		a, out, errOut := newTestApp(t, cwd)
		a.env["WAKE_ROOT"] = filepath.Join(dir, ".wake")
		a.in = strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"` + client + `","version":"1"}}}` + "\n")
		if code := a.run([]string{"mcp"}); code != 0 {
			t.Fatalf("mcp: exit %d: %s", code, errOut)
		}
		return out.String()
	}
	mustRun := func(cwd string, args ...string) {
		t.Helper()
		a, _, errOut := newTestApp(t, cwd)
		a.env["WAKE_ROOT"] = filepath.Join(dir, ".wake")
		a.env["PATH"] = dir
		if code := a.run(args); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errOut)
		}
	}
	if out := initialize(dir, "claude-code"); !strings.Contains(out, "Call wake_load first") {
		t.Fatalf("before any install, Claude Code is not told to load the context:\n%s", out)
	}
	mustRun(dir, "install", "claude", "--mcp")
	sub := filepath.Join(dir, "src")
	for _, c := range []struct {
		cwd, client string
		hooked      bool
	}{
		{dir, "claude-code", true},
		{sub, "claude-code", true}, // a session started below the project
		{dir, "codex-mcp-client", false},
		{dir, "cursor", false},
	} {
		out := initialize(c.cwd, c.client)
		if hooked := strings.Contains(out, "hook gave this session its boot context"); hooked != c.hooked || hooked == strings.Contains(out, "Call wake_load first") {
			t.Errorf("%s in %s: told its hook gave the context: %v, want %v:\n%s", c.client, c.cwd, hooked, c.hooked, out)
		}
	}
}
