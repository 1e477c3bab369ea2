package main

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/wakeproto/wake/clients/claude"

	"github.com/wakeproto/wake/store"
)

// installProject makes a project with a memory root in a temp directory,
// HOME inside it.
func installProject(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "home"), 0o755); err != nil {
		t.Fatal(err)
	}
	a, _, errOut := newTestApp(t, dir)
	if code := a.run([]string{"init", "--agent", "Ava"}); code != 0 {
		t.Fatalf("init: %s", errOut)
	}
	return dir
}

// wakeIn runs wake in dir and fails the test on a non-zero exit.
func wakeIn(t *testing.T, dir string, args ...string) (string, string) {
	t.Helper()
	a, out, errOut := newTestApp(t, dir)
	if code := a.run(args); code != 0 {
		t.Fatalf("wake %s: exit %d\n%s%s", strings.Join(args, " "), code, out, errOut)
	}
	return out.String(), errOut.String()
}

func ledgerOps(t *testing.T, dir string) []store.Entry {
	t.Helper()
	a, _, _ := newTestApp(t, dir)
	entries, _, err := store.ReadLedger(a.fs, filepath.Join(dir, ".wake"))
	if err != nil {
		t.Fatal(err)
	}
	return entries
}

// TestInstallLedger: install and uninstall each log one line naming the
// files they changed; a run that changes nothing logs nothing.
func TestInstallLedger(t *testing.T) {
	t.Parallel()
	dir := installProject(t)
	before := len(ledgerOps(t, dir))
	wakeIn(t, dir, "install", "claude")
	entries := ledgerOps(t, dir)
	if len(entries) != before+1 {
		t.Fatalf("install logged %d lines, want 1", len(entries)-before)
	}
	e := entries[len(entries)-1]
	// Named beside the root, not by this machine's absolute paths: the
	// ledger is committed.
	settings := "../.claude/settings.json"
	for _, p := range []string{settings, "../CLAUDE.md", "boot.md"} {
		if !slices.Contains(e.Paths, p) {
			t.Errorf("install's ledger paths %q lack %s", e.Paths, p)
		}
	}
	if e.Op != "install" || !strings.Contains(e.ChangeSummary, "added the SessionStart hook") || !strings.Contains(e.ChangeSummary, "added the import @.wake/boot.md") {
		t.Fatalf("install's ledger line: %+v", e)
	}
	wakeIn(t, dir, "install", "claude")
	if n := len(ledgerOps(t, dir)); n != before+1 {
		t.Fatalf("a second install that changed nothing logged %d lines", n-before-1)
	}
	wakeIn(t, dir, "uninstall", "claude")
	entries = ledgerOps(t, dir)
	e = entries[len(entries)-1]
	if len(entries) != before+2 || e.Op != "uninstall" || !slices.Contains(e.Paths, settings) || !strings.Contains(e.ChangeSummary, "removed the import") {
		t.Fatalf("uninstall's ledger: %d new lines, last %+v", len(entries)-before, e)
	}
	wakeIn(t, dir, "uninstall", "claude")
	if n := len(ledgerOps(t, dir)); n != before+2 {
		t.Fatalf("a second uninstall that changed nothing logged %d lines", n-before-2)
	}
}

// refusingLocker never grants the lock.
type refusingLocker struct{}

func (refusingLocker) Lock(context.Context, string) (func() error, error) {
	return nil, store.ErrLockTimeout
}

func (refusingLocker) RLock(context.Context, string) (func() error, error) {
	return nil, store.ErrLockTimeout
}

func (refusingLocker) LockIn(context.Context, string, string) (func() error, error) {
	return nil, store.ErrLockTimeout
}

// TestInstallTakesTheLock: while another wake holds the root's lock,
// install and uninstall fail and change nothing.
func TestInstallTakesTheLock(t *testing.T) {
	t.Parallel()
	dir := installProject(t)
	wakeIn(t, dir, "install", "claude")
	settings := filepath.Join(dir, ".claude", "settings.json")
	installed, _ := os.ReadFile(settings)
	for _, args := range [][]string{{"uninstall", "claude"}, {"install", "claude", "--project", dir}} {
		if args[0] == "install" {
			os.Remove(settings)
		}
		a, _, errOut := newTestApp(t, dir)
		a.locker = refusingLocker{}
		if code := a.run(args); code != 1 || !strings.Contains(errOut.String(), "lock") {
			t.Fatalf("%s with the lock held: exit %d, %s", args[0], code, errOut)
		}
		got, err := os.ReadFile(settings)
		if args[0] == "uninstall" && string(got) != string(installed) || args[0] == "install" && !errors.Is(err, os.ErrNotExist) {
			t.Fatalf("%s changed settings.json without the lock: %q", args[0], got)
		}
	}
}

// TestUninstallKeepsWhatTheUserMade: uninstall removes what install added
// and nothing the user wrote, even where it looks like wake's.
func TestUninstallKeepsWhatTheUserMade(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		setup func(t *testing.T, dir string)
		check func(t *testing.T, dir, out string)
	}{
		{"a skill import written by hand, in full mode", func(t *testing.T, dir string) {
			writeFile(t, filepath.Join(dir, "home", ".claude", "CLAUDE.md"), "@~/.claude/agentchat.skill.md\n")
		}, func(t *testing.T, dir, out string) {
			if got := readFile(t, filepath.Join(dir, "home", ".claude", "CLAUDE.md")); got != "@~/.claude/agentchat.skill.md\n" {
				t.Errorf("~/.claude/CLAUDE.md is now %q", got)
			}
		}},
		{"an empty .claude/ made by the user", func(t *testing.T, dir string) {
			os.Mkdir(filepath.Join(dir, ".claude"), 0o755)
		}, func(t *testing.T, dir, out string) {
			if _, err := os.Stat(filepath.Join(dir, ".claude")); err != nil {
				t.Errorf(".claude/ was removed: %v", err)
			}
			if _, err := os.Stat(filepath.Join(dir, ".claude", "settings.json")); !os.IsNotExist(err) {
				t.Errorf("settings.json, which install created, is still there: %v", err)
			}
		}},
		{"a CLAUDE.md holding only the import, written by hand", func(t *testing.T, dir string) {
			writeFile(t, filepath.Join(dir, "CLAUDE.md"), "@.wake/boot.md\n")
		}, func(t *testing.T, dir, out string) {
			if got := readFile(t, filepath.Join(dir, "CLAUDE.md")); got != "@.wake/boot.md\n" {
				t.Errorf("CLAUDE.md is now %q", got)
			}
		}},
		{"no record of the install", func(t *testing.T, dir string) {}, func(t *testing.T, dir, out string) {
			if got := readFile(t, filepath.Join(dir, "CLAUDE.md")); got != "@.wake/boot.md\n" {
				t.Errorf("CLAUDE.md is now %q", got)
			}
			if got := readFile(t, filepath.Join(dir, ".claude", "settings.json")); strings.Contains(got, claude.HookCommand) {
				t.Errorf("wake's hook was left:\n%s", got)
			}
			if !strings.Contains(out, "cannot tell which import lines were its own and removed none: CLAUDE.md imports @.wake/boot.md") {
				t.Errorf("uninstall did not say which import it left:\n%s", out)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := installProject(t)
			tc.setup(t, dir)
			wakeIn(t, dir, "install", "claude")
			if tc.name == "no record of the install" {
				if err := os.Remove(filepath.Join(dir, ".wake", ".state", claude.ManifestFile)); err != nil {
					t.Fatal(err)
				}
			}
			out, _ := wakeIn(t, dir, "uninstall", "claude")
			tc.check(t, dir, out)
		})
	}
}

func writeFile(t *testing.T, name, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readFile(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestInstallBadManifest: a damaged record stops install and uninstall
// before they change anything, naming the file.
func TestInstallBadManifest(t *testing.T) {
	t.Parallel()
	dir := installProject(t)
	wakeIn(t, dir, "install", "claude")
	manifest := filepath.Join(dir, ".wake", ".state", claude.ManifestFile)
	writeFile(t, manifest, "{\"version\": 1, \"installs\": [")
	settings := readFile(t, filepath.Join(dir, ".claude", "settings.json"))
	for _, args := range [][]string{{"uninstall", "claude"}, {"install", "claude"}} {
		a, _, errOut := newTestApp(t, dir)
		if code := a.run(args); code != 1 || !strings.Contains(errOut.String(), manifest+": ") || !strings.Contains(errOut.String(), "wake: hint: it records what") {
			t.Fatalf("%s: exit %d\n%s", args[0], code, errOut)
		}
		if got := readFile(t, filepath.Join(dir, ".claude", "settings.json")); got != settings {
			t.Fatalf("%s changed settings.json", args[0])
		}
	}
}

// TestInstallWarnsWithoutWakeOnPath: the hook runs the bare command wake,
// so install warns when PATH has no executable wake, and only then.
func TestInstallWarnsWithoutWakeOnPath(t *testing.T) {
	t.Parallel()
	dir := installProject(t)
	bin := filepath.Join(dir, "bin")
	writeFile(t, filepath.Join(bin, "wake"), "not executable")
	if err := os.MkdirAll(filepath.Join(dir, "other", "wake"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path string
		warn bool
	}{
		{"", true},
		{filepath.Join(dir, "nowhere") + string(os.PathListSeparator) + filepath.Join(dir, "other"), true},
		{bin, true},
		{filepath.Join(dir, "nowhere") + string(os.PathListSeparator) + bin, false},
	} {
		if !tc.warn {
			if err := os.Chmod(filepath.Join(bin, "wake"), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		a, out, errOut := newTestApp(t, dir)
		a.env["PATH"] = tc.path
		if code := a.run([]string{"install", "claude"}); code != 0 {
			t.Fatalf("PATH=%q: exit %d\n%s", tc.path, code, errOut)
		}
		warned := strings.Contains(errOut.String(), "wake: warning: 'wake' is not on PATH") &&
			strings.Contains(errOut.String(), "wake: hint: ")
		if warned != tc.warn {
			t.Fatalf("PATH=%q: warned=%v, want %v\nstdout:\n%s\nstderr:\n%s", tc.path, warned, tc.warn, out, errOut)
		}
	}
}
