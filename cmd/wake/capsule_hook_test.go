package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/budget"
	"github.com/wakeproto/wake/store"
)

// capsuleHook runs `wake capsule --hook CLIENT` in dir with input on
// stdin; it returns stdout, stderr, and whether the run built an encoder.
func capsuleHook(t *testing.T, dir, client, input string) (string, string, bool) {
	t.Helper()
	a, out, errOut := newTestApp(t, dir)
	a.in = strings.NewReader(input)
	var encoders []*budget.Encoder
	a.newEncoder = func(name string) (*budget.Encoder, error) {
		e, err := budget.NewEncoder(name)
		encoders = append(encoders, e)
		return e, err
	}
	if code := a.run([]string{"capsule", "--hook", client}); code != 0 {
		t.Fatalf("capsule --hook %s: exit %d: %s", client, code, errOut)
	}
	built := false
	for _, e := range encoders {
		built = built || e.Built()
	}
	return out.String(), errOut.String(), built
}

// hookContext decodes the hook's JSON and returns its additionalContext.
func hookContext(t *testing.T, out string) string {
	t.Helper()
	var o struct {
		HookSpecificOutput map[string]string `json:"hookSpecificOutput"`
	}
	dec := json.NewDecoder(strings.NewReader(out))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&o); err != nil {
		t.Fatalf("the hook's output is not the JSON the clients read (%v):\n%s", err, out)
	}
	h := o.HookSpecificOutput
	if h["hookEventName"] != "SubagentStart" || len(h) != 2 {
		t.Fatalf("hookSpecificOutput %v", h)
	}
	return h["additionalContext"]
}

func subagentInput(dir, client, typ string) string {
	in := map[string]any{"session_id": "sess-" + client, "cwd": dir, "hook_event_name": "SubagentStart",
		"agent_id": "agent-" + typ, "agent_type": typ, "transcript_path": nil}
	if client == "codex" {
		// Codex's input (subagent-start.command.input of Codex 0.169.0).
		in["model"], in["permission_mode"], in["turn_id"] = "gpt-5", "default", "turn-1"
	}
	data, _ := json.Marshal(in)
	return string(data)
}

// TestCapsuleHook: the hook reads each client's JSON, prints the capsule
// as hookSpecificOutput.additionalContext within 4 KiB, records the
// injection in subagents.jsonl and the ledger, and reuses the capsule for
// the next subagent without building the tokenizer.
func TestCapsuleHook(t *testing.T) {
	t.Parallel()
	dir := memoryWithSessions(t)
	out, errOut, _ := capsuleHook(t, dir, "claude", subagentInput(dir, "claude", "general-purpose"))
	text := hookContext(t, out)
	if !strings.HasPrefix(text, "## Context Capsule\n") || !strings.Contains(text, "### Mission Snapshot") ||
		!strings.Contains(text, "Treat this capsule as authoritative") || len(text) > 4096 || errOut != "" {
		t.Fatalf("%d bytes, stderr %q:\n%s", len(text), errOut, text)
	}
	root := filepath.Join(dir, ".wake")
	out2, _, built := capsuleHook(t, dir, "codex", subagentInput(dir, "codex", "worker"))
	if built {
		t.Error("reusing the newest capsule built the tokenizer")
	}
	if got := hookContext(t, out2); got != text {
		t.Errorf("the second subagent got another context:\n%s", got)
	}
	rs, bad, err := readRegistry(root)
	if err != nil || len(bad) > 0 || len(rs) != 2 {
		t.Fatalf("registry %+v %v %v", rs, bad, err)
	}
	for i, want := range []struct{ client, typ string }{{"claude", "general-purpose"}, {"codex", "worker"}} {
		r := rs[i]
		if r.Client != want.client || r.AgentType != want.typ || r.AgentID != "agent-"+want.typ || r.Session != "sess-"+want.client ||
			r.Bytes != len(text) || r.Capsule != rs[0].Capsule || !strings.HasPrefix(r.Capsule, "no-branch/") {
			t.Errorf("record %d: %+v", i, r)
		}
	}
	if _, err := os.Stat(filepath.Join(root, "cold", "capsules", rs[0].Capsule+".md")); err != nil {
		t.Errorf("the capsule given is not stored: %v", err)
	}
	a, logOut, _ := newTestApp(t, dir)
	if code := a.run([]string{"log", "--op", "subagent"}); code != 0 || strings.Count(logOut.String(), "given to subagent") != 2 ||
		!strings.Contains(logOut.String(), "capsule "+rs[0].Capsule+" given to subagent worker (agent agent-worker, codex)") {
		t.Errorf("wake log --op subagent:\n%s", logOut)
	}
}

// TestCapsuleHookNone: an agent type [capsule.agents] gives 0 bytes gets
// nothing, as does a session with no memory root; neither is recorded.
func TestCapsuleHookNone(t *testing.T) {
	t.Parallel()
	dir := memoryWithSessions(t)
	cfg := filepath.Join(dir, ".wake", "wake.toml")
	data, err := os.ReadFile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cfg, append(data, "\n[capsule.agents]\nExplore = 0\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, errOut, _ := capsuleHook(t, dir, "claude", subagentInput(dir, "claude", "Explore")); out != "" || errOut != "" {
		t.Fatalf("Explore got %q (stderr %q)", out, errOut)
	}
	if _, err := os.Stat(filepath.Join(dir, ".wake", "subagents.jsonl")); !os.IsNotExist(err) {
		t.Errorf("an agent given nothing was recorded: %v", err)
	}
	bare := t.TempDir()
	if out, errOut, _ := capsuleHook(t, bare, "codex", subagentInput(bare, "codex", "worker")); out != "" || errOut != "" {
		t.Fatalf("no memory root: %q (stderr %q)", out, errOut)
	}
}

// TestCapsuleHookFails: when the injection cannot be recorded the
// subagent still starts, told that it has no capsule and why; the user
// gets the error on stderr; the exit status is 0.
func TestCapsuleHookFails(t *testing.T) {
	t.Parallel()
	dir := memoryWithSessions(t)
	if err := os.Mkdir(filepath.Join(dir, ".wake", "subagents.jsonl"), 0o755); err != nil {
		t.Fatal(err)
	}
	out, errOut, _ := capsuleHook(t, dir, "claude", subagentInput(dir, "claude", "general-purpose"))
	text := hookContext(t, out)
	if !strings.HasPrefix(text, "wake could not give this subagent its context capsule: ") || !strings.Contains(text, "subagents.jsonl") ||
		!strings.Contains(text, filepath.Join(dir, ".wake")) {
		t.Errorf("context: %s", text)
	}
	if !strings.Contains(errOut, "wake: error: ") || !strings.Contains(errOut, "subagents.jsonl") {
		t.Errorf("stderr: %s", errOut)
	}
	// --hook with a flag of the capsule's own is a mistake of the user's.
	a, _, usage := newTestApp(t, dir)
	if code := a.run([]string{"capsule", "--hook", "claude", "--dry-run"}); code != exitUsage || !strings.Contains(usage.String(), "--dry-run does not apply") {
		t.Errorf("--hook --dry-run: exit %d: %s", code, usage)
	}
	// A client wake does not know is named, and the hook still exits 0.
	if out, errOut, _ := capsuleHook(t, dir, "opencode", "{}"); out != "" || !strings.Contains(errOut, `--hook "opencode": want claude or codex`) {
		t.Errorf("--hook opencode: %q, stderr %q", out, errOut)
	}
}

func readRegistry(root string) ([]store.SubagentRecord, []store.BadLine, error) {
	return store.ReadSubagents(afero.NewOsFs(), root)
}

// TestCapsuleHookTogether: subagents that start together, after the
// memory changed, take turns: the first builds the capsule and every one
// of them gets it; no second capsule is built.
func TestCapsuleHookTogether(t *testing.T) {
	t.Parallel()
	dir := memoryWithSessions(t)
	const n = 4
	outs := make([]string, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			a, out, errOut := newTestApp(t, dir)
			a.in = strings.NewReader(subagentInput(dir, "claude", fmt.Sprintf("type%d", i)))
			if code := a.run([]string{"capsule", "--hook", "claude"}); code != 0 || errOut.Len() > 0 {
				t.Errorf("hook %d: exit %d: %s", i, code, errOut)
			}
			outs[i] = out.String()
		}()
	}
	wg.Wait()
	capsules, err := filepath.Glob(filepath.Join(dir, ".wake", "cold", "capsules", "*", "*.md"))
	if err != nil || len(capsules) != 1 {
		t.Fatalf("%d capsules built: %v", len(capsules), capsules)
	}
	rs, _, err := readRegistry(filepath.Join(dir, ".wake"))
	if err != nil || len(rs) != n {
		t.Fatalf("registry %+v: %v", rs, err)
	}
	for i, r := range rs {
		if r.Capsule != rs[0].Capsule || hookContext(t, outs[i]) != hookContext(t, outs[0]) {
			t.Errorf("subagent %d got capsule %s, the first %s", i, r.Capsule, rs[0].Capsule)
		}
	}
}
