package main

import (
	"io"
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
		afero.WriteFile(fs, claudeManifestPath("/p/.wake"), data, 0o644)
		m, err := readClaudeManifest(fs, "/p/.wake")
		if err != nil {
			return
		}
		a := &app{fs: fs, env: map[string]string{"HOME": "/h"}, out: io.Discard, errOut: io.Discard, cwd: "/p"}
		w, _ := a.wiring("/p", "/p/.wake", tiers.DefaultConfig())
		allowed := []string{w.settings, "/p/CLAUDE.md", "/h/.claude/CLAUDE.md", filepath.Dir(w.settings), "/h/.claude"}
		for _, rec := range m.Installs {
			rec = a.checkRecord(w, rec)
			if rec.Hook != nil && rec.Hook.File != w.settings {
				t.Fatalf("hook in %s kept", rec.Hook.File)
			}
			for _, imp := range rec.Imports {
				if (importEdit{imp.File, imp.Line}) != w.bootImport && (importEdit{imp.File, imp.Line}) != w.skillImport {
					t.Fatalf("import %+v kept", imp)
				}
			}
			for _, c := range rec.Created {
				if !slices.Contains(allowed[:2], c) && c != filepath.Dir(w.settings) {
					t.Fatalf("created %s kept", c)
				}
			}
		}
	})
}
