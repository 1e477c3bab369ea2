package store

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wakeproto/wake/tiers"
)

// TestStateIsIgnored: the first lock writes the state directory's
// .gitignore, so that 'git add -A' never commits wake's caches or a
// session in progress; one the user changed is left as it is.
func TestStateIsIgnored(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	root := filepath.Join(dir, ".wake")
	os.MkdirAll(root, 0o755)
	unlock, err := FileLocker{}.Lock(context.Background(), root)
	if err != nil {
		t.Fatal(err)
	}
	unlock()
	name := filepath.Join(root, tiers.StateDir, ".gitignore")
	if data, err := os.ReadFile(name); err != nil || string(data) != StateIgnore {
		t.Fatalf("%s: %q, %v", name, data, err)
	}
	if git, err := exec.LookPath("git"); err == nil {
		os.WriteFile(filepath.Join(root, tiers.StateDir, "opencode-ses_1.jsonl"), []byte("{}\n"), 0o644)
		os.WriteFile(filepath.Join(root, "main.md"), []byte("# p\n"), 0o644)
		run := func(args ...string) string {
			cmd := exec.Command(git, args...)
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "HOME="+dir, "GIT_CONFIG_NOSYSTEM=1")
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("git %v: %v\n%s", args, err, out)
			}
			return string(out)
		}
		run("init", "-q")
		run("add", "-A")
		if staged := run("diff", "--cached", "--name-only"); strings.TrimSpace(staged) != ".wake/main.md" {
			t.Errorf("git add -A staged:\n%s", staged)
		}
	}
	os.WriteFile(name, []byte("mine\n"), 0o644)
	unlock, _ = FileLocker{}.Lock(context.Background(), root)
	unlock()
	if data, _ := os.ReadFile(name); string(data) != "mine\n" {
		t.Errorf("the user's .gitignore was replaced: %q", data)
	}
}
