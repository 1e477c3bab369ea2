package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// openCodeVersion is the OpenCode release the end-to-end test runs.
var openCodeVersion = clientRelease("opencode")

// TestOpenCodeEndToEnd runs the real OpenCode (npm opencode-ai) against a
// stub of an OpenAI-compatible chat completions API on loopback: a control
// session before install, then wake install opencode and a session whose
// first reply writes a file, then wake uninstall opencode. The model must
// get the boot context once (each section once) after install and
// nothing of wake's before; the session, which ends without a hand-off,
// must leave the automatic one; uninstall must give back every file of
// the project as it was.
func TestOpenCodeEndToEnd(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs the real OpenCode client")
	}
	opencode := openCode(t)
	bin := wakeBinary(t)
	stub := newChatStub(t)
	proj, env := openCodeProject(t, bin, stub.URL)
	stub.boot = filepath.Join(proj, ".wake", "boot.md")
	wake := func(args ...string) string {
		t.Helper()
		return runBounded(t, proj, env, 60*time.Second, bin, args...)
	}
	run := func(prompt string) string {
		t.Helper()
		return runBounded(t, proj, env, 180*time.Second, opencode, "run", prompt)
	}

	// The control: before install, nothing of wake reaches the model.
	if out := run("hello"); !strings.Contains(out, "stub reply") {
		t.Fatalf("opencode run printed %q, not the stub's reply", out)
	}
	for _, r := range stub.take() {
		if strings.Contains(string(r.body), e2eMarker) || strings.Contains(string(r.body), "Resumed.") {
			t.Fatal("the memory reached the model before wake install opencode")
		}
	}
	// OpenCode writes its own files at its first run (the config's
	// $schema when missing, .opencode/.gitignore); the project as it is
	// now is what uninstall must give back.
	before := projectFiles(t, proj)

	wake("install", "opencode")
	var packet struct {
		Announcement string `json:"announcement"`
	}
	if err := json.Unmarshal([]byte(wake("load", "--format", "json")), &packet); err != nil || !strings.HasPrefix(packet.Announcement, "Resumed.") {
		t.Fatalf("announcement %q (%v): the hand-off should leave every check passing", packet.Announcement, err)
	}
	latest := readFile(t, filepath.Join(proj, ".wake", "recent", "latest.md"))
	// An edit after install: only a boot.md the plugin regenerated at
	// start, before OpenCode read it, carries it.
	questions := filepath.Join(proj, ".wake", "warm", "open_questions.md")
	if err := os.WriteFile(questions, []byte(readFile(t, questions)+"\n- Should the greeting rhyme? "+freshMarker+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}

	stub.writeFile(filepath.Join(proj, "greeting.txt"), "hello from the stub\n")
	// Then a decision, through the shell: wake writes the ledger and the
	// decision log, which OpenCode's snapshot of the step lists.
	stub.then = "wake decide 'Greet in English' --because 'the customers read it'"
	if out := run("add a greeting file"); !strings.Contains(out, "stub reply") {
		t.Fatalf("opencode run printed %q, not the stub's reply", out)
	}
	if got := readFile(t, filepath.Join(proj, "greeting.txt")); got != "hello from the stub\n" {
		t.Fatalf("the stub's tool call did not write the file: %q", got)
	}
	agent := stub.agentRequests()
	if len(agent) == 0 {
		t.Fatal("no request of the working agent reached the stub")
	}
	for i, r := range agent {
		assertBootOnce(t, fmt.Sprintf("request %d", i+1), r.system, r.boot, packet.Announcement, stub.boot)
	}
	assertAutomaticHandoff(t, bin, proj, env, latest)
	if stray := stub.strays(); len(stray) > 0 {
		t.Errorf("OpenCode reached for the network: %q", stray)
	}

	// Started in a subdirectory, OpenCode finds the project's plugin and
	// instructions all the same (from the git work tree's top): the
	// memory once in every request, and the automatic hand-off at the end.
	sub := filepath.Join(proj, "src", "till")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	latest = readFile(t, filepath.Join(proj, ".wake", "recent", "latest.md"))
	if err := json.Unmarshal([]byte(wake("load", "--format", "json")), &packet); err != nil {
		t.Fatal(err)
	}
	stub.writeFile(filepath.Join(sub, "till.txt"), "till roll\n")
	if out := runBounded(t, sub, env, 180*time.Second, opencode, "run", "add a till file"); !strings.Contains(out, "stub reply") {
		t.Fatalf("opencode run in src/till printed %q, not the stub's reply", out)
	}
	subAgent := stub.agentRequests()
	if len(subAgent) == 0 {
		t.Fatal("no request of the session in src/till reached the stub")
	}
	for i, r := range subAgent {
		assertBootOnce(t, fmt.Sprintf("src/till request %d", i+1), r.system, r.boot, packet.Announcement, stub.boot)
	}
	if now := readFile(t, filepath.Join(proj, ".wake", "recent", "latest.md")); now == latest || !strings.Contains(now, "add a till file") || !strings.Contains(now, "src/till/till.txt") {
		t.Errorf("the session in src/till left no automatic hand-off of its work:\n%s", now)
	}

	wake("uninstall", "opencode")
	after := projectFiles(t, proj)
	for name, data := range before {
		if got, ok := after[name]; !ok || !bytes.Equal(got, data) {
			t.Errorf("%s differs after uninstall:\n%s\nwant\n%s", name, got, data)
		}
	}
	for name := range after {
		// The session's own work, and what OpenCode keeps in .opencode/.
		if _, ok := before[name]; !ok && name != "greeting.txt" && name != "src/till/till.txt" && !strings.HasPrefix(name, ".opencode/") {
			t.Errorf("%s is new after uninstall", name)
		}
	}
	if _, err := os.Stat(filepath.Join(proj, ".opencode", "plugins")); err == nil {
		t.Error(".opencode/plugins/ is left after uninstall")
	}
	if t.Failed() && len(agent) > 0 {
		t.Logf("the agent's first system prompt:\n%.8000s", agent[0].system)
	}
}

// freshMarker is written into the memory after install: it reaches the
// model only through the boot.md the plugin regenerates at start.
const freshMarker = "fresh-marker-9b1e"

// assertBootOnce checks that one request's system prompt carries boot.md
// (boot, as it was when the request came) through opencode.json's
// instructions, and every part of the boot context exactly once: the
// announcement, the markers, and each of boot.md's sections.
func assertBootOnce(t *testing.T, which, system, boot, announcement, bootPath string) {
	t.Helper()
	if !strings.Contains(system, "Instructions from: "+bootPath) {
		t.Errorf("%s: the system prompt does not carry %s", which, bootPath)
	}
	// Each part as many times as boot.md holds it: a heading every
	// session summary has ("## What happened") once for each.
	want := map[string]int{announcement: 1, e2eMarker: 1, freshMarker: 1}
	for _, l := range strings.Split(boot, "\n") {
		if strings.HasPrefix(l, "## ") {
			want[l] = strings.Count(boot, l+"\n")
		}
	}
	for p, w := range want {
		if n := strings.Count(system, p); n != w {
			t.Errorf("%s: %q is in the system prompt %d times, want %d", which, p, n, w)
		}
	}
	assertEachFactOnce(t, which, system, boot)
}

// assertAutomaticHandoff checks that the session, which wrote a file and
// ended without a hand-off, left the automatic one. wake handoff --auto
// is being built beside this test; until this wake has it, the plugin's
// call fails (and says so on stderr), and the check is skipped.
func assertAutomaticHandoff(t *testing.T, bin, proj string, env []string, latestBefore string) {
	t.Helper()
	help := runBounded(t, proj, env, 30*time.Second, bin, "handoff", "--help")
	if !strings.Contains(help, "--auto") {
		t.Log("this wake has no 'wake handoff --auto' yet: the automatic hand-off is not checked")
		return
	}
	latest := readFile(t, filepath.Join(proj, ".wake", "recent", "latest.md"))
	if latest == latestBefore {
		t.Fatal("recent/latest.md did not change: no automatic hand-off was written")
	}
	// The decision's files are wake's own, not the agent's edits.
	for _, want := range []string{"add a greeting file", "the agent''s tools edited 1 file (greeting.txt), ran 1 command, recorded 1 decision",
		"- The agent's tools edited: greeting.txt (write)\n"} {
		if !strings.Contains(latest, want) {
			t.Errorf("the automatic hand-off lacks %q:\n%s", want, latest)
		}
	}
	if strings.Contains(latest, "ledger.jsonl") || strings.Contains(latest, "decisions.md") {
		t.Errorf("the automatic hand-off counts wake's own files as the agent's edits:\n%s", latest)
	}
	if matches, _ := filepath.Glob(filepath.Join(proj, ".wake", ".state", "opencode-*.jsonl")); len(matches) > 0 {
		t.Errorf("the plugin left its transcript after the hand-off: %q", matches)
	}
}

// openCodeProject makes a project (a git repository) with a memory root
// after one hand-off and an opencode.json naming the stub as its model
// provider (with a comment and a trailing comma, which OpenCode accepts),
// and the environment OpenCode runs in: HOME, TMPDIR and the XDG
// directories in the test's directory, wake first on PATH, nothing that
// reaches for the network (models.dev, updates, sharing, LSP downloads,
// the built-in auth plugins), and the npm registry and any HTTP proxying
// pointed at the stub, which answers 404 and counts what was not the
// model API.
func openCodeProject(t *testing.T, bin, api string) (proj string, env []string) {
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
		"OPENCODE_DISABLE_MODELS_FETCH=1", "OPENCODE_DISABLE_AUTOUPDATE=1", "OPENCODE_DISABLE_SHARE=1",
		"OPENCODE_DISABLE_LSP_DOWNLOAD=1", "OPENCODE_DISABLE_DEFAULT_PLUGINS=1", "OPENCODE_DISABLE_CLAUDE_CODE=1",
		"npm_config_registry=" + api + "/npm/",
		"HTTP_PROXY=" + api, "HTTPS_PROXY=" + api, "http_proxy=" + api, "https_proxy=" + api,
		"NO_PROXY=127.0.0.1,localhost", "no_proxy=127.0.0.1,localhost",
		"NO_COLOR=1", "TERM=dumb",
	}
	runBounded(t, proj, env, 30*time.Second, "git", "init", "-q")
	config := `{
  "$schema": "https://opencode.ai/config.json",
  // the model: a stub on loopback
  "provider": {
    "stub": {
      "npm": "@ai-sdk/openai-compatible",
      "name": "Stub",
      "options": {"baseURL": "` + api + `/v1", "apiKey": "test"},
      "models": {"stub-model": {"name": "Stub"}}
    }
  },
  "model": "stub/stub-model",
  "small_model": "stub/stub-model",
}
`
	if err := os.WriteFile(filepath.Join(proj, "opencode.json"), []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	runBounded(t, proj, env, 60*time.Second, bin, "init", "--agent", "Ava")
	fillPurpose(t, filepath.Join(proj, ".wake", "main.md"))
	runBounded(t, proj, env, 60*time.Second, bin, "handoff", "--summary", "Wired wake into OpenCode",
		"--next", "Ship the end-to-end test", "--happened", "proved the instructions with "+e2eMarker)
	return proj, env
}

// projectFiles reads every file of the project but git's and the memory
// root's, by path relative to it.
func projectFiles(t *testing.T, proj string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := filepath.WalkDir(proj, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(proj, path)
		if d.IsDir() && (rel == ".git" || rel == ".wake") {
			return filepath.SkipDir
		}
		if d.Type().IsRegular() {
			data, err := os.ReadFile(path)
			files[filepath.ToSlash(rel)] = data
			return err
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// openCode returns the opencode program of openCodeVersion (see
// [npmClient.path]).
func openCode(t *testing.T) string {
	return npmClient{test: "TestOpenCodeEndToEnd", pkg: "opencode-ai", version: openCodeVersion,
		bin: "opencode", env: "WAKE_OPENCODE_DIR", cache: "wake-opencode-"}.path(t)
}

// chatStub answers the OpenAI chat completions API on loopback with short
// streamed replies and records every request. The first request of the
// working agent (one that offers tools) can be answered with a call of
// OpenCode's write tool. Anything else (the npm registry, a request sent
// through it as a proxy) gets 404 and is counted as a stray unless it is
// the registry's. It keeps a copy of boot.md as it is when each request
// comes: a hand-off at the session's end rewrites it.
type chatStub struct {
	*httptest.Server
	boot             string // boot.md's path, set before the first request
	mu               sync.Mutex
	reqs             []stubRequest
	stray            []string
	writePath, write string // the file the first agent reply writes, "" for none
	// tool and args, when set, are the tool the first agent reply calls
	// instead: an MCP server's, say.
	tool string
	args map[string]string
	// then is a command the agent's reply to the write's result runs
	// with the bash tool, once; "" for none.
	then string
}

type stubRequest struct {
	body []byte
	// system is the request's system messages, joined; tools says it
	// offered tools, as the working agent's requests do.
	system string
	tools  bool
	boot   string // boot.md when the request came
}

func newChatStub(t *testing.T) *chatStub {
	s := &chatStub{}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

// callTool makes the next agent request answer with a call of the tool
// name with args.
func (s *chatStub) callTool(name string, args map[string]string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.tool, s.args = name, args
}

// writeFile makes the next agent request answer with a write tool call.
func (s *chatStub) writeFile(path, content string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.writePath, s.write = path, content
}

func (s *chatStub) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	if r.Method != http.MethodPost || r.URL.Path != "/v1/chat/completions" || r.URL.Host != "" {
		s.mu.Lock()
		if !strings.HasPrefix(r.URL.Path, "/npm/") || r.URL.Host != "" {
			s.stray = append(s.stray, r.Method+" "+r.RequestURI)
		}
		s.mu.Unlock()
		http.NotFound(w, r)
		return
	}
	var req struct {
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
		Tools []json.RawMessage `json:"tools"`
	}
	json.Unmarshal(body, &req)
	rec := stubRequest{body: body, tools: len(req.Tools) > 0}
	if data, err := os.ReadFile(s.boot); err == nil {
		rec.boot = string(data)
	}
	toolResult, results := false, 0
	for _, m := range req.Messages {
		var text string
		if json.Unmarshal(m.Content, &text) != nil {
			text = string(m.Content)
		}
		switch m.Role {
		case "system":
			rec.system += text + "\n"
		case "tool":
			toolResult = true
			results++
		}
	}
	s.mu.Lock()
	s.reqs = append(s.reqs, rec)
	path, content, then := s.writePath, s.write, ""
	tool, args := "write", map[string]string{"filePath": path, "content": content}
	if s.tool != "" {
		tool, args, path = s.tool, s.args, s.tool
	}
	if rec.tools && !toolResult && path != "" {
		s.writePath, s.tool = "", ""
	} else {
		path = ""
	}
	if rec.tools && results == 1 && s.then != "" {
		then, s.then = s.then, ""
	}
	s.mu.Unlock()
	w.Header().Set("Content-Type", "text/event-stream")
	chunk := func(delta any, finish any) {
		data, _ := json.Marshal(map[string]any{"id": "chatcmpl-stub", "object": "chat.completion.chunk", "created": 1, "model": "stub-model",
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}})
		fmt.Fprintf(w, "data: %s\n\n", data)
	}
	if path != "" {
		args, _ := json.Marshal(args)
		chunk(map[string]any{"role": "assistant", "tool_calls": []any{map[string]any{"index": 0, "id": "call_stub", "type": "function",
			"function": map[string]any{"name": tool, "arguments": string(args)}}}}, nil)
		chunk(map[string]any{}, "tool_calls")
	} else if then != "" {
		args, _ := json.Marshal(map[string]string{"command": then, "description": "Record the decision"})
		chunk(map[string]any{"role": "assistant", "tool_calls": []any{map[string]any{"index": 0, "id": "call_stub2", "type": "function",
			"function": map[string]any{"name": "bash", "arguments": string(args)}}}}, nil)
		chunk(map[string]any{}, "tool_calls")
	} else {
		chunk(map[string]any{"role": "assistant", "content": "stub reply"}, nil)
		chunk(map[string]any{}, "stop")
	}
	io.WriteString(w, "data: [DONE]\n\n")
}

// take returns the requests received since the last take.
func (s *chatStub) take() []stubRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := s.reqs
	s.reqs = nil
	return out
}

// agentRequests returns the working agent's requests since the last
// take.
func (s *chatStub) agentRequests() []stubRequest {
	var out []stubRequest
	for _, r := range s.take() {
		if r.tools {
			out = append(out, r)
		}
	}
	return out
}

func (s *chatStub) strays() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.stray)
}
