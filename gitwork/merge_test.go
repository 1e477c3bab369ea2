package gitwork

import (
	"context"
	"os/exec"
	"path/filepath"
	"testing"
)

func TestDriverCommand(t *testing.T) {
	for exe, want := range map[string]string{
		"/usr/local/bin/wake":     "/usr/local/bin/wake merge-driver %O %A %B %P",
		"/home/a b/bin/wake":      "'/home/a b/bin/wake' merge-driver %O %A %B %P",
		"/home/it's/wake":         `'/home/it'\''s/wake' merge-driver %O %A %B %P`,
		"C:/Program Files/wake":   "'C:/Program Files/wake' merge-driver %O %A %B %P",
		"/opt/wake-1.2_x/bin/wak": "/opt/wake-1.2_x/bin/wak merge-driver %O %A %B %P",
	} {
		if got := DriverCommand(exe); got != want {
			t.Errorf("DriverCommand(%q) = %q, want %q", exe, got, want)
		}
	}
}

// TestSetDriverLocal: the driver goes into the clone's own configuration
// and nowhere else; MergeFile marks a real conflict.
func TestSetDriverLocal(t *testing.T) {
	if !Found() {
		t.Skip("git not found")
	}
	dir := t.TempDir()
	global := filepath.Join(dir, "global")
	g := Git{Env: map[string]string{"HOME": dir, "GIT_CONFIG_GLOBAL": global, "GIT_CONFIG_NOSYSTEM": "1"}}
	ctx := context.Background()
	if _, err := g.Run(ctx, dir, "init", "-q"); err != nil {
		t.Fatal(err)
	}
	if g.Driver(ctx, dir) != "" || !g.InWorkTree(ctx, dir) {
		t.Fatal("a new repository has a driver, or is no work tree")
	}
	if err := g.SetDriver(ctx, dir, "/bin/wake"); err != nil {
		t.Fatal(err)
	}
	if got := g.Driver(ctx, dir); got != DriverCommand("/bin/wake") {
		t.Errorf("driver %q", got)
	}
	if out, err := exec.Command("git", "config", "--file", global, "--list").CombinedOutput(); err == nil && len(out) > 0 {
		t.Errorf("global configuration written: %s", out)
	}
	out, conflict, err := g.MergeFile(ctx, []byte("a\n"), []byte("b\n"), []byte("c\n"))
	if err != nil || !conflict || len(out) == 0 {
		t.Errorf("MergeFile: %q %v %v", out, conflict, err)
	}
	out, conflict, err = g.MergeFile(ctx, []byte("a\nb\nc\n"), []byte("A\nb\nc\n"), []byte("a\nb\nC\n"))
	if err != nil || conflict || string(out) != "A\nb\nC\n" {
		t.Errorf("MergeFile: %q %v %v", out, conflict, err)
	}
}
