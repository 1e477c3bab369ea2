package wake

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wakeproto/wake/gitwork"
	"github.com/wakeproto/wake/store"
)

// TestMergeSetupAndNotice: in a clone whose root asks for the driver and
// has none, the notice comes once; SetupMerge configures it (locally),
// keeps a .gitattributes that is there, and does nothing the second time.
func TestMergeSetupAndNotice(t *testing.T) {
	if !gitwork.Found() {
		t.Skip("git not found")
	}
	dir := t.TempDir()
	env := map[string]string{"HOME": dir, "GIT_CONFIG_GLOBAL": filepath.Join(dir, "global"), "GIT_CONFIG_NOSYSTEM": "1", "PATH": os.Getenv("PATH")}
	ctx := context.Background()
	if _, err := (gitwork.Git{Env: env}).Run(ctx, dir, "init", "-q"); err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(dir, ".wake")
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	attrs := filepath.Join(root, store.GitAttributesPath)
	if err := os.WriteFile(attrs, []byte("main.md merge=wake\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var notices []Notice
	o := Options{Env: env, Notify: func(n Notice) { notices = append(notices, n) }}
	NoticeMergeDriver(ctx, root, o)
	NoticeMergeDriver(ctx, root, o)
	if len(notices) != 1 || !strings.Contains(notices[0].Msg, "no wake merge driver") {
		t.Fatalf("notices %v", notices)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	res, err := SetupMerge(ctx, root, exe, o)
	if err != nil || !res.InGit || res.Attributes || !res.Configured || res.Driver != gitwork.DriverCommand(exe) {
		t.Fatalf("%+v %v", res, err)
	}
	if data, _ := os.ReadFile(attrs); string(data) != "main.md merge=wake\n" {
		t.Errorf(".gitattributes rewritten: %q", data)
	}
	if _, err := os.Stat(filepath.Join(dir, "global")); err == nil {
		t.Errorf("the global git configuration was written")
	}
	if res, err = SetupMerge(ctx, root, exe, o); err != nil || res.Configured {
		t.Errorf("second set-up: %+v %v", res, err)
	}
	// Configured: a clone that forgot the mark is not warned.
	os.Remove(filepath.Join(root, ".state", store.MergeDriverMark))
	notices = nil
	NoticeMergeDriver(ctx, root, o)
	if len(notices) != 0 {
		t.Errorf("warned with the driver configured: %v", notices)
	}
}
