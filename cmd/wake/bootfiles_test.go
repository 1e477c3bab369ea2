package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wakeproto/wake/skill"
)

// TestSkillFileMode: skill.md is written with mode 0600 and its parent
// directory is created; a wake file with another mode is rewritten 0600.
func TestSkillFileMode(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	a, _, errOut := newTestApp(t, dir)
	if code := a.run([]string{"init", "--agent", "Ava"}); code != 0 {
		t.Fatal(errOut)
	}
	path := filepath.Join(dir, "home", ".claude", "agentchat.skill.md")
	a, _, errOut = newTestApp(t, dir)
	if code := a.run([]string{"load"}); code != 0 {
		t.Fatal(errOut)
	}
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("skill.md: %v, mode %v", err, fi.Mode())
	}
	data, _ := os.ReadFile(path)
	if !skill.HasMarker(data) {
		t.Fatalf("no marker:\n%s", data)
	}
	os.Chmod(path, 0o644)
	os.WriteFile(path, append(data, "edited\n"...), 0o644)
	a, _, _ = newTestApp(t, dir)
	a.run([]string{"load"})
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Fatalf("rewritten with mode %v", fi.Mode())
	}
	if again, _ := os.ReadFile(path); string(again) != string(data) {
		t.Fatal("wake's own file was not regenerated")
	}
}

// TestHookSkillMode: in skill mode the hook writes skill.md, the root's
// own copy and the shared one, no boot.md, and points the agent to the
// root's own copy, which the project's CLAUDE.md imports.
func TestHookSkillMode(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	a, _, _ := newTestApp(t, dir)
	a.run([]string{"init", "--agent", "Ava"})
	os.WriteFile(filepath.Join(dir, ".wake", "wake.toml"), []byte("agent = \"Ava\"\n[claude]\nboot = \"skill\"\n"), 0o644)
	if a, _, errOut := newTestApp(t, dir); a.run([]string{"trust"}) != 0 {
		t.Fatalf("trust: %s", errOut)
	}
	code, out, stderr := runHook(t, dir, hookJSON(dir))
	own := filepath.Join(dir, ".wake", "skill.md")
	if code != 0 || !strings.Contains(out, "Your memory in brief is in "+own+", which CLAUDE.md imports") {
		t.Fatalf("exit %d:\n%s\n%s", code, out, stderr)
	}
	for _, p := range []string{own, filepath.Join(dir, "home", ".claude", "agentchat.skill.md")} {
		if _, err := os.Stat(p); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, ".wake", "boot.md")); !os.IsNotExist(err) {
		t.Fatalf("boot.md written in skill mode: %v", err)
	}
}

// TestHookForeignSkill: the hook never replaces a foreign file and tells
// the agent so.
func TestHookForeignSkill(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	a, _, _ := newTestApp(t, dir)
	a.run([]string{"init"})
	skill := filepath.Join(dir, "home", ".claude", "agentchat.skill.md")
	os.MkdirAll(filepath.Dir(skill), 0o755)
	os.WriteFile(skill, []byte("mine\n"), 0o644)
	code, out, stderr := runHook(t, dir, "")
	if data, _ := os.ReadFile(skill); code != 0 || string(data) != "mine\n" {
		t.Fatalf("exit %d; file now %q", code, data)
	}
	if !strings.Contains(out, "- skill.md was not written: "+skill+" holds a file wake did not write") || !strings.Contains(stderr, "--force-skill") {
		t.Fatalf("stdout:\n%s\nstderr:\n%s", out, stderr)
	}
}
