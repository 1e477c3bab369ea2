package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wakeproto/wake/internal/testmain"
)

// claudeCodeVersion is the Claude Code release the end-to-end test runs.
var claudeCodeVersion = clientRelease("claude")

// TestClaudeCodeEndToEnd runs the real Claude Code client against a stub of
// the model API on loopback: wake init, a hand-off, wake install claude,
// then `claude -p`, in each boot mode. The request Claude Code sends must
// carry the hook's announcement and the boot file CLAUDE.md imports, whole.
func TestClaudeCodeEndToEnd(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs the real Claude Code client")
	}
	claude := claudeCode(t)
	bin := wakeBinary(t)
	for _, mode := range []string{"full", "skill"} {
		t.Run(mode, func(t *testing.T) { claudeSession(t, claude, bin, mode) })
	}
}

// e2eMarker is in the session summary only: it can reach the model only
// through the imported boot file.
const e2eMarker = "e2e-marker-7f3a2c"

func claudeSession(t *testing.T, claude, bin, mode string) {
	stub := newModelStub(t)
	proj, env, imported := claudeProject(t, bin, mode, stub.URL)
	wake := func(args ...string) string {
		t.Helper()
		return runBounded(t, proj, env, 60*time.Second, bin, args...)
	}
	// The control: before install, nothing of wake reaches the model.
	runBounded(t, proj, env, 120*time.Second, claude, "-p", "hello")
	if texts := stub.take(); strings.Contains(strings.Join(texts, "\n"), e2eMarker) {
		t.Fatal("the memory reached the model before wake install claude")
	}
	// The user's own settings and CLAUDE.md, which uninstall must give
	// back byte for byte.
	userFiles := map[string]string{
		".claude/settings.json": "{\n  \"permissions\": {\"allow\": [\"Bash(ls:*)\"]},\n  \"hooks\": {\"Stop\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"true\"}]}]}\n}\n",
		"CLAUDE.md":             "# tallybook\n\nRun the tests with `go test ./...`.\n",
	}
	for name, data := range userFiles {
		os.MkdirAll(filepath.Dir(filepath.Join(proj, name)), 0o755)
		if err := os.WriteFile(filepath.Join(proj, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	before := projectFiles(t, proj)
	wake("install", "claude")
	var packet struct {
		Announcement string `json:"announcement"`
	}
	if err := json.Unmarshal([]byte(wake("load", "--format", "json")), &packet); err != nil || !strings.HasPrefix(packet.Announcement, "Resumed.") {
		t.Fatalf("announcement %q (%v): the hand-off should leave every check passing", packet.Announcement, err)
	}
	if mode == "full" {
		// A decision after the last regeneration: the import reads the
		// copy without it, and the hook must add what changed, once.
		wake("decide", "Keep the books in SQLite", "--because", "one file is easy to back up")
	}
	out := runBounded(t, proj, env, 120*time.Second, claude, "-p", "hello")
	if !strings.Contains(out, "stub reply") {
		t.Fatalf("claude -p printed %q, not the stub's reply", out)
	}
	requests := stub.takeRequests()
	var texts []string
	for _, r := range requests {
		texts = append(texts, r...)
	}
	text := strings.Join(texts, "\n")
	if mode == "full" {
		assertEachSectionOnce(t, requests, filepath.Join(proj, ".wake", "boot.md"))
		// Each fact of the memory once in the first request: boot.md
		// through the import, then what the hook adds.
		first := strings.Join(requests[0], "\n")
		assertEachFactOnce(t, "the first request", first, readFile(t, filepath.Join(proj, ".wake", "boot.md")))
		if t.Failed() {
			for _, c := range repeatedClauses(first, readFile(t, filepath.Join(proj, ".wake", "boot.md"))) {
				for i := strings.Index(first, c); i >= 0; {
					t.Logf("%q at: %q", c, first[max(0, i-200):min(len(first), i+len(c)+50)])
					j := strings.Index(first[i+1:], c)
					if j < 0 {
						break
					}
					i += 1 + j
				}
			}
		}
		if !strings.Contains(text, "boot.md changed after CLAUDE.md imported it") || !strings.Contains(text, "Keep the books in SQLite") {
			t.Error("the hook did not add the decision made since the import's copy")
		}
	}
	for _, want := range []string{"SessionStart:startup hook success: # wake: memory loaded", packet.Announcement} {
		if !strings.Contains(text, want) {
			t.Errorf("the model request lacks %q", want)
		}
	}
	imports := false
	for _, s := range texts {
		i := strings.Index(s, "Contents of "+imported)
		imports = imports || i >= 0 && strings.Contains(s[i:], e2eMarker)
	}
	if !imports {
		t.Errorf("the model request lacks %s with %q", imported, e2eMarker)
	}
	if strings.Contains(text, "Output too large") || strings.Contains(text, "<persisted-output>") {
		t.Error("Claude Code replaced the hook's output with a preview")
	}
	assertStaysInTempDir(t, proj)
	wake("uninstall", "claude")
	after := projectFiles(t, proj)
	for name, data := range before {
		if got := after[name]; !bytes.Equal(got, data) {
			t.Errorf("%s differs after uninstall:\n%s\nwant\n%s", name, got, data)
		}
	}
	for name := range after {
		if _, ok := before[name]; !ok {
			t.Errorf("%s is new after uninstall", name)
		}
	}
	if t.Failed() {
		t.Logf("request text:\n%.6000s", text)
	}
}

// claudeProject makes a project with a memory root after one hand-off, and
// the environment Claude Code runs in: HOME, TMPDIR and the XDG directories
// in the test's directory (Claude Code keeps per-project state in
// $TMPDIR/claude-<uid>), the model API on loopback, nothing non-essential.
// It returns the file CLAUDE.md will import in this boot mode.
func claudeProject(t *testing.T, bin, mode, api string) (proj string, env []string, imported string) {
	t.Helper()
	work := t.TempDir()
	home, tmp := filepath.Join(work, "home"), filepath.Join(work, "tmp")
	proj = filepath.Join(work, "proj")
	for _, d := range []string{home, tmp, proj} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	env = []string{
		"HOME=" + home, "TMPDIR=" + tmp, "XDG_CONFIG_HOME=" + filepath.Join(home, ".config"),
		"XDG_CACHE_HOME=" + filepath.Join(home, ".cache"), "XDG_DATA_HOME=" + filepath.Join(home, ".local", "share"),
		"XDG_STATE_HOME=" + filepath.Join(home, ".local", "state"),
		"PATH=" + filepath.Dir(bin) + string(os.PathListSeparator) + "/usr/bin:/bin",
		"ANTHROPIC_BASE_URL=" + api, "ANTHROPIC_API_KEY=test",
		"DISABLE_TELEMETRY=1", "DISABLE_ERROR_REPORTING=1", "DISABLE_AUTOUPDATER=1",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "NO_COLOR=1", "TERM=dumb",
	}
	runBounded(t, proj, env, 60*time.Second, bin, "init", "--agent", "Ava")
	fillPurpose(t, filepath.Join(proj, ".wake", "main.md"))
	imported = filepath.Join(proj, ".wake", "boot.md")
	if mode == "skill" {
		toml := "agent = \"Ava\"\n[claude]\nboot = \"skill\"\n"
		if err := os.WriteFile(filepath.Join(proj, ".wake", "wake.toml"), []byte(toml), 0o644); err != nil {
			t.Fatal(err)
		}
		// Trusted again, as its user would, the root also writes the
		// shared skill.md; the project imports its own copy.
		runBounded(t, proj, env, 60*time.Second, bin, "trust")
		imported = filepath.Join(proj, ".wake", "skill.md")
	}
	runBounded(t, proj, env, 60*time.Second, bin, "handoff", "--summary", "Wired wake into Claude Code",
		"--next", "Ship the end-to-end test", "--happened", "proved the import with "+e2eMarker)
	return proj, env, imported
}

// assertStaysInTempDir checks that Claude Code kept its per-project state
// in the test's TMPDIR, not in the system's temp directory, where it would
// outlive the test.
func assertStaysInTempDir(t *testing.T, proj string) {
	t.Helper()
	work := filepath.Dir(proj)
	sub := fmt.Sprintf("claude-%d", os.Getuid())
	if _, err := os.Stat(filepath.Join(work, "tmp", sub)); err != nil {
		t.Errorf("Claude Code did not use the test's TMPDIR: %v", err)
	}
	// The test's own temp directory has a unique name; Claude Code names
	// its state directory after the project's path.
	// The system's, not the one in memory the tests' temporary
	// directories are made in (package testmain).
	unique := filepath.Base(filepath.Dir(work))
	system := testmain.SystemTempDir()
	entries, _ := os.ReadDir(filepath.Join(system, sub))
	for _, e := range entries {
		if strings.Contains(e.Name(), unique) {
			t.Errorf("Claude Code wrote %s outside the test's directory", filepath.Join(system, sub, e.Name()))
		}
	}
}

// claudeCode returns the claude program of claudeCodeVersion (see
// [npmClient.path]).
func claudeCode(t *testing.T) string {
	return npmClient{test: "TestClaudeCodeEndToEnd", pkg: "@anthropic-ai/claude-code", version: claudeCodeVersion,
		bin: "claude", env: "WAKE_CLAUDE_DIR", cache: "wake-claude-code-"}.path(t)
}

// runBounded runs a command in dir with env and a time limit, failing the
// test on error; it returns stdout.
func runBounded(t *testing.T, dir string, env []string, limit time.Duration, name string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir, cmd.Env = dir, env
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s %s: %v\nstdout:\n%s\nstderr:\n%s", filepath.Base(name), strings.Join(args, " "), err, out, stderr.String())
	}
	return string(out)
}

// fillPurpose writes a Purpose into the skeleton main.md, so that the
// identity check passes.
func fillPurpose(t *testing.T, name string) {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	s := strings.Replace(string(data), "## Purpose\n", "## Purpose\ntallybook keeps the books of a three-person bakery.\n", 1)
	if err := os.WriteFile(name, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

// modelStub answers the Anthropic Messages API on loopback with one short
// streamed reply and records every request body.
type modelStub struct {
	*httptest.Server
	mu     sync.Mutex
	bodies [][]byte
}

func newModelStub(t *testing.T) *modelStub {
	s := &modelStub{}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

func (s *modelStub) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	s.mu.Lock()
	s.bodies = append(s.bodies, body)
	s.mu.Unlock()
	if r.Method != http.MethodPost || r.URL.Path != "/v1/messages" {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, "{}")
		return
	}
	streamReply(w, "msg_stub", textBlock, textDelta("stub reply"), "end_turn")
}

// The content blocks of a stub's reply: text, and the delta that fills it.
const textBlock = `{"type":"text","text":""}`

func textDelta(text string) string { return fmt.Sprintf(`{"type":"text_delta","text":%q}`, text) }

// toolUse is the content block of a call of the tool name, and the delta
// that gives its input.
func toolUse(id, name string, input []byte) (block, delta string) {
	return `{"type":"tool_use","id":"` + id + `","name":"` + name + `","input":{}}`,
		fmt.Sprintf(`{"type":"input_json_delta","partial_json":%q}`, input)
}

// streamReply answers a Messages API request with one content block,
// streamed as the API does, ending the turn with stop ("end_turn",
// "tool_use").
func streamReply(w http.ResponseWriter, id, block, delta, stop string) {
	w.Header().Set("Content-Type", "text/event-stream")
	for _, ev := range [][2]string{
		{"message_start", `{"type":"message_start","message":{"id":"` + id + `","type":"message","role":"assistant","model":"claude-stub","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":1,"output_tokens":1}}}`},
		{"content_block_start", `{"type":"content_block_start","index":0,"content_block":` + block + `}`},
		{"content_block_delta", `{"type":"content_block_delta","index":0,"delta":` + delta + `}`},
		{"content_block_stop", `{"type":"content_block_stop","index":0}`},
		{"message_delta", fmt.Sprintf(`{"type":"message_delta","delta":{"stop_reason":%q,"stop_sequence":null},"usage":{"output_tokens":2}}`, stop)},
		{"message_stop", `{"type":"message_stop"}`},
	} {
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", ev[0], ev[1])
	}
}

// take returns every string in the request bodies received since the last
// take, decoded from JSON: what the model would read, escapes undone.
func (s *modelStub) take() []string {
	var out []string
	for _, r := range s.takeRequests() {
		out = append(out, r...)
	}
	return out
}

// takeRequests is take, a request at a time.
func (s *modelStub) takeRequests() [][]string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var reqs [][]string
	for _, body := range s.bodies {
		if strs, ok := jsonStrings(body); ok {
			reqs = append(reqs, strs)
		}
	}
	s.bodies = nil
	return reqs
}

// jsonStrings returns every string in a JSON document, decoded: what a
// model would read of a request, escapes undone. ok is false for a body
// that is not JSON.
func jsonStrings(body []byte) (out []string, ok bool) {
	var v any
	if json.Unmarshal(body, &v) != nil {
		return nil, false
	}
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case string:
			out = append(out, x)
		case []any:
			for _, e := range x {
				walk(e)
			}
		case map[string]any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(v)
	return out, true
}

// htmlComment is a Markdown comment, which Claude Code leaves out of an
// imported file.
var htmlComment = regexp.MustCompile(`(?s)<!--.*?-->`)

// squeeze takes the comments out of s and every blank line, so that text
// compares as the model reads it.
func squeeze(s string) string {
	var out []string
	for _, l := range strings.Split(htmlComment.ReplaceAllString(s, ""), "\n") {
		if strings.TrimSpace(l) != "" {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n") + "\n"
}

// assertEachSectionOnce checks that the request carrying the hook's output
// holds each part of the boot context exactly once: the copy the import
// read and the hook's text never say the same thing twice, and nothing is
// missing. The parts are boot.md cut before each heading line.
func assertEachSectionOnce(t *testing.T, requests [][]string, bootPath string) {
	t.Helper()
	data, err := os.ReadFile(bootPath)
	if err != nil {
		t.Fatal(err)
	}
	var req string
	for _, r := range requests {
		if j := strings.Join(r, "\n"); strings.Contains(j, "hook success: # wake: memory loaded") {
			req = j
			break
		}
	}
	if req == "" {
		t.Fatal("no request carries the hook's output")
	}
	_, body, _ := strings.Cut(string(data), "\n---\n") // past the front matter
	var parts []string
	start := 0
	for i := 0; i < len(body); i++ {
		if body[i] == '#' && (i == 0 || body[i-1] == '\n') && i > start {
			parts = append(parts, body[start:i])
			start = i
		}
	}
	parts = append(parts, body[start:])
	req = squeeze(req)
	for _, p := range parts {
		if strings.HasPrefix(p, "## Budget\n") {
			continue // the counts: in boot.md, not the hook's to repeat
		}
		if sq := squeeze(p); strings.TrimSpace(sq) == "" || strings.Count(req, sq) == 1 {
			continue
		}
		// The hook sends of a changed section its heading and what the
		// imported copy lacks: every item of it must have arrived (that
		// none arrived twice, assertEachFactOnce checks).
		// (Claude Code leaves HTML comments out of an import.)
		for _, item := range strings.Split(htmlComment.ReplaceAllString(p, ""), "\n") {
			if item = squeeze(item); strings.TrimSpace(item) != "" && !strings.Contains(req, item) {
				t.Errorf("the model did not receive this line of boot.md: %.200q", item)
			}
		}
	}
}

// logHooks puts a wrapper named wake first on env's PATH that records
// each run of bin (its arguments, stderr and exit status) in the file it
// returns, passing stdin, stdout, stderr and the status through: for a
// failing test to say whether the client ran wake's hooks and what they
// said.
func logHooks(t *testing.T, env []string, bin string) ([]string, string) {
	t.Helper()
	dir := t.TempDir()
	log := filepath.Join(dir, "hooks.log")
	script := fmt.Sprintf("#!/bin/sh\necho \"== $(date +%%T.%%N) wake $*\" >>%[1]q\nerr=$(mktemp)\n%[2]q \"$@\" 2>\"$err\"\nrc=$?\ncat \"$err\" >>%[1]q\ncat \"$err\" >&2\nrm -f \"$err\"\necho \"== exit $rc\" >>%[1]q\nexit $rc\n", log, bin)
	if err := os.WriteFile(filepath.Join(dir, "wake"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	out := make([]string, len(env))
	for i, e := range env {
		if p, ok := strings.CutPrefix(e, "PATH="); ok {
			e = "PATH=" + dir + string(os.PathListSeparator) + p
		}
		out[i] = e
	}
	return out, log
}

// dumpHooks logs what logHooks recorded, when the test failed.
func dumpHooks(t *testing.T, log string) {
	t.Helper()
	if !t.Failed() {
		return
	}
	data, err := os.ReadFile(log)
	t.Logf("wake's runs under the client (%v):\n%.6000s", err, data)
}
