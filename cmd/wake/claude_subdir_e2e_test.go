package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestClaudeCodeSubdirectory runs the real Claude Code in a subdirectory
// of a wired project, where it reads none of the project's settings (so
// none of its hooks) and leaves CLAUDE.md's import unexpanded: the relay
// 'wake install claude' put in the user's settings must give the session
// the memory, ask once at Stop for the work it did, and hand it off at
// its end. A session at the project's top runs the project's hooks alone,
// and one outside the project runs no wake at all.
func TestClaudeCodeSubdirectory(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs the real Claude Code client")
	}
	claude := claudeCode(t)
	bin := wakeBinary(t)
	stub := newWriterStub(t)
	proj, env, _ := claudeProject(t, bin, "full", stub.URL)
	env, hooks := logHooks(t, env, bin)
	defer dumpHooks(t, hooks)
	runBounded(t, proj, env, 60*time.Second, "git", "init", "-q")
	out := runBounded(t, proj, env, 60*time.Second, bin, "install", "claude")
	if !strings.Contains(out, "relay") {
		t.Errorf("install says nothing of the relay for subdirectories:\n%s", out)
	}
	sub := filepath.Join(proj, "src", "till")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(hooks, nil, 0o644)

	// A session in the subdirectory that writes a file and stops.
	notes := filepath.Join(sub, "notes.txt")
	stub.writeNext(notes)
	const work = "Wrote the till notes. The refunds column still needs a total."
	stub.afterWrite = work
	runBounded(t, sub, env, 120*time.Second, claude, "-p", "--permission-mode", "acceptEdits", "write the till notes")
	if got := readFile(t, notes); got != writerContent {
		t.Fatalf("notes.txt holds %q: the agent's Write did not run", got)
	}
	reqs := stub.takeMessages(t)
	if len(reqs) == 0 {
		t.Fatal("the stub received no request")
	}
	first := ""
	for _, m := range reqs[0] {
		first += m.Text + "\n"
	}
	for _, want := range []string{"# wake: memory loaded", e2eMarker, "started in a subdirectory of the project"} {
		if !strings.Contains(first, want) {
			t.Errorf("the first request lacks %q", want)
		}
	}
	assertReasonOnceWith(t, reqs, "wake: this session changed files (src/till/notes.txt among them) but wrote no hand-off")
	latest := readFile(t, filepath.Join(proj, ".wake", "recent", "latest.md"))
	for _, want := range []string{"Automatic hand-off", "src/till/notes.txt", work[len("Wrote the till notes. "):]} {
		if !strings.Contains(latest, want) {
			t.Errorf("the automatic hand-off lacks %q:\n%s", want, latest)
		}
	}
	log := readFile(t, hooks)
	for _, want := range []string{"wake load --hook claude --below " + proj, "wake hook stop claude --below " + proj, "wake hook end claude --below " + proj} {
		if !strings.Contains(log, want) {
			t.Errorf("the relay did not run %q", want)
		}
	}

	// At the project's top the project's hooks run, and no relay.
	os.WriteFile(hooks, nil, 0o644)
	runBounded(t, proj, env, 120*time.Second, claude, "-p", "hello")
	log = readFile(t, hooks)
	if !strings.Contains(log, "wake load --hook claude\n") || strings.Contains(log, "--below") {
		t.Errorf("a session at the project's top ran:\n%s", log)
	}
	stub.takeMessages(t)

	// Outside the project no wake runs at all.
	elsewhere := filepath.Join(filepath.Dir(proj), "elsewhere")
	os.MkdirAll(elsewhere, 0o755)
	os.WriteFile(hooks, nil, 0o644)
	runBounded(t, elsewhere, env, 120*time.Second, claude, "-p", "hello")
	if log := readFile(t, hooks); log != "" {
		t.Errorf("a session outside the project ran wake:\n%s", log)
	}
	for _, r := range stub.takeMessages(t) {
		for _, m := range r {
			if strings.Contains(m.Text, e2eMarker) {
				t.Error("the memory reached a session outside the project")
			}
		}
	}

	// Uninstall takes the relay out of the user's settings again.
	runBounded(t, proj, env, 60*time.Second, bin, "uninstall", "claude")
	user := filepath.Join(filepath.Dir(proj), "home", ".claude", "settings.json")
	if data, err := os.ReadFile(user); err == nil && strings.Contains(string(data), "--below") {
		t.Errorf("uninstall left the relay in %s:\n%s", user, data)
	}
}
