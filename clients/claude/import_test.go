package claude

import (
	"testing"
)

// TestImportOpenFence: a CLAUDE.md ending in an open fence is refused,
// saying why it matters to Claude Code.
func TestImportOpenFence(t *testing.T) {
	t.Parallel()
	_, _, err := addImport([]byte("Example:\n```sh\nwake load\n"), true, "@.wake/boot.md")
	if err == nil || err.Error() != "the file ends inside a code fence that is never closed, where Claude Code would not follow an import" {
		t.Fatalf("got %v", err)
	}
}

func TestImportLine(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		from, target, home string
		preferHome         bool
		want               string
	}{
		{"/p", "/p/.wake/boot.md", "/h", false, "@.wake/boot.md"},
		{"/p", "/p/mem/.wake/boot.md", "/h", false, "@mem/.wake/boot.md"},
		{"/h/p", "/h/roots/x/boot.md", "/h", false, "@~/roots/x/boot.md"},
		{"/p", "/srv/mem/boot.md", "/h", false, "@/srv/mem/boot.md"},
		{"/h/.claude", "/h/.claude/agentchat.skill.md", "/h", true, "@~/.claude/agentchat.skill.md"},
		{"/h/.claude", "/srv/skill.md", "/h", true, "@/srv/skill.md"},
		{"/h/.claude", "/srv/skill.md", "", true, "@/srv/skill.md"},
	} {
		if got := importLine(tc.from, tc.target, tc.home, tc.preferHome); got != tc.want {
			t.Errorf("importLine(%q, %q, %q) = %q, want %q", tc.from, tc.target, tc.home, got, tc.want)
		}
	}
}
