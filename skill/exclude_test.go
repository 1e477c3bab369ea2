package skill

import (
	"strings"
	"testing"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/internal/demo"
)

// Seed 001's What to Exclude: resolved debugging details, and what How We
// Work already says, are left out of Last Session (and counted); the
// outcomes stay.
func TestSkillExcludesResolvedDebuggingAndRepeats(t *testing.T) {
	t.Parallel()
	fsys, enc := demo.FS(t), demo.Encoder(t)
	latest := "---\nsummary: Config moved to TOML\nsession: 2026-11-21T17:40:00Z\n---\n# Session 2026-11-21\n\n" +
		"## What happened\n- Wrote the TOML loader.\n- Debugged the panic in the importer: the root cause was a nil map, fixed.\n\n" +
		"## Decisions made\n- Use TOML for config because YAML indentation broke parsing\n- Keep the loader in one file because it is small\n\n" +
		"## What changed (files)\nNone.\n\n## Open threads\n- [x] the CI cache\n- Resolved: the flaky clock test\n- Ask Ben about the VAT export\n\n## For my successor\nNone.\n"
	if err := afero.WriteFile(fsys, "/demo/recent/latest.md", []byte(latest), 0o644); err != nil {
		t.Fatal(err)
	}
	log, _ := afero.ReadFile(fsys, "/demo/warm/decisions.md")
	log = append(log, "\n[2026-11-21] DECISION: Use TOML for config BECAUSE: YAML indentation broke parsing\nSTATUS: active\n"...)
	if err := afero.WriteFile(fsys, "/demo/warm/decisions.md", log, 0o644); err != nil {
		t.Fatal(err)
	}
	s := buildSkill(t, fsys, "/demo", demoConfig(t, fsys), enc)
	text := Render(s)
	last := text[strings.Index(text, "## Last Session"):strings.Index(text, "## History")]
	for _, gone := range []string{"panic in the importer", "the CI cache", "flaky clock test", "Use TOML for config because"} {
		if strings.Contains(last, gone) {
			t.Errorf("Last Session keeps %q:\n%s", gone, last)
		}
	}
	for _, kept := range []string{"Wrote the TOML loader", "Keep the loader in one file", "Ask Ben about the VAT export"} {
		if !strings.Contains(last, kept) {
			t.Errorf("Last Session lost %q:\n%s", kept, last)
		}
	}
	if !strings.Contains(text, "Decided 2026-11-21: Use TOML for config") {
		t.Error("How We Work lost the decision")
	}
	if sec := s.section(SkillRecent); sec.Excluded != 4 {
		t.Errorf("excluded %d, want 4", sec.Excluded)
	}
}
