package claude

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"testing"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/clients"
	"github.com/wakeproto/wake/tiers"
)

// testEnv is the Env of a project /p with its root /p/.wake and HOME /h.
func testEnv(fsys afero.Fs) clients.Env {
	return clients.Env{FS: fsys, Project: "/p", Root: "/p/.wake", Home: "/h", Config: tiers.DefaultConfig(),
		Manifest: "/p/.wake/.state/" + ManifestFile, Warn: func(string) {}}
}

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
		var m struct{ Installs []clients.Record }
		if json.Unmarshal(data, &m) != nil {
			return
		}
		w := newWiring(testEnv(afero.NewMemMapFs()))
		own := []string{w.settings, "/p/CLAUDE.md", filepath.Dir(w.settings)}
		for _, rec := range m.Installs {
			var r record
			if rec.Decode(&r) != nil {
				continue
			}
			r = w.checkRecord(r, &rec)
			if r.Hook != nil && r.Hook.File != w.settings {
				t.Fatalf("hook in %s kept", r.Hook.File)
			}
			for _, imp := range r.Imports {
				if imp != w.bootImport && imp != w.skillImport && imp != w.globalImport {
					t.Fatalf("import %+v kept", imp)
				}
			}
			for _, c := range rec.Created {
				if !slices.Contains(own, c) {
					t.Fatalf("created %s kept", c)
				}
			}
		}
	})
}
