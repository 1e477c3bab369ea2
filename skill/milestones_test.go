package skill

import (
	"strings"
	"testing"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/internal/demo"
)

// Seed 001's History holds project milestones and relationship notes
// besides the older sessions: wake takes them from main.md's Milestones
// and Relationships sections, before the sessions, so that the oldest
// sessions are cut first.
func TestSkillHistoryMilestones(t *testing.T) {
	t.Parallel()
	fsys, enc := demo.FS(t), demo.Encoder(t)
	main, _ := afero.ReadFile(fsys, "/demo/main.md")
	main = append(main, "\n## Milestones\n- 2026-11-15: first bank import ran end to end\n\n## Relationships\n- Ben reviews every pull request; strongest on VAT law\n"...)
	if err := afero.WriteFile(fsys, "/demo/main.md", main, 0o644); err != nil {
		t.Fatal(err)
	}
	text := Render(buildSkill(t, fsys, "/demo", demoConfig(t, fsys), enc))
	hist := text[strings.Index(text, "## History"):]
	m := strings.Index(hist, "2026-11-15: first bank import ran end to end")
	r := strings.Index(hist, "Ben reviews every pull request; strongest on VAT law")
	s := strings.Index(hist, "- 2026-11-17")
	if m < 0 || r < 0 || s < 0 || !(m < r && r < s) {
		t.Errorf("History lacks the milestones and relationships before the sessions:\n%s", hist)
	}
	if !strings.Contains(hist, "Milestones:") || !strings.Contains(hist, "Relationships:") {
		t.Errorf("no group labels:\n%s", hist)
	}
}
