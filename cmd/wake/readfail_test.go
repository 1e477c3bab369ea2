package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/spf13/afero"
)

// denyFs fails every open of the named paths with "permission denied", as
// chmod 000 would for anyone but root. It keeps the real file system's
// Lstat and Readlink so that symlink checks see what they would on disk.
type denyFs struct {
	afero.Fs
	deny map[string]bool
}

func (d denyFs) refuse(name string) error {
	if d.deny[filepath.Clean(name)] {
		return &fs.PathError{Op: "open", Path: name, Err: syscall.EACCES}
	}
	return nil
}

func (d denyFs) Open(name string) (afero.File, error) {
	if err := d.refuse(name); err != nil {
		return nil, err
	}
	return d.Fs.Open(name)
}

func (d denyFs) OpenFile(name string, flag int, perm os.FileMode) (afero.File, error) {
	if err := d.refuse(name); err != nil {
		return nil, err
	}
	return d.Fs.OpenFile(name, flag, perm)
}

func (d denyFs) LstatIfPossible(name string) (os.FileInfo, bool, error) {
	return d.Fs.(afero.Lstater).LstatIfPossible(name)
}

func (d denyFs) ReadlinkIfPossible(name string) (string, error) {
	return d.Fs.(afero.LinkReader).ReadlinkIfPossible(name)
}

// unreadable makes the paths unreadable: chmod 000 where that stops the
// test's user, and a file system that refuses to open them where it does
// not (root).
func unreadable(t *testing.T, a *app, paths ...string) {
	t.Helper()
	if os.Geteuid() != 0 {
		for _, p := range paths {
			if err := os.Chmod(p, 0); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { os.Chmod(p, 0o755) })
		}
		return
	}
	d := denyFs{Fs: a.fs, deny: map[string]bool{}}
	for _, p := range paths {
		d.deny[filepath.Clean(p)] = true
	}
	a.fs = d
}

// TestLoadSurvivesUnreadableEntries proves one bad entry never stops a
// session start: each is a warning naming its path, in the context and on
// stderr, and wake load still prints a context and exits 0.
func TestLoadSurvivesUnreadableEntries(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		setup func(t *testing.T, root string, a *app)
		want  []string
	}{
		{"unreadable cold subdirectory", func(t *testing.T, root string, a *app) {
			os.MkdirAll(filepath.Join(root, "cold", "locked"), 0o755)
			os.WriteFile(filepath.Join(root, "cold", "locked", "a.md"), []byte("a\n"), 0o644)
			unreadable(t, a, filepath.Join(root, "cold", "locked"))
		}, []string{"cold/locked: skipped: permission denied"}},
		{"cold a regular file", func(t *testing.T, root string, a *app) {
			os.RemoveAll(filepath.Join(root, "cold"))
			os.WriteFile(filepath.Join(root, "cold"), []byte("not a directory\n"), 0o644)
		}, []string{"cold: skipped: not a directory"}},
		{"unreadable tier file", func(t *testing.T, root string, a *app) {
			unreadable(t, a, filepath.Join(root, "warm", "decisions.md"))
		}, []string{"warm/decisions.md: skipped: unreadable: permission denied"}},
		{"unreadable ledger", func(t *testing.T, root string, a *app) {
			unreadable(t, a, filepath.Join(root, "ledger.jsonl"))
		}, []string{"ledger.jsonl: not read: permission denied; no digest of recent changes"}},
		{"ledger a directory", func(t *testing.T, root string, a *app) {
			os.Remove(filepath.Join(root, "ledger.jsonl"))
			os.Mkdir(filepath.Join(root, "ledger.jsonl"), 0o755)
		}, []string{"ledger.jsonl: not read: is a directory; no digest of recent changes"}},
		{"ledger linked out of the root", func(t *testing.T, root string, a *app) {
			outside := filepath.Join(filepath.Dir(root), "outside.jsonl")
			os.WriteFile(outside, []byte(`{"at":"2026-11-22T03:00:00Z","op":"decide","paths":[],"change_summary":"OUTSIDE"}`+"\n"), 0o644)
			os.Remove(filepath.Join(root, "ledger.jsonl"))
			os.Symlink(outside, filepath.Join(root, "ledger.jsonl"))
		}, []string{"ledger.jsonl: not read: symlink ledger.jsonl leads outside the memory root (to "}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			a, _, errOut := newTestApp(t, dir)
			if code := a.run([]string{"init", "--agent", "Ava"}); code != 0 {
				t.Fatalf("init: exit %d: %s", code, errOut)
			}
			a, out, errOut := newTestApp(t, dir)
			tc.setup(t, filepath.Join(dir, ".wake"), a)
			if code := a.run([]string{"load", "--no-skill"}); code != 0 {
				t.Fatalf("load: exit %d: %s", code, errOut)
			}
			if !strings.Contains(out.String(), "# Boot context") || !strings.Contains(out.String(), "## Budget") {
				t.Fatalf("no context printed:\n%s", out)
			}
			if strings.Contains(out.String(), "OUTSIDE") {
				t.Errorf("the context shows an outside file:\n%s", out)
			}
			for _, w := range tc.want {
				if !strings.Contains(out.String(), "- "+w) {
					t.Errorf("context lacks the warning %q:\n%s", w, out)
				}
				if !strings.Contains(errOut.String(), "wake: warning: "+w) {
					t.Errorf("stderr lacks the warning %q:\n%s", w, errOut)
				}
			}
		})
	}
}
