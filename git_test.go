package wake

import (
	"slices"
	"testing"
	"time"

	"github.com/spf13/afero"
	"github.com/wakeproto/wake/store"
	"github.com/wakeproto/wake/tiers"
)

// TestWakeOwned: the memory root below the top is left out whole; a file
// outside it that the ledger says wake wrote is left out until it changes
// after wake's write; the root as the top leaves out wake's own files only.
func TestWakeOwned(t *testing.T) {
	fsys := afero.NewMemMapFs()
	at := time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)
	o := Options{FS: fsys}
	for _, f := range []struct {
		path string
		mod  time.Time
	}{{"/top/.claude/settings.json", at}, {"/top/CLAUDE.md", at.Add(time.Hour)}, {"/top/app.go", at}, {"/top/AGENTS.md", at}, {"/top/.codex/hooks.json", at}} {
		afero.WriteFile(fsys, f.path, []byte("x"), 0o644)
		fsys.Chtimes(f.path, f.mod, f.mod)
	}
	m := bare("/top/.wake", o)
	if err := store.AppendLedger(fsys, m.root, store.Entry{At: at, Op: "install", ChangeSummary: "wake install claude", Paths: []string{"/top/.claude/settings.json", "/top/CLAUDE.md", "main.md"}}); err != nil {
		t.Fatal(err)
	}
	got := m.wakeOwned("/top", "")
	slices.Sort(got)
	if want := []string{".claude/settings.json", ".wake/"}; !slices.Equal(got, want) {
		t.Errorf("wakeOwned = %q, want %q (CLAUDE.md changed after wake wrote it)", got, want)
	}
	// As this wake names them: beside the root, "../".
	if err := store.AppendLedger(fsys, m.root, store.Entry{At: at, Op: "install", ChangeSummary: "wake install codex", Paths: []string{"../AGENTS.md", "../.codex/hooks.json", "~/.codex/config.toml"}}); err != nil {
		t.Fatal(err)
	}
	got = m.wakeOwned("/top", "")
	slices.Sort(got)
	if want := []string{".claude/settings.json", ".codex/hooks.json", ".wake/", "AGENTS.md"}; !slices.Equal(got, want) {
		t.Errorf("wakeOwned = %q, want %q (CLAUDE.md changed after wake wrote it)", got, want)
	}
	// Deleted since: the session's work, unless wake's uninstall deleted it.
	fsys.Remove("/top/.claude/settings.json")
	if got := m.wakeOwned("/top", ""); slices.Contains(got, ".claude/settings.json") {
		t.Errorf("a file deleted since wake wrote it is left out: %q", got)
	}
	store.AppendLedger(fsys, m.root, store.Entry{At: at.Add(time.Minute), Op: "uninstall", ChangeSummary: "wake uninstall claude", Paths: []string{"/top/.claude/settings.json"}})
	if got := m.wakeOwned("/top", ""); !slices.Contains(got, ".claude/settings.json") {
		t.Errorf("a file wake's uninstall deleted is listed as the session's: %q", got)
	}
	if got := bare("/top", o).wakeOwned("/top", ""); !slices.Contains(got, tiers.StateDir+"/") || slices.Contains(got, ".wake/") {
		t.Errorf("root as top: %q", got)
	}
}
