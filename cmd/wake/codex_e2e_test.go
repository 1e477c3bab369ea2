//go:build unix

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// codexVersion is the Codex CLI release the end-to-end test runs.
var codexVersion = clientRelease("codex")

// codexModel is a model Codex 0.169.0 knows: with its metadata Codex offers
// the apply_patch tool, which it does not for a model it does not know.
const codexModel = "gpt-5.5"

// TestCodexEndToEnd runs the real Codex CLI against a stub of the
// Responses API on loopback: before wake install codex nothing of wake
// reaches the model; after it the SessionStart hook's text and wake's
// AGENTS.md block do; a session that edits a file is asked once, through
// the Stop hook, to hand off, and one that ends without a hand-off gets
// the automatic one; wake uninstall codex gives back every file of
// Codex's as it was.
func TestCodexEndToEnd(t *testing.T) {
	t.Parallel()
	_, _, stub, p := codexE2E(t)

	// The control: before install, nothing of wake reaches the model.
	p.codex(t, "hello")
	if text := strings.Join(stub.take(), "\n"); strings.Contains(text, e2eMarker) || strings.Contains(text, "# wake: memory loaded") || strings.Contains(text, "Memory: wake") {
		t.Fatalf("wake reached the model before wake install codex:\n%.3000s", text)
	}
	before := p.clientFiles(t)
	out := p.wake(t, "install", "codex")
	for _, want := range []string{
		`.codex/hooks.json: created; added wake's hooks: SessionStart "wake load --hook codex", Stop "wake hook stop codex", SessionEnd "wake hook end codex"`,
		"AGENTS.md: added wake's block",
		"~/.codex/config.toml: trusted the project; trusted 5 of wake's hooks (written by 'codex app-server'",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("wake install codex does not say %q:\n%s", want, out)
		}
	}
	if again := p.wake(t, "install", "codex"); !strings.Contains(again, "Already installed") || !strings.Contains(again, "trusts the project and wake's hooks; unchanged") {
		t.Errorf("a second install changed something:\n%s", again)
	}

	t.Run("start", func(t *testing.T) { codexStart(t, p, stub) })
	t.Run("stop and end", func(t *testing.T) { codexStopAndEnd(t, p, stub) })
	// Started in a subdirectory of the project, Codex finds the project's
	// hooks and AGENTS.md all the same (from the git work tree's top).
	p.sub = filepath.Join("src", "till")
	if err := os.MkdirAll(filepath.Join(p.dir, p.sub), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Run("subdirectory start", func(t *testing.T) { codexStart(t, p, stub) })
	t.Run("subdirectory stop and end", func(t *testing.T) { codexStopAndEnd(t, p, stub) })
	p.sub = ""

	p.wake(t, "uninstall", "codex")
	after := p.clientFiles(t)
	for name := range after {
		if _, ok := before[name]; !ok {
			before[name] = nil
		}
	}
	for name, b := range before {
		if a := after[name]; !bytes.Equal(a, b) {
			t.Errorf("%s after uninstall differs from before install:\n--- before\n%s\n--- after\n%s", name, b, a)
		}
	}
}

// codexStart: the first request of a session carries the SessionStart
// hook's text, as a developer message, and wake's block in AGENTS.md.
func codexStart(t *testing.T, p *codexProject, stub *responsesStub) {
	var packet struct {
		Announcement string `json:"announcement"`
	}
	if err := json.Unmarshal([]byte(p.wake(t, "load", "--format", "json")), &packet); err != nil || !strings.HasPrefix(packet.Announcement, "Resumed.") {
		t.Fatalf("announcement %q (%v): the hand-off should leave every check passing", packet.Announcement, err)
	}
	if out := p.codex(t, "hello"); !strings.Contains(out, "stub reply") {
		t.Fatalf("codex exec printed %q, not the stub's reply", out)
	}
	reqs := stub.requests()
	if len(reqs) == 0 {
		t.Fatal("the model got no request")
	}
	hook, agents := "", ""
	for _, m := range reqs[0].Input {
		switch text := m.text(); {
		case m.Role == "developer" && strings.HasPrefix(text, "# wake: memory loaded"):
			hook = text
		case m.Role == "user" && strings.Contains(text, "# AGENTS.md instructions for "+p.dir):
			agents = text
		}
	}
	var first []string
	for _, m := range reqs[0].Input {
		first = append(first, m.text())
	}
	assertEachFactOnce(t, "the first request", strings.Join(first, "\n"), hook)
	if !strings.Contains(hook, packet.Announcement) {
		t.Errorf("no developer message carries the hook's text with %q", packet.Announcement)
	}
	if n := len(hook); n > 10000 {
		t.Errorf("the hook's text is %d bytes, past Codex's 10,000", n)
	}
	for _, want := range []string{"Use tabs.", "## Memory: wake", "read .wake/boot.md", `wake handoff --summary "`} {
		if !strings.Contains(agents, want) {
			t.Errorf("the model's AGENTS.md message lacks %q:\n%s", want, agents)
		}
	}
	if t.Failed() {
		t.Logf("first request:\n%.6000s", strings.Join(stub.take(), "\n"))
	}
	stub.take()
}

// codexStopAndEnd: a session whose first reply is a tool call editing a
// file is asked once, by the Stop hook, to hand off; the agent does not,
// and the session's end writes the automatic hand-off from its
// transcript.
func codexStopAndEnd(t *testing.T, p *codexProject, stub *responsesStub) {
	latest := filepath.Join(p.dir, ".wake", "recent", "latest.md")
	old, err := os.ReadFile(latest)
	if err != nil {
		t.Fatal(err)
	}
	stub.script(
		[]any{map[string]any{"type": "custom_tool_call", "id": "ctc_1", "call_id": "call_1", "name": "apply_patch",
			"input": "*** Begin Patch\n*** Add File: notes/todo.txt\n+ship the codex wiring\n*** End Patch\n"}},
		[]any{assistantMessage("msg_2", "Added notes/todo.txt. Not yet wired into the release checklist.")},
	)
	p.codex(t, "add a todo note")
	if data, err := os.ReadFile(filepath.Join(p.dir, p.sub, "notes", "todo.txt")); err != nil || string(data) != "ship the codex wiring\n" {
		t.Fatalf("the tool call did not write notes/todo.txt: %q %v", data, err)
	}
	reqs := stub.requests()
	// The prompt, the tool's output, the Stop hook's reason: three.
	if len(reqs) != 3 {
		t.Fatalf("the model got %d requests, want 3", len(reqs))
	}
	reason := ""
	for _, m := range reqs[2].Input {
		if text := m.text(); m.Role == "user" && strings.HasPrefix(text, "<hook_prompt") {
			if reason != "" {
				t.Errorf("the last request carries the Stop hook's reason twice")
			}
			reason = text
		}
	}
	if !strings.Contains(reason, "wake handoff") {
		t.Errorf("the last request carries no Stop hook reason naming wake handoff: %q", reason)
	}
	// Codex puts the reason inside its <hook_prompt> element, escaping
	// what would be markup: the model would read entities, not the text.
	for _, esc := range []string{"&lt;", "&gt;", "&quot;", "&amp;", "&apos;", "&#"} {
		if strings.Contains(reason, esc) {
			t.Errorf("the Stop hook's reason reaches the model with %s in it: %q", esc, reason)
		}
	}
	for _, r := range reqs[:2] {
		for _, m := range r.Input {
			if strings.HasPrefix(m.text(), "<hook_prompt") {
				t.Errorf("an earlier request carries a hook prompt: %q", m.text())
			}
		}
	}
	stub.take()
	// SessionEnd runs after codex exits its turn loop, within Codex's three
	// seconds.
	deadline := time.Now().Add(10 * time.Second)
	var now []byte
	for time.Now().Before(deadline) {
		if now, err = os.ReadFile(latest); err == nil && !bytes.Equal(now, old) {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if bytes.Equal(now, old) {
		t.Fatalf("the session ended without a hand-off and recent/latest.md was not rewritten")
	}
	// The last message is the work's, not the answer to the Stop hook
	// (the stub's unscripted "stub reply"), and what it left open is an
	// open thread.
	for _, want := range []string{"Automatic hand-off", "notes/todo.txt", "add a todo note",
		"- The agent's last message: “Added notes/todo.txt.” (what it left open: the next priority and the open threads)\n",
		"left open: “Not yet wired into the release checklist.”"} {
		if !strings.Contains(string(now), want) {
			t.Errorf("the automatic hand-off lacks %q:\n%s", want, now)
		}
	}
	if strings.Contains(string(now), "stub reply") {
		t.Errorf("the automatic hand-off quotes the agent's answer to the Stop hook:\n%s", now)
	}
}

// codexProject is a project with a memory root after one hand-off, and
// the environment Codex runs in: HOME, CODEX_HOME, TMPDIR and the XDG
// directories in the test's directory, the model API on loopback.
type codexProject struct {
	dir, home string
	sub       string // where Codex starts, below dir: "" for dir itself
	env       []string
	bin       string // wake
	codexBin  string
}

// codexE2E sets up an end-to-end test of the real Codex (skipped with
// -short): the client, the wake binary, a loopback model stub and a
// project whose Codex talks to it.
func codexE2E(t *testing.T) (codex, bin string, stub *responsesStub, p *codexProject) {
	t.Helper()
	if testing.Short() {
		t.Skip("runs the real Codex CLI")
	}
	codex = codexCLI(t)
	bin = wakeBinary(t)
	stub = newResponsesStub(t)
	return codex, bin, stub, newCodexProject(t, bin, codex, stub.URL)
}

func newCodexProject(t *testing.T, bin, codex, api string) *codexProject {
	t.Helper()
	work := t.TempDir()
	p := &codexProject{dir: filepath.Join(work, "proj"), home: filepath.Join(work, "home"), bin: bin, codexBin: codex}
	tmp := filepath.Join(work, "tmp")
	for _, d := range []string{p.home, filepath.Join(p.home, ".codex"), tmp, p.dir} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	p.env = []string{
		"HOME=" + p.home, "CODEX_HOME=" + filepath.Join(p.home, ".codex"), "TMPDIR=" + tmp,
		"XDG_CONFIG_HOME=" + filepath.Join(p.home, ".config"), "XDG_CACHE_HOME=" + filepath.Join(p.home, ".cache"),
		"XDG_DATA_HOME=" + filepath.Join(p.home, ".local", "share"), "XDG_STATE_HOME=" + filepath.Join(p.home, ".local", "state"),
		"PATH=" + strings.Join([]string{filepath.Dir(bin), filepath.Dir(codex), "/usr/local/bin", "/usr/bin", "/bin"}, string(os.PathListSeparator)),
		"NO_COLOR=1", "TERM=dumb", "GIT_CONFIG_NOSYSTEM=1",
	}
	config := fmt.Sprintf(`# The model API on loopback, for wake's end-to-end test.
model = %q
model_provider = "stub"

[model_providers.stub]
name = "stub"
base_url = "%s/v1"
wire_api = "responses"
supports_websockets = false
`, codexModel, api)
	if err := os.WriteFile(filepath.Join(p.home, ".codex", "config.toml"), []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(p.dir, "AGENTS.md"), []byte("# Tallybook\n\nUse tabs.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p.wake(t, "init", "--agent", "Ava")
	fillPurpose(t, filepath.Join(p.dir, ".wake", "main.md"))
	p.wake(t, "handoff", "--summary", "Wired wake into Codex", "--next", "Ship the end-to-end test", "--happened", "proved the hook with "+e2eMarker)
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "start"}} {
		runBounded(t, p.dir, p.env, 30*time.Second, "git", args...)
	}
	return p
}

func (p *codexProject) wake(t *testing.T, args ...string) string {
	t.Helper()
	return runBounded(t, p.dir, p.env, 60*time.Second, p.bin, args...)
}

// codex runs one non-interactive session: no approvals and no sandbox,
// which the test's directory stands in for. The npm package's codex is a
// node script that runs the native binary, which outlives a killed node:
// the whole process group goes at the time limit.
func (p *codexProject) codex(t *testing.T, prompt string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, p.codexBin, "exec", "--dangerously-bypass-approvals-and-sandbox", "--color", "never", prompt)
	cmd.Dir, cmd.Env = filepath.Join(p.dir, p.sub), p.env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("codex exec %q: %v\nstdout:\n%s\nstderr:\n%.4000s", prompt, err, out, stderr.String())
	}
	return string(out)
}

// clientFiles reads the files of Codex's that install changes, nil for
// one that is not there.
func (p *codexProject) clientFiles(t *testing.T) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	for _, name := range []string{filepath.Join(p.dir, ".codex", "hooks.json"), filepath.Join(p.dir, "AGENTS.md"), filepath.Join(p.home, ".codex", "config.toml")} {
		data, err := os.ReadFile(name)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			t.Fatal(err)
		}
		out[name] = data
	}
	if _, err := os.Stat(filepath.Join(p.dir, ".codex")); err == nil {
		out[".codex/ exists"] = []byte("yes")
	}
	return out
}

// codexCLI returns the codex program of codexVersion (see
// [npmClient.path]).
func codexCLI(t *testing.T) string {
	return npmClient{test: "TestCodexEndToEnd", pkg: "@openai/codex", version: codexVersion,
		bin: "codex", env: "WAKE_CODEX_DIR", cache: "wake-codex-"}.path(t)
}
