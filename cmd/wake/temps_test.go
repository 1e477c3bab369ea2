package main

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/wakeproto/wake/store"
)

// The temporary files a killed install or load left beside the client
// files outside the memory root are swept by the next write of each file,
// once too old to belong to a write still running; a fresh one is left.
// (issue 9: ~/.claude/.agentchat.skill.md.tmp-*, .claude/.settings.json.tmp-*
// and .CLAUDE.md.tmp-* were never swept.)
func TestClientTempFilesAreSwept(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	a, _, errOut := newTestApp(t, dir)
	if code := a.run([]string{"init"}); code != 0 {
		t.Fatalf("init: %s", errOut)
	}
	home := filepath.Join(dir, "home")
	old := time.Now().Add(-store.StaleTempAge - time.Minute)
	stale := []string{
		filepath.Join(home, ".claude", ".agentchat.skill.md.tmp-0123456789ab"),
		filepath.Join(dir, ".claude", ".settings.json.tmp-0123456789ab"),
		filepath.Join(dir, ".CLAUDE.md.tmp-0123456789ab"),
	}
	fresh := filepath.Join(dir, ".CLAUDE.md.tmp-ba9876543210")
	for _, p := range append(stale, fresh) {
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte("half written"), 0o644); err != nil {
			t.Fatal(err)
		}
		if p != fresh {
			os.Chtimes(p, old, old)
		}
	}
	b, _, errOut := newTestApp(t, dir)
	if code := b.run([]string{"install", "claude"}); code != 0 {
		t.Fatalf("install: exit %d\n%s", code, errOut)
	}
	for _, p := range stale {
		if _, err := os.Lstat(p); !os.IsNotExist(err) {
			t.Errorf("stale temporary file left: %s", p)
		}
	}
	if _, err := os.Lstat(fresh); err != nil {
		t.Errorf("a fresh temporary file, maybe another wake's write, was removed: %v", err)
	}
}
