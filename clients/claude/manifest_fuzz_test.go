package claude

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/tiers"
)

// FuzzClaudeManifest: any install record (it lives in the memory root,
// which can come with a cloned repository) is refused whole or, once
// checked, names only the files install touches and only "@" lines.
func FuzzClaudeManifest(f *testing.F) {
	for _, s := range []string{
		`{"version":1,"installs":[{"project":"/p","hook":{"file":"/p/.claude/settings.json","matcher":"m","command":"c"},"imports":[{"file":"/p/CLAUDE.md","line":"@.wake/boot.md"}],"created":["/p/.claude","/p/.claude/settings.json"]}]}`,
		`{"version":1,"installs":[{"project":"/p","imports":[{"file":"/h/.bashrc","line":"source x"}],"created":["/h/.bashrc","/h"]}]}`,
		`{"version":1,"installs":[{"project":"/p","hook":{"file":"/etc/passwd"}}]}`,
		`{"version":2}`, `[`, ``,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		fs := afero.NewMemMapFs()
		afero.WriteFile(fs, manifestPath("/p/.wake"), data, 0o644)
		m, err := readManifest(fs, "/p/.wake")
		if err != nil {
			return
		}
		w, _ := NewWiring(fs, "/p", "/p/.wake", "/h", tiers.DefaultConfig())
		allowed := []string{w.Settings, "/p/CLAUDE.md", "/h/.claude/CLAUDE.md", filepath.Dir(w.Settings), "/h/.claude"}
		for _, rec := range m.Installs {
			rec = w.checkRecord(rec)
			if rec.Hook != nil && rec.Hook.File != w.Settings {
				t.Fatalf("hook in %s kept", rec.Hook.File)
			}
			for _, imp := range rec.Imports {
				if (Import{imp.File, imp.Line}) != w.BootImport && (Import{imp.File, imp.Line}) != w.SkillImport {
					t.Fatalf("import %+v kept", imp)
				}
			}
			for _, c := range rec.Created {
				if !slices.Contains(allowed[:2], c) && c != filepath.Dir(w.Settings) {
					t.Fatalf("created %s kept", c)
				}
			}
		}
	})
}
