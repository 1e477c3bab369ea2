package wake

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/spf13/afero"
	"github.com/wakeproto/wake/gitwork"
	"github.com/wakeproto/wake/handoff"
	"github.com/wakeproto/wake/internal/fsrecord"
	"github.com/wakeproto/wake/internal/memlock"
	"github.com/wakeproto/wake/skeleton"
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

// TestInMemoryRootRunsNoGit: a memory on an in-memory filesystem starts
// no git through a hand-off and its boot files (skill.md's branches
// included), and its summary says it is outside git; the same library on
// the disk's filesystem does start the (fake) git.
func TestInMemoryRootRunsNoGit(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the fake git is a shell script")
	}
	bin := t.TempDir()
	log := filepath.Join(bin, "runs.log")
	if err := os.WriteFile(filepath.Join(bin, "git"), []byte("#!/bin/sh\necho \"$*\" >> '"+log+"'\necho true\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	runs := func() int {
		data, _ := os.ReadFile(log)
		return strings.Count(string(data), "\n")
	}
	ctx := context.Background()
	o := Options{FS: afero.NewMemMapFs(), Env: map[string]string{"HOME": "/home/ava"}, WorkDir: "/p", Locker: &memlock.Locker{}}
	if _, err := Init(ctx, "/p/.wake", skeleton.Params{Agent: "Ava"}, o); err != nil {
		t.Fatal(err)
	}
	m, err := Open("/p/.wake", o)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Handoff(ctx, handoff.Input{Session: tiers.Session{Summary: "in memory", NextPriority: "more"}}, BootFiles{}); err != nil {
		t.Fatal(err)
	}
	if n := runs(); n != 0 {
		t.Fatalf("git ran %d times for a memory in memory", n)
	}
	latest, _ := afero.ReadFile(o.FS, "/p/.wake/"+tiers.LatestPath)
	if !strings.Contains(string(latest), "Outside git: ") {
		t.Errorf("the summary does not say the root is outside git:\n%s", latest)
	}
	if skill, _ := afero.ReadFile(o.FS, "/p/.wake/"+tiers.RootSkillPath); len(skill) == 0 {
		t.Error("no skill.md was written: its branches were not asked for")
	}
	if !bare(t.TempDir(), Options{FS: afero.NewOsFs()}).gitw().InWorkTree(ctx, t.TempDir()) || runs() != 1 {
		t.Fatalf("on disk, git ran %d times, want the fake's one answer", runs())
	}
}

// TestHandoffOutsideGitAsksGitAtMostOnce: a hand-off of a root in no git
// work tree learns so from the list of changed files and does not start
// git again for the session's commits; with no .git above the root it
// does not start git at all.
func TestHandoffOutsideGitAsksGitAtMostOnce(t *testing.T) {
	log, dir := loggingGit(t), t.TempDir()
	ctx := context.Background()
	o := Options{FS: afero.NewOsFs(), Env: map[string]string{"HOME": filepath.Join(dir, "home"), "GIT_CEILING_DIRECTORIES": dir}}
	root := filepath.Join(dir, ".wake")
	if _, err := Init(ctx, root, skeleton.Params{Agent: "Ava"}, o); err != nil {
		t.Fatal(err)
	}
	m, err := Open(root, o)
	if err != nil {
		t.Fatal(err)
	}
	if !m.lastHandoff().IsZero() || store.LedgerStart(o.FS, root).IsZero() {
		t.Fatal("the hand-off would not look for the session's commits")
	}
	if _, err := m.Handoff(ctx, handoff.Input{Session: tiers.Session{Summary: "outside git", NextPriority: "more"}}, BootFiles{NoSkill: true}); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(log)
	if (gitwork.Git{}).Outside(afero.NewOsFs(), root) {
		// No .git above the root: told without starting git at all.
		if len(data) != 0 {
			t.Fatalf("git runs: %q, want none: no .git is above the root", data)
		}
	} else if runs := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n"); len(runs) != 1 || !strings.HasSuffix(runs[0], " rev-parse --show-toplevel") {
		t.Fatalf("git runs: %q, want the one rev-parse", runs)
	}
	latest, _ := os.ReadFile(filepath.Join(root, filepath.FromSlash(tiers.LatestPath)))
	if !strings.Contains(string(latest), "Outside git: the memory root is not in a git work tree") {
		t.Errorf("the summary does not say the root is outside git:\n%s", latest)
	}
}

// TestBranchesOutsideGitStartNoGit: the branches in flight of a directory
// with no .git above it are none, told without starting git; a .git above
// it, or a GIT_DIR in the environment, still asks git.
func TestBranchesOutsideGitStartNoGit(t *testing.T) {
	log, dir := loggingGit(t), t.TempDir()
	work := filepath.Join(dir, "project", "sub")
	if err := os.MkdirAll(work, 0o755); err != nil {
		t.Fatal(err)
	}
	runs := func() int {
		data, _ := os.ReadFile(log)
		return strings.Count(string(data), "\n")
	}
	branchesFrom := func(env map[string]string) {
		env["HOME"], env["GIT_CEILING_DIRECTORIES"] = filepath.Join(dir, "home"), dir
		m := &Memory{root: filepath.Join(work, ".wake"), o: Options{FS: afero.NewOsFs(), Env: env, WorkDir: work}}
		if bs := m.branches(); len(bs) != 0 {
			t.Fatalf("branches %v outside any repository", bs)
		}
	}
	if _, ok := tiers.FindWorktree(afero.NewOsFs(), work); ok {
		t.Skip("the temporary directory is inside a git work tree")
	}
	branchesFrom(map[string]string{})
	if n := runs(); n != 0 {
		t.Fatalf("git ran %d times with no .git above the directory", n)
	}
	branchesFrom(map[string]string{"GIT_DIR": filepath.Join(dir, "elsewhere.git")})
	if n := runs(); n != 1 {
		t.Fatalf("with GIT_DIR set, git ran %d times, want it asked once", n)
	}
	if err := os.Mkdir(filepath.Join(dir, "project", ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	branchesFrom(map[string]string{})
	if n := runs(); n != 2 {
		t.Fatalf("with a .git above the directory, git ran %d times in all, want it asked again", n)
	}
}

// TestOutsideLookupIsNoKey: the .git entries looked for in place of asking
// git for the branches are not recorded into a start cache's key, as git's
// answer was not.
func TestOutsideLookupIsNoKey(t *testing.T) {
	rec := fsrecord.New(afero.NewOsFs(), nil)
	if _, ok := tiers.FindWorktree(rec.Fs, t.TempDir()); ok {
		t.Skip("the temporary directory is inside a git work tree")
	}
	if !(gitwork.Git{}).Outside(unrecorded(rec), t.TempDir()) {
		t.Fatal("a temporary directory is not outside git")
	}
	if key, _ := rec.Key(time.Now()); len(key) != 0 {
		t.Fatalf("the lookup was recorded: %v", key)
	}
}

// loggingGit puts first on PATH a git that logs its arguments, a line a
// run, to the file it returns, then runs the real git; it skips the test
// where there is no git or no shell.
func loggingGit(t *testing.T) string {
	t.Helper()
	real, err := exec.LookPath("git")
	if err != nil || runtime.GOOS == "windows" {
		t.Skip("needs git, and a shell for the logging one")
	}
	bin := t.TempDir()
	log := filepath.Join(bin, "runs.log")
	if err := os.WriteFile(filepath.Join(bin, "git"), []byte("#!/bin/sh\necho \"$*\" >> '"+log+"'\nexec '"+real+"' \"$@\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	return log
}
