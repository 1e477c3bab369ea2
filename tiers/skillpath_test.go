package tiers

import (
	"strings"
	"testing"
)

func TestSkillPath(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		path, home, want, err string
	}{
		{"", "/h", "", ""},
		{"~/.claude/agentchat.skill.md", "/h", "/h/.claude/agentchat.skill.md", ""},
		{"~", "/h", "/h", ""},
		{"/srv/skill.md", "", "/srv/skill.md", ""},
		{"/srv/../srv/skill.md", "", "/srv/skill.md", ""},
		{"boot/skill.md", "", "/r/.wake/boot/skill.md", ""},
		{"~/.claude/x.md", "", "", "HOME is not set"},
		{"~ben/x.md", "/h", "", "only ~/ is expanded"},
	} {
		got, err := Skill{Path: tc.path}.SkillPath(tc.home, "/r/.wake")
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%q: got %q, %v; want an error containing %q", tc.path, got, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%q: got %q, %v; want %q", tc.path, got, err, tc.want)
		}
	}
}
