package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake"
	"github.com/wakeproto/wake/boot"
	"github.com/wakeproto/wake/internal/memgen"
	"github.com/wakeproto/wake/store"
	"github.com/wakeproto/wake/tiers"
)

func hookJSON(cwd string) string {
	return fmt.Sprintf(`{"session_id":"5998b205","transcript_path":"/h/.claude/projects/x.jsonl","cwd":%q,"hook_event_name":"SessionStart","source":"startup"}`, cwd)
}

// runHook runs `wake load --hook claude` from dir with stdin.
func runHook(t *testing.T, dir, stdin string, args ...string) (int, string, string) {
	t.Helper()
	a, out, errOut := newTestApp(t, dir)
	a.in = strings.NewReader(stdin)
	code := a.run(append([]string{"load", "--hook", "claude"}, args...))
	return code, out.String(), errOut.String()
}

func TestHookFindsRootFromInput(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	proj := filepath.Join(dir, "proj")
	a, _, errOut := newTestApp(t, proj)
	os.MkdirAll(proj, 0o755)
	if code := a.run([]string{"init", "--agent", "Ava"}); code != 0 {
		t.Fatalf("init: %s", errOut)
	}
	if err := os.WriteFile(filepath.Join(proj, "CLAUDE.md"), []byte("@.wake/boot.md\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// Started elsewhere: the root comes from the hook's cwd.
	code, out, stderr := runHook(t, dir, hookJSON(filepath.Join(proj, "sub")))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	root := filepath.Join(proj, ".wake")
	for _, want := range []string{"Memory root: " + root + "\n", "First session. No prior context. Starting fresh.", filepath.Join(root, "boot.md")} {
		if !strings.Contains(out, want) {
			t.Errorf("hook output lacks %q:\n%s", want, out)
		}
	}
	data, err := os.ReadFile(filepath.Join(root, "boot.md"))
	if err != nil || !strings.HasPrefix(string(data), wake.BootFrontMatter) || !strings.Contains(string(data), "# Boot context") {
		t.Fatalf("boot.md: %v\n%.300s", err, data)
	}
	// The import found no boot.md: the hook gives the whole of it.
	if !strings.HasPrefix(out, "# wake: memory loaded (the whole boot context; it is also in "+filepath.Join(root, "boot.md")+")") {
		t.Errorf("a new boot.md was not given whole:\n%s", out)
	}
	// Nothing changed since: boot.md is not rewritten, and the agent is told
	// its import is current.
	_, out, _ = runHook(t, dir, hookJSON(proj))
	if !strings.Contains(out, "The boot context CLAUDE.md imports ("+filepath.Join(root, "boot.md")+") is current") || strings.Contains(out, "# Boot context") {
		t.Errorf("an unchanged boot.md was reported as changed:\n%s", out)
	}
}

func TestHookNoRoot(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, stdin := range []string{"", hookJSON(dir)} {
		code, out, _ := runHook(t, dir, stdin)
		if code != 0 || !strings.HasPrefix(out, "wake has no memory here: no memory root (.wake/) in "+dir) {
			t.Fatalf("stdin %q: exit %d:\n%s", stdin, code, out)
		}
	}
}

func TestHookBadInput(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	a, _, _ := newTestApp(t, dir)
	a.run([]string{"init"})
	code, out, stderr := runHook(t, dir, `{"cwd": 12`)
	if code != 0 || !strings.Contains(stderr, "wake: warning: the hook input on stdin is not the JSON Claude Code sends") ||
		!strings.Contains(out, "Memory root: "+filepath.Join(dir, ".wake")) {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, stderr)
	}
}

func TestHookUsage(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	a, _, errOut := newTestApp(t, dir)
	if code := a.run([]string{"load", "--hook", "cursor"}); code != exitUsage || !strings.Contains(errOut.String(), `--hook "cursor": want claude, codex or opencode`) {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	a, _, errOut = newTestApp(t, dir)
	if code := a.run([]string{"load", "--hook", "claude", "--format", "json"}); code != exitUsage {
		t.Fatalf("exit %d: %s", code, errOut)
	}
}

// TestHookBadConfig: the agent learns on stdout that its memory could not
// be loaded, and the session still starts.
func TestHookBadConfig(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	a, _, _ := newTestApp(t, dir)
	a.run([]string{"init"})
	os.WriteFile(filepath.Join(dir, ".wake", "wake.toml"), []byte("[claude]\nboot = \"both\"\n"), 0o644)
	code, out, stderr := runHook(t, dir, "")
	if code != 0 || !strings.Contains(out, "wake could not load this project's memory: ") || !strings.Contains(out, "key claude.boot") ||
		!strings.Contains(stderr, "wake: error: ") {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, stderr)
	}
}

// TestHookHugeMemory proves the limit whatever the memory holds: every tier
// far over budget, hundreds of unreadable cold documents (one warning
// each) and thousands of ledger entries in the last day.
func TestHookHugeMemory(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("generates a large memory")
	}
	dir := t.TempDir()
	root := filepath.Join(dir, ".wake")
	fs := afero.NewOsFs()
	if err := memgen.Generate(fs, root, memgen.Options{TierScale: 8, ColdFiles: 50}); err != nil {
		t.Fatal(err)
	}
	for i := range 400 {
		name := filepath.Join(root, "cold", "broken", fmt.Sprintf("n-%03d-😀-é.md", i))
		os.MkdirAll(filepath.Dir(name), 0o755)
		os.WriteFile(name, []byte("---\nsummary: [unclosed\n---\nbody\n"), 0o644)
	}
	a, _, _ := newTestApp(t, dir)
	// AppendLedger writes the entries in memory, then the ledger goes to
	// disk in one write: 3,000 synced appends cost most of a second.
	mem := afero.NewMemMapFs()
	if err := mem.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	for i := range 3000 {
		e := store.Entry{At: a.now().Add(-1), Op: "remember", Paths: []string{"warm/decisions.md"}, ChangeSummary: strings.Repeat("a long change 😀 ", 20) + fmt.Sprint(i)}
		if err := store.AppendLedger(mem, root, e); err != nil {
			t.Fatal(err)
		}
	}
	ledger, err := afero.ReadFile(mem, filepath.Join(root, tiers.LedgerPath))
	if err != nil {
		t.Fatal(err)
	}
	if err := afero.WriteFile(fs, filepath.Join(root, tiers.LedgerPath), ledger, 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, stderr := runHook(t, dir, hookJSON(dir))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if n := boot.ClaudeCode.Len(out); n > boot.HookLimit {
		t.Fatalf("hook printed %d characters, over %d", n, boot.HookLimit)
	}
	bootMD, _ := os.ReadFile(filepath.Join(root, "boot.md"))
	if n := boot.ClaudeCode.Len(string(bootMD)); n < 3*boot.HookLimit {
		t.Fatalf("the memory was not large enough to test the limit: boot.md is %d characters", n)
	}
	for _, want := range []string{"First task: compress", "## Left out", "Left out to stay within Claude Code's 10,000-character limit", "(the whole boot context)"} {
		if !strings.Contains(out, want) {
			t.Errorf("hook output lacks %q", want)
		}
	}
}

// TestHookDeltaWhicheverReadsFirst: Claude Code reads boot.md through
// CLAUDE.md's import as a session starts, before the SessionStart hook
// runs or, on a busy machine, after it (seen in CI). A start whose boot.md
// is behind the memory (a decision since) leaves boot.md as it was, so
// the copy the import reads, before or after, and the hook's delta say
// each fact once; a hand-off writes boot.md again.
func TestHookDeltaWhicheverReadsFirst(t *testing.T) {
	t.Parallel()
	proj := filepath.Join(t.TempDir(), "proj")
	os.MkdirAll(proj, 0o755)
	run := func(args ...string) {
		t.Helper()
		a, _, errOut := newTestApp(t, proj)
		if code := a.run(args); code != 0 {
			t.Fatalf("%v: %s", args, errOut)
		}
	}
	run("init", "--agent", "Ava")
	fillPurpose(t, filepath.Join(proj, ".wake", "main.md"))
	run("install", "claude", "--project-only")
	run("decide", "Bake the rye at dawn", "--because", "the ovens are free then")
	bootMD := filepath.Join(proj, ".wake", "boot.md")
	before := readFile(t, bootMD)
	if strings.Contains(before, "Bake the rye at dawn") {
		t.Fatal("boot.md holds the decision already: the test wants one behind the memory")
	}
	code, out, stderr := runHook(t, proj, hookJSON(proj))
	if code != 0 {
		t.Fatalf("hook: %d %s", code, stderr)
	}
	if !strings.Contains(out, "Bake the rye at dawn") {
		t.Fatalf("the hook's delta lacks the decision:\n%s", out)
	}
	// An import that reads boot.md after the hook reads what it read before.
	after := readFile(t, bootMD)
	if after != before {
		t.Errorf("the hook rewrote boot.md, which an import reading after it takes with the delta for a second copy")
	}
	if n := strings.Count(after+out, "Bake the rye at dawn"); n != 1 {
		t.Errorf("the import read after the hook and the hook's text give the decision %d times", n)
	}
	run("handoff", "--summary", "Planned the baking", "--next", "Buy rye")
	if !strings.Contains(readFile(t, bootMD), "Bake the rye at dawn") {
		t.Error("the hand-off did not write boot.md again")
	}
}
