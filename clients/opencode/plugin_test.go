package opencode

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// harness drives the plugin as OpenCode does, in the order OpenCode
// 1.18.33 calls it (see cmd/wake/opencode_e2e_test.go for the real
// thing): load, a user prompt, the title request's and the agent's
// system prompts, tool calls, the parts of a reply, idle, exit. It
// prints what the plugin added to each system prompt, as JSON.
const harness = `
const { WakePlugin } = await import(process.argv[2]);
const { appendFileSync } = await import("node:fs");
const dir = process.argv[3];
// OpenCode's own command line: 'opencode run PROMPT', or the TUI.
process.argv = process.env.HARNESS_TUI ? [process.argv[0], "opencode"] : [process.argv[0], "opencode", "run", "add a greeting"];
const hooks = await WakePlugin({ directory: dir });
const sid = "ses_1";
const ev = (type, properties) => hooks.event({ event: { type, properties } });
await ev("session.created", { sessionID: sid, info: { id: sid, time: { created: Date.UTC(2026, 10, 22, 10) } } });
await hooks["chat.message"]({ sessionID: sid }, { message: {}, parts: [{ type: "text", text: "add a greeting" }, { type: "text", text: "synthetic", synthetic: true }, { type: "file" }] });
const title = { system: ["You are a title generator."] };
await hooks["experimental.chat.system.transform"]({ sessionID: sid }, title);
const agent = { system: ["You are opencode.\n<env>\n  Working directory: " + dir + "\n</env>"] };
await hooks["experimental.chat.system.transform"]({ sessionID: sid }, agent);
await ev("session.created", { sessionID: "ses_sub", info: { id: "ses_sub", parentID: sid } });
await hooks["tool.execute.after"]({ tool: "write", sessionID: sid, callID: "c1", args: { filePath: dir + "/hello.txt", content: "hi" } }, { title: "", output: "", metadata: {} });
await hooks["tool.execute.after"]({ tool: "bash", sessionID: "ses_sub", callID: "c2", args: { command: "wake decide 'use tabs' --because 'the team does'" } }, { title: "", output: "", metadata: {} });
await hooks["tool.execute.after"]({ tool: "bash", sessionID: sid, callID: "c2b", args: { command: "grep -n 'wake decide' README.md" } }, { title: "", output: "", metadata: {} });
await hooks["tool.execute.after"]({ tool: "bash", sessionID: sid, callID: "c2c", args: { command: "wake decide --help" } }, { title: "", output: "", metadata: {} });
await hooks["tool.execute.after"]({ tool: "apply_patch", sessionID: sid, callID: "c3", args: { patchText: "*** Begin Patch\n*** Update File: a.go\n@@\n-x\n+y\n*** Add File: b.go\n+z\n*** End Patch" } }, { title: "", output: "", metadata: {} });
await hooks["tool.execute.after"]({ tool: "read", sessionID: sid, callID: "c4", args: { filePath: dir + "/x" } }, { title: "", output: "", metadata: {} });
await hooks["tool.execute.after"]({ tool: "edit", sessionID: sid, callID: "c5", args: { filePath: dir + "/.wake/warm/active_tasks.md" } }, { title: "", output: "", metadata: {} });
await hooks["tool.execute.after"]({ tool: "apply_patch", sessionID: sid, callID: "c6", args: { patchText: "*** Begin Patch\n*** Update File: .wake/main.md\n@@\n-x\n+y\n*** End Patch" } }, { title: "", output: "", metadata: {} });
await hooks["tool.execute.after"]({ tool: "wake_wake_decide", sessionID: sid, callID: "c7", args: { what: "use tabs", because: "the team does" } }, { title: "", output: "", metadata: {} });
await hooks["tool.execute.after"]({ tool: "wake_wake_load", sessionID: sid, callID: "c8", args: {} }, { title: "", output: "", metadata: {} });
await ev("message.part.updated", { sessionID: sid, part: { type: "patch", sessionID: sid, files: [dir + "/hello.txt", dir + "/made-by-bash.txt", dir + "/.wake/.state/opencode-ses_1.jsonl", dir + "/.wake/boot.md", dir + "/.wake/warm/active_tasks.md", dir + "/.wake/ledger.jsonl", dir + "/.wake/warm/decisions.md"] } });
await ev("message.updated", { sessionID: sid, info: { id: "msg_u", role: "user" } });
await ev("message.part.updated", { sessionID: sid, part: { type: "text", sessionID: sid, messageID: "msg_u", text: "not a reply", time: { start: 1, end: 2 } } });
await ev("message.updated", { sessionID: sid, info: { id: "msg_a", role: "assistant" } });
await ev("message.part.updated", { sessionID: sid, part: { type: "text", sessionID: sid, messageID: "msg_a", text: "Done so", time: { start: 1 } } });
await ev("message.part.updated", { sessionID: sid, part: { type: "text", sessionID: sid, messageID: "msg_a", text: "Done.", time: { start: 1, end: 2 } } });
await ev("session.idle", { sessionID: "ses_sub" });
await ev("session.idle", { sessionID: sid });
await ev("session.idle", { sessionID: sid });
await ev("nonsense", undefined);
await hooks.event({});
await hooks["tool.execute.after"](undefined, undefined);
await hooks["experimental.chat.system.transform"]({}, {});
appendFileSync(process.env.FAKE_LOG, "-- exit\n");
await hooks.dispose();
console.log(JSON.stringify({ title: title.system.slice(1), agent: agent.system.slice(1) }));
`

// fakeWake is a wake that logs each call (its arguments, its directory
// and its stdin) and answers the OpenCode hook as $FAKE_HOOK says.
const fakeWake = `#!/bin/sh
{ printf '%s' "$*"; printf ' @%s ' "$PWD"; cat; echo; } >> "$FAKE_LOG"
case "$*" in
"load --hook opencode") [ "$FAKE_HOOK" = old ] && { echo "wake: error: --hook \"opencode\": want claude" >&2; exit 2; }; echo "the part boot.md lacks" ;;
handoff*) [ "$FAKE_HANDOFF" = fail ] && { echo "wake: error: no" >&2; exit 1; } ;;
esac
exit 0
`

type pluginRun struct {
	Title, Agent []string
	calls        []string
	stderr       string
	transcript   []map[string]any
}

// runPlugin runs the harness under node with the fake wake on PATH (or
// none, for hook "missing").
func runPlugin(t *testing.T, hook, handoff string, env ...string) pluginRun {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: the plugin's test runs it under node, as OpenCode runs it under Bun")
	}
	dir := t.TempDir()
	proj, bin := filepath.Join(dir, "proj"), filepath.Join(dir, "bin")
	for _, d := range []string{filepath.Join(proj, ".wake"), bin} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	files := map[string]string{filepath.Join(dir, "wake.mjs"): string(Plugin), filepath.Join(dir, "harness.mjs"): harness}
	if hook != "missing" {
		files[filepath.Join(bin, "wake")] = fakeWake
	}
	for name, data := range files {
		if err := os.WriteFile(name, []byte(data), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if slices.Contains(env, "LINK_STATE=1") {
		// A state directory a repository planted as a link out of the root.
		os.MkdirAll(filepath.Join(dir, "elsewhere"), 0o755)
		if err := os.Symlink(filepath.Join(dir, "elsewhere"), filepath.Join(proj, ".wake", ".state")); err != nil {
			t.Fatal(err)
		}
	}
	log := filepath.Join(dir, "calls.log")
	cmd := exec.Command(node, filepath.Join(dir, "harness.mjs"), "file://"+filepath.Join(dir, "wake.mjs"), proj)
	cmd.Env = append(os.Environ(), "PATH="+bin+":/usr/bin:/bin", "FAKE_LOG="+log, "FAKE_HOOK="+hook, "FAKE_HANDOFF="+handoff, "WAKE_ROOT=")
	cmd.Env = append(cmd.Env, env...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v\n%s\n%s", err, out, stderr.String())
	}
	var r pluginRun
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	r.stderr = stderr.String()
	calls, _ := os.ReadFile(log)
	for _, l := range strings.Split(strings.TrimSpace(strings.ReplaceAll(string(calls), dir, "$T")), "\n") {
		r.calls = append(r.calls, strings.TrimSpace(l))
	}
	matches, _ := filepath.Glob(filepath.Join(proj, ".wake", ".state", "opencode-*.jsonl"))
	for _, m := range matches {
		data, _ := os.ReadFile(m)
		for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
			var e map[string]any
			if err := json.Unmarshal([]byte(strings.ReplaceAll(l, dir, "$T")), &e); err != nil {
				t.Fatalf("%s: %q: %v", m, l, err)
			}
			r.transcript = append(r.transcript, e)
		}
	}
	return r
}

// TestPlugin: the plugin loads the memory once, adds what the hook
// prints to the agent's system prompt only, records the session in
// wake's transcript format, runs the hand-off when the session goes idle
// with something new, and deletes the transcript at exit once a hand-off
// ran on it.
func TestPlugin(t *testing.T) {
	t.Parallel()
	r := runPlugin(t, "new", "")
	if len(r.Title) != 0 || !slices.Equal(r.Agent, []string{"the part boot.md lacks"}) {
		t.Errorf("system prompts: title %q, agent %q", r.Title, r.Agent)
	}
	handoff := `handoff --auto --transcript $T/proj/.wake/.state/opencode-ses_1.jsonl --transcript-format wake --session-start 2026-11-22T10:00:00.000Z @$T/proj`
	want := []string{`load --hook opencode @$T/proj {"cwd":"$T/proj","hook_event_name":"SessionStart","source":"startup"}`, handoff, "-- exit"}
	if !slices.Equal(r.calls, want) {
		t.Errorf("wake was run as\n%s\nwant\n%s", strings.Join(r.calls, "\n"), strings.Join(want, "\n"))
	}
	if r.stderr != "" {
		t.Errorf("stderr: %s", r.stderr)
	}
	if r.transcript != nil {
		t.Errorf("the transcript is left after a hand-off ran on it: %v", r.transcript)
	}
}

// TestPluginTUI: the interactive OpenCode goes idle after every turn, so
// the session ends only at exit, where the hand-off runs on all of it.
func TestPluginTUI(t *testing.T) {
	t.Parallel()
	r := runPlugin(t, "new", "", "HARNESS_TUI=1")
	if len(r.calls) != 3 || r.calls[1] != "-- exit" || !strings.HasPrefix(r.calls[2], "handoff --auto --transcript ") {
		t.Errorf("wake was run as\n%s\nwant the hand-off at exit only", strings.Join(r.calls, "\n"))
	}
}

// TestPluginTranscript: what the plugin records, read before exit (the
// hand-off fails, so the transcript stays, and the hand-off is tried at
// each idle and at exit).
func TestPluginTranscript(t *testing.T) {
	t.Parallel()
	r := runPlugin(t, "new", "fail")
	var got []string
	for i, e := range r.transcript {
		// Every line carries its time; the session line the session's.
		if at, _ := e["at"].(string); i > 0 {
			if _, err := time.Parse(time.RFC3339, at); err != nil {
				t.Errorf("line %d: at %q: %v", i+1, at, err)
			}
			delete(e, "at")
		}
		b, _ := json.Marshal(e)
		got = append(got, string(b))
	}
	want := []string{
		`{"at":"2026-11-22T10:00:00.000Z","cwd":"$T/proj","id":"ses_1","type":"session"}`,
		`{"text":"add a greeting","type":"prompt"}`,
		`{"path":"$T/proj/hello.txt","tool":"write","type":"edit"}`,
		`{"command":"wake decide 'use tabs' --because 'the team does'","type":"command"}`,
		`{"type":"decision"}`,
		`{"command":"grep -n 'wake decide' README.md","type":"command"}`,
		`{"command":"wake decide --help","type":"command"}`,
		`{"path":"a.go","tool":"apply_patch","type":"edit"}`,
		`{"path":"b.go","tool":"apply_patch","type":"edit"}`,
		`{"type":"decision"}`, // wake_decide through wake's MCP server
		// Nothing in the memory root: wake's own files, whoever wrote
		// them, are not the agent's edits.
		`{"path":"$T/proj/made-by-bash.txt","tool":"snapshot","type":"edit"}`,
		`{"text":"Done.","type":"message"}`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("transcript:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(r.calls) != 5 || !strings.Contains(r.stderr, "wake: opencode plugin: 'wake handoff --auto") || !strings.Contains(r.stderr, "exited 1: wake: error: no") {
		t.Errorf("calls %q, stderr %q", r.calls, r.stderr)
	}
}

// TestPluginOldWake: a wake without the OpenCode hook refuses it; the
// plugin says so on stderr, adds nothing, and OpenCode goes on.
func TestPluginOldWake(t *testing.T) {
	t.Parallel()
	r := runPlugin(t, "old", "")
	if len(r.Agent) != 0 || !strings.Contains(r.stderr, "wake: opencode plugin: 'wake load --hook opencode' exited 2: wake: error: --hook \"opencode\": want claude") {
		t.Errorf("agent %q, calls %q, stderr %q", r.Agent, r.calls, r.stderr)
	}
}

// TestPluginNoWake: without wake on PATH the plugin says so on stderr
// and OpenCode goes on.
func TestPluginNoWake(t *testing.T) {
	t.Parallel()
	r := runPlugin(t, "missing", "")
	if len(r.Agent) != 0 || !strings.Contains(r.stderr, "wake: opencode plugin: 'wake load --hook opencode' did not run: wake is not on PATH") {
		t.Errorf("agent %q, stderr %q", r.Agent, r.stderr)
	}
}

// TestPluginStateLink: a state directory that links out of the memory
// root gets no record of the session: the plugin says so and OpenCode
// goes on.
func TestPluginStateLink(t *testing.T) {
	t.Parallel()
	r := runPlugin(t, "new", "", "LINK_STATE=1")
	if !strings.Contains(r.stderr, "not recording the session:") || !strings.Contains(r.stderr, "is a symbolic link") {
		t.Errorf("stderr %q", r.stderr)
	}
	if r.transcript != nil {
		t.Errorf("a transcript was written through the link: %v", r.transcript)
	}
}
