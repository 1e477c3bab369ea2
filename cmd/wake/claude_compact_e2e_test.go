package main

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestClaudeCodeCompactKeepsCheckpoint runs the real Claude Code through
// a session that writes a file, then compacts its conversation
// (/compact): wake's PreCompact hook keeps a checkpoint of the session,
// and the context Claude Code injects after the compaction carries it
// (issue 26, point 8).
func TestClaudeCodeCompactKeepsCheckpoint(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs the real Claude Code client")
	}
	claude := claudeCode(t)
	bin := wakeBinary(t)
	stub := newWriterStub(t)
	proj, env, _ := claudeProject(t, bin, "full", stub.URL)
	env, hooks := logHooks(t, env, bin)
	defer dumpHooks(t, hooks)
	runBounded(t, proj, env, 60*time.Second, bin, "install", "claude")
	stub.writeNext(filepath.Join(proj, "notes.txt"))
	runBounded(t, proj, env, 120*time.Second, claude, "-p", "--permission-mode", "acceptEdits", "write the notes for the bakery")
	stub.take()
	runBounded(t, proj, env, 120*time.Second, claude, "-p", "--continue", "/compact")
	if log := readFile(t, hooks); !strings.Contains(log, "wake hook compact claude") {
		t.Fatalf("no PreCompact hook ran:\n%s", log)
	}
	stub.take()
	runBounded(t, proj, env, 120*time.Second, claude, "-p", "--continue", "go on")
	text := strings.Join(stub.take(), "\n")
	for _, want := range []string{"## Checkpoint before the compaction", "write the notes for the bakery", "notes.txt (Write)"} {
		if !strings.Contains(text, want) {
			t.Errorf("the request after the compaction lacks %q", want)
		}
	}
	if t.Failed() {
		t.Logf("request text:\n%.5000s", text)
	}
	assertStaysInTempDir(t, proj)
}
