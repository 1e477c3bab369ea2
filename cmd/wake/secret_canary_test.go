package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// secretTargets are the documents made secret in turn by
// TestSecretsNeverLeave: each tier file, a note outside the tiers and
// cold/ (which the wake-up packet reads), and a cold document whose very
// path is withheld too.
var secretTargets = []string{
	"main.md", "recent/latest.md", "recent/previous.md",
	"warm/active_tasks.md", "warm/decisions.md", "warm/open_questions.md",
	"notes/pref.md", "cold/plans/acquisition-of-rival.md",
}

// TestSecretsNeverLeave runs every command against a root in which one
// document at a time is `sensitivity: secret` and holds a unique canary.
// The canary (and the secret cold document's path) must appear on no
// command's stdout or stderr, and in no file wake writes that an agent
// reads, the ledger included (which may name the document, not quote
// it); only wake's own .state/ may. The commands' texts carry a pasted
// credential, which no output and no file shows either.
func TestSecretsNeverLeave(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	for i, target := range secretTargets {
		// The subtest's name is in its temp dir, so in every path shown: it
		// must not name the secret document.
		name := strings.TrimSuffix(target, ".md")
		if secretPathOf(target) != "" {
			name = "cold-document"
		}
		t.Run(name, func(t *testing.T) {
			// Each target has a root, a home and an app of its own.
			t.Parallel()
			canary := fmt.Sprintf("CANARY%03dzq", i)
			dir := canaryRoot(t, target, canary)
			var seen strings.Builder
			for _, args := range canaryCommands(target) {
				a, out, errOut := newTestApp(t, dir)
				if strings.HasPrefix(args[0], "<hook>") {
					a.in = strings.NewReader(hookJSON(dir))
					args = args[1:]
				}
				a.run(args)
				fmt.Fprintf(&seen, "$ wake %s\n%s%s", strings.Join(args, " "), out, errOut)
				if keys := keysIn(out.String() + errOut.String()); len(keys) > 0 {
					t.Errorf("wake %s shows %v:\n%s%s", strings.Join(args, " "), keys, out, errOut)
				}
				for _, leak := range []string{canary, secretPathOf(target)} {
					if leak == "" {
						continue
					}
					for name, s := range map[string]string{"stdout": out.String(), "stderr": errOut.String()} {
						if strings.Contains(s, leak) {
							t.Errorf("wake %s: %s shows %q:\n%s", strings.Join(args, " "), name, leak, s)
						}
					}
				}
			}
			checkCanaryFiles(t, dir, target, canary)
		})
	}
}

// secretPathOf is the part of a secret document's path that must not be
// shown: a cold document's name; "" for a tier file, whose path is the
// layout's.
func secretPathOf(target string) string {
	if strings.HasPrefix(target, "cold/") {
		return "acquisition-of-rival"
	}
	return ""
}

// canaryRoot makes a memory root in a git work tree, with two sessions, a
// decision and a cold note, then makes target secret and puts canary in
// it. The secret cold document is committed, then changed, so that the
// hand-off's git list of changes would name it.
func canaryRoot(t *testing.T, target, canary string) string {
	t.Helper()
	dir := t.TempDir()
	git := func(args ...string) {
		cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"}, args...)...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q")
	run := func(args ...string) {
		a, _, errOut := newTestApp(t, dir)
		if code := a.run(args); code != 0 {
			t.Fatalf("%v: exit %d\n%s", args, code, errOut)
		}
	}
	run("init", "--agent", "Ava")
	root := filepath.Join(dir, ".wake")
	fillPurpose(t, filepath.Join(root, "main.md"))
	run("handoff", "--summary", "first session", "--next", "more", "--happened", "did one")
	run("handoff", "--summary", "second session", "--next", "more", "--happened", "did two")
	run("decide", "Use TOML for config", "--because", "it reads well")
	os.MkdirAll(filepath.Join(root, "cold", "plans"), 0o755)
	os.WriteFile(filepath.Join(root, "cold", "notes.md"), []byte("---\nsummary: Ordinary notes\n---\n# Notes\n\nNothing secret.\n"), 0o644)
	name := filepath.Join(root, filepath.FromSlash(target))
	if !strings.HasSuffix(filepath.Dir(name), ".wake") && !strings.Contains(target, "recent/") && !strings.Contains(target, "warm/") {
		os.MkdirAll(filepath.Dir(name), 0o755)
		os.WriteFile(name, []byte("---\nsummary: plan\nsensitivity: secret\n---\n# Plan\n"), 0o644)
	}
	git("add", "-A")
	git("commit", "-qm", "start")
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(name, []byte(makeSecret(string(data), canary)), 0o644)
	return dir
}

// makeSecret marks a document secret in its front matter and writes the
// canary into its summary, its first heading and its body.
func makeSecret(doc, canary string) string {
	body := doc
	if rest, ok := strings.CutPrefix(doc, "---\n"); ok {
		if _, after, ok := strings.Cut(rest, "\n---\n"); ok {
			body = after
		}
	}
	return "---\nsummary: the " + canary + " summary\nmemory_type: preference\nsensitivity: secret\n---\n# " + canary + " heading\n\n" +
		"[2026-11-20] DECISION: Keep " + canary + " BECAUSE: " + canary + "\nSTATUS: active\n\n" +
		"- [ ] " + canary + " task\n\n" + body + "\n" + canary + " body\n"
}

// canaryCommands lists every command, as an agent or a user would run
// them on this root, the texts they take with a pasted credential.
func canaryCommands(target string) [][]string {
	return [][]string{
		{"load"}, {"load", "--format", "json"}, {"<hook>", "load", "--hook", "claude"},
		{"status"}, {"status", "--format", "json"},
		{"check"}, {"check", "--format", "json"},
		{"wakeup"}, {"wakeup", "--task", "plan the heading", "--format", "markdown"}, {"wakeup", "--format", "prompt"},
		{"decisions"}, {"decisions", "--all", "--format", "json"},
		{"decide", "Use JSON for logs " + keyGitHub, "--because", "jq reads it " + keyAWS},
		{"contest", "1", "--objection", "too slow " + keySlack, "--proposal", "cache it " + keyGitHub},
		{"uphold", "1", "--because", "it stays " + keyAWS},
		{"reverse", "1", "--by", "Use YAML " + keyGitHub, "--because", "anchors " + keySlack},
		{"remember", "rotate " + keyGitHub, "--topic", "keys " + keyAWS},
		{"cold"}, {"cold", "notes.md"}, {"cold", "plans/"}, {"cold", "plans/", "--format", "json"},
		{"log"}, {"log", "--format", "json"},
		{"skill"}, {"trust"},
		{"install", "claude"},
		{"handoff", "--summary", "third session " + keyGitHub, "--next", "ship " + keyAWS, "--happened", "found " + keySlack},
		{"capsule", "--objective", "ship " + keyGitHub},
		{"load"}, {"wakeup"}, {"uninstall", "claude"},
	}
}

// checkCanaryFiles looks for the canary in every file wake writes that an
// agent reads: boot.md, skill.md, the session summaries, main.md, the
// other tier files and the client files; not in the secret document
// itself, and not in the copies the rotation makes of it.
func checkCanaryFiles(t *testing.T, dir, target, canary string) {
	t.Helper()
	root := filepath.Join(dir, ".wake")
	files := []string{
		filepath.Join(root, "boot.md"), filepath.Join(root, "ledger.jsonl"),
		filepath.Join(dir, "home", ".claude", "agentchat.skill.md"), filepath.Join(root, "skill.md"),
		filepath.Join(root, "recent", "latest.md"),
		filepath.Join(dir, "CLAUDE.md"), filepath.Join(dir, ".claude", "settings.json"),
	}
	for _, f := range secretTargets[:len(secretTargets)-2] {
		if f != target && !strings.HasPrefix(f, "recent/") {
			files = append(files, filepath.Join(root, filepath.FromSlash(f)))
		}
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		leaks := []string{canary, secretPathOf(target)}
		if filepath.Base(f) == "ledger.jsonl" {
			leaks = leaks[:1] // the ledger names what changed
		}
		for _, leak := range leaks {
			if leak != "" && strings.Contains(string(data), leak) {
				t.Errorf("%s holds %q", f, leak)
			}
		}
		// The memory files keep what they were given; what wake makes of
		// them for an agent shows it scrubbed.
		rel, _ := filepath.Rel(root, f)
		if keys := keysIn(string(data)); len(keys) > 0 && !slices.Contains(secretTargets, filepath.ToSlash(rel)) {
			t.Errorf("%s holds %v", f, keys)
		}
	}
}
