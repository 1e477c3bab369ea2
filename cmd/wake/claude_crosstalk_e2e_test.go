package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wakeproto/wake/skill"
)

// e2eMarkerB is in project B's session summary only.
const e2eMarkerB = "e2e-marker-b-41d9"

// TestClaudeCodeNoCrossTalk runs the real Claude Code in three projects
// sharing one home (issue 12): A and B each with a memory root in skill
// mode, C with none. Every root's default skill.path is the same file,
// ~/.claude/agentchat.skill.md, which stays A's; yet B's session carries
// B's memory and none of A's, A's none of B's, and C's neither.
func TestClaudeCodeNoCrossTalk(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs the real Claude Code client")
	}
	claude := claudeCode(t)
	bin := wakeBinary(t)
	stub := newModelStub(t)
	a, env, _ := claudeProject(t, bin, "skill", stub.URL)
	work := filepath.Dir(a)
	b, c := filepath.Join(work, "b"), filepath.Join(work, "c")
	wake := func(dir string, args ...string) string {
		t.Helper()
		return runBounded(t, dir, env, 60*time.Second, bin, args...)
	}
	for _, d := range []string{b, c} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	wake(b, "init", "--agent", "Ben")
	fillPurpose(t, filepath.Join(b, ".wake", "main.md"))
	if err := os.WriteFile(filepath.Join(b, ".wake", "wake.toml"), []byte("agent = \"Ben\"\n[claude]\nboot = \"skill\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	wake(b, "trust")
	wake(b, "handoff", "--summary", "Second project", "--next", "Keep it apart", "--happened", "proved the import with "+e2eMarkerB)
	wake(a, "install", "claude")
	wake(b, "install", "claude")
	shared := filepath.Join(work, "home", ".claude", "agentchat.skill.md")
	if data, err := os.ReadFile(shared); err != nil || skill.MarkerRoot(data) != filepath.Join(a, ".wake") {
		t.Fatalf("the shared skill.md does not name A's root: %v\n%s", err, data)
	}
	for _, tc := range []struct {
		dir       string
		has, lack []string
	}{
		{b, []string{e2eMarkerB}, []string{e2eMarker}},
		{a, []string{e2eMarker}, []string{e2eMarkerB}},
		{c, nil, []string{e2eMarker, e2eMarkerB, "wake: memory loaded"}},
	} {
		runBounded(t, tc.dir, env, 120*time.Second, claude, "-p", "hello")
		text := strings.Join(stub.take(), "\n")
		for _, want := range tc.has {
			if !strings.Contains(text, want) {
				t.Errorf("%s: the model request lacks %q", filepath.Base(tc.dir), want)
			}
		}
		for _, not := range tc.lack {
			if strings.Contains(text, not) {
				t.Errorf("%s: the model request carries %q", filepath.Base(tc.dir), not)
			}
		}
		if t.Failed() {
			t.Fatalf("request text in %s:\n%.6000s", tc.dir, text)
		}
	}
	assertStaysInTempDir(t, a)
}
