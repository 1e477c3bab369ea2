package gitwork

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// fakeGit puts first on PATH a git that logs each run's arguments, a line
// each, and prints "true"; it returns the log's path. The test must not be
// parallel (it sets PATH).
func fakeGit(t *testing.T) string {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the fake git is a shell script")
	}
	dir := t.TempDir()
	log := filepath.Join(dir, "runs.log")
	script := "#!/bin/sh\necho \"$*\" >> '" + log + "'\necho true\n"
	if err := os.WriteFile(filepath.Join(dir, "git"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	return log
}

// gitRuns reads the fake git's log: one line a run.
func gitRuns(t *testing.T, log string) []string {
	t.Helper()
	data, err := os.ReadFile(log)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
}

// TestUnseenRunsNoGit: a Git whose directories are not on disk starts no
// git and answers as git outside a work tree; the same Git otherwise runs
// git once a call.
func TestUnseenRunsNoGit(t *testing.T) {
	log := fakeGit(t)
	ctx := context.Background()
	dir := t.TempDir()
	unseen := Git{Unseen: true}
	if _, err := unseen.Run(ctx, dir, "status"); !errors.Is(err, ErrUnseen) {
		t.Fatalf("Run of an unseen directory: %v, want ErrUnseen", err)
	}
	if unseen.InWorkTree(ctx, dir) || unseen.Branches(ctx, dir) != nil {
		t.Fatal("an unseen directory is in a work tree, or has branches")
	}
	l, _, outside := unseen.Changes(ctx, ChangesOptions{Root: dir})
	if !strings.HasPrefix(l.Note, "Outside git: ") || !outside {
		t.Fatalf("Changes of an unseen root: %q (outside %v), want it outside git", l.Note, outside)
	}
	if runs := gitRuns(t, log); len(runs) != 0 {
		t.Fatalf("git ran for an unseen directory: %q", runs)
	}
	if !(Git{}).InWorkTree(ctx, dir) {
		t.Fatal("the fake git's answer was not read")
	}
	if runs := gitRuns(t, log); len(runs) != 1 || !strings.HasSuffix(runs[0], " rev-parse --is-inside-work-tree") {
		t.Fatalf("git runs: %q, want one rev-parse", runs)
	}
}
