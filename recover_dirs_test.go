package wake

import (
	"strings"
	"testing"

	"github.com/wakeproto/wake/transcript"
)

// TestRecoverDirsCodex: Codex files its sessions by day; a start looks in
// its own day's directory and the two before.
func TestRecoverDirsCodex(t *testing.T) {
	t.Parallel()
	got := recoverDirs("/h/.codex/sessions/2026/03/01/rollout-x.jsonl", transcript.Codex)
	want := []string{"/h/.codex/sessions/2026/03/01", "/h/.codex/sessions/2026/02/28", "/h/.codex/sessions/2026/02/27"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("got %v, want %v", got, want)
	}
	if got := recoverDirs("/h/.claude/projects/-p/s.jsonl", transcript.Claude); len(got) != 1 {
		t.Errorf("Claude Code: %v", got)
	}
}
