package main

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/spf13/afero"
)

// TestRelayGate: a hook run as a relay (--below PROJECT) serves only a
// session started strictly below a project that still runs wake's hooks,
// with no memory root or wired project of its own in between; otherwise
// it prints nothing and exits 0, and --below without --hook is a usage
// error.
func TestRelayGate(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	proj := filepath.Join(dir, "proj")
	os.MkdirAll(proj, 0o755)
	a, _, errOut := newTestApp(t, proj)
	if code := a.run([]string{"init", "--agent", "Ava"}); code != 0 {
		t.Fatalf("init: %s", errOut)
	}
	a, _, errOut = newTestApp(t, proj)
	if code := a.run([]string{"install", "claude"}); code != 0 {
		t.Fatalf("install: %s", errOut)
	}
	relay := func(start string) string {
		t.Helper()
		a, out, errOut := newTestApp(t, start)
		a.env["CLAUDE_PROJECT_DIR"] = start
		a.in = strings.NewReader(hookJSON(start))
		if code := a.run([]string{"load", "--hook", "claude", "--below", proj}); code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		return out.String()
	}
	sub := filepath.Join(proj, "src", "till")
	os.MkdirAll(sub, 0o755)
	out := relay(sub)
	if !strings.HasPrefix(out, relayed) || !strings.Contains(out, "# Boot context") {
		t.Errorf("a session in a subdirectory did not get the whole memory:\n%.600s", out)
	}
	if out := relay(proj); out != "" {
		t.Errorf("at the project's top the relay printed:\n%.300s", out)
	}
	if out := relay(dir); out != "" {
		t.Errorf("above the project the relay printed:\n%.300s", out)
	}
	// A project of its own in between, wired or only with a memory.
	nested := filepath.Join(proj, "vendor", "lib")
	os.MkdirAll(filepath.Join(nested, ".claude"), 0o755)
	os.WriteFile(filepath.Join(nested, ".claude", "settings.local.json"), []byte(`{"hooks":{"SessionStart":[{"matcher":"startup|resume|clear|compact","hooks":[{"type":"command","command":"wake load --hook claude"}]}]}}`), 0o644)
	os.MkdirAll(filepath.Join(nested, "x"), 0o755)
	if out := relay(filepath.Join(nested, "x")); out != "" {
		t.Errorf("below a wired project of its own the relay printed:\n%.300s", out)
	}
	other := filepath.Join(proj, "tools")
	os.MkdirAll(filepath.Join(other, ".wake"), 0o755)
	if out := relay(other); out != "" {
		t.Errorf("in a memory root's project of its own the relay printed:\n%.300s", out)
	}
	// The project no longer wired (its hooks taken out by hand).
	os.WriteFile(filepath.Join(proj, ".claude", "settings.json"), []byte("{}\n"), 0o644)
	if out := relay(sub); out != "" {
		t.Errorf("for a project no longer wired the relay printed:\n%.300s", out)
	}
	a, _, errOut = newTestApp(t, proj)
	if code := a.run([]string{"load", "--below", proj}); code != exitUsage || !strings.Contains(errOut.String(), "--below applies with --hook") {
		t.Errorf("--below without --hook: exit %d: %s", code, errOut)
	}
}

// countingFS counts the opens of files by base name.
type countingFS struct {
	afero.Fs
	mu     sync.Mutex
	opened map[string]int
}

func (c *countingFS) note(name string) {
	c.mu.Lock()
	c.opened[filepath.Base(name)]++
	c.mu.Unlock()
}

func (c *countingFS) Open(name string) (afero.File, error) {
	c.note(name)
	return c.Fs.Open(name)
}

func (c *countingFS) OpenFile(name string, flag int, perm os.FileMode) (afero.File, error) {
	c.note(name)
	return c.Fs.OpenFile(name, flag, perm)
}

// TestRelayReadsClaudeJSONOnce: a start a relay serves asks twice
// whether Claude Code followed the import there (for its text and for
// what goes before it); ~/.claude.json, which can be large, is read once.
func TestRelayReadsClaudeJSONOnce(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	proj := filepath.Join(dir, "proj")
	sub := filepath.Join(proj, "src")
	os.MkdirAll(sub, 0o755)
	a, _, errOut := newTestApp(t, proj)
	if code := a.run([]string{"init", "--agent", "Ava"}); code != 0 {
		t.Fatalf("init: %s", errOut)
	}
	a, _, errOut = newTestApp(t, proj)
	if code := a.run([]string{"install", "claude"}); code != 0 {
		t.Fatalf("install: %s", errOut)
	}
	a, out, errOut := newTestApp(t, sub)
	os.WriteFile(filepath.Join(a.env["HOME"], ".claude.json"), []byte(`{"projects":{}}`), 0o644)
	fs := &countingFS{Fs: a.fs, opened: map[string]int{}}
	a.fs = fs
	a.env["CLAUDE_PROJECT_DIR"] = sub
	a.in = strings.NewReader(hookJSON(sub))
	if code := a.run([]string{"load", "--hook", "claude", "--below", proj}); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.HasPrefix(out.String(), relayed) {
		t.Fatalf("the relayed start:\n%.300s", out)
	}
	if n := fs.opened[".claude.json"]; n != 1 {
		t.Errorf("~/.claude.json opened %d times, want 1", n)
	}
}
