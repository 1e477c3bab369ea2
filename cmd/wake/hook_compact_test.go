package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCompactCheckpoint: Claude Code's PreCompact hook keeps a checkpoint
// of the session so far, from its transcript; the SessionStart hook of
// the compaction puts it first in the context the client injects after
// it, for that session alone; a fresh start does not carry it.
func TestCompactCheckpoint(t *testing.T) {
	t.Parallel()
	dir := memoryWithSessions(t)
	tr := filepath.Join(dir, "s.jsonl")
	os.WriteFile(tr, []byte(`{"type":"user","message":{"role":"user","content":"round the VAT totals"},"timestamp":"2026-11-22T03:00:00Z","cwd":"`+dir+`","sessionId":"c0ffee"}
{"type":"assistant","message":{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Edit","input":{"file_path":"`+filepath.Join(dir, "vat.go")+`"}},{"type":"tool_use","id":"t2","name":"Bash","input":{"command":"go test ./vat"}}]},"timestamp":"2026-11-22T03:00:01Z"}
{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"ok"},{"type":"tool_result","tool_use_id":"t2","content":"ok"}]},"timestamp":"2026-11-22T03:00:02Z"}
{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"Rounded half-up; the golden files still need regenerating."}]},"timestamp":"2026-11-22T03:00:03Z"}
`), 0o644)
	hook := func(args []string, stdin string) string {
		t.Helper()
		a, out, errOut := newTestApp(t, dir)
		a.in = strings.NewReader(stdin)
		if code := a.run(args); code != 0 || errOut.Len() > 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errOut)
		}
		return out.String()
	}
	hook([]string{"hook", "compact", "claude"}, `{"session_id":"c0ffee","transcript_path":"`+tr+`","cwd":"`+dir+`","hook_event_name":"PreCompact","trigger":"auto"}`)
	after := hook([]string{"load", "--hook", "claude"}, `{"session_id":"c0ffee","transcript_path":"`+tr+`","cwd":"`+dir+`","hook_event_name":"SessionStart","source":"compact"}`)
	for _, want := range []string{"## Checkpoint before the compaction", "round the VAT totals", "vat.go (Edit)", "go test ./vat", "the golden files still need regenerating"} {
		if !strings.Contains(after, want) {
			t.Errorf("the context after the compaction lacks %q:\n%s", want, after)
		}
	}
	if !strings.HasPrefix(after, "## Checkpoint before the compaction") {
		t.Errorf("the checkpoint is not first:\n%.300s", after)
	}
	for _, other := range []string{
		`{"session_id":"other","transcript_path":"` + tr + `","cwd":"` + dir + `","hook_event_name":"SessionStart","source":"compact"}`,
		`{"session_id":"c0ffee","transcript_path":"` + tr + `","cwd":"` + dir + `","hook_event_name":"SessionStart","source":"startup"}`,
	} {
		if out := hook([]string{"load", "--hook", "claude"}, other); strings.Contains(out, "## Checkpoint before the compaction") {
			t.Errorf("%s carries the checkpoint:\n%.300s", other, out)
		}
	}
}

// TestCompactCheckpointCodex: Codex's PreCompact hook (its input as Codex
// 0.169.0 and 0.171.0 give it) keeps a checkpoint from the session's
// rollout, and the SessionStart hook Codex runs with source "compact"
// puts it first, within Codex's 10,000 bytes.
func TestCompactCheckpointCodex(t *testing.T) {
	t.Parallel()
	dir := memoryWithSessions(t)
	tr := filepath.Join(dir, "rollout.jsonl")
	const id = "01a22232-274a-7730-9b11-ba9c41a1a42d"
	os.WriteFile(tr, []byte(`{"timestamp":"2026-11-22T03:00:00.000Z","type":"session_meta","payload":{"session_id":"`+id+`","id":"`+id+`","timestamp":"2026-11-22T03:00:00.000Z","cwd":"`+dir+`"}}
{"timestamp":"2026-11-22T03:00:00.100Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"round the VAT totals"}]}}
{"timestamp":"2026-11-22T03:00:01.000Z","type":"response_item","payload":{"type":"custom_tool_call","id":"ctc_1","call_id":"call_1","name":"apply_patch","input":"*** Begin Patch\n*** Add File: vat.go\n+package vat\n*** End Patch\n"}}
{"timestamp":"2026-11-22T03:00:02.000Z","type":"response_item","payload":{"type":"custom_tool_call_output","call_id":"call_1","output":"Success."}}
{"timestamp":"2026-11-22T03:00:03.000Z","type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"Rounded half-up; the golden files still need regenerating."}]}}
`), 0o644)
	hook := func(args []string, stdin string) string {
		t.Helper()
		a, out, errOut := newTestApp(t, dir)
		a.in = strings.NewReader(stdin)
		if code := a.run(args); code != 0 || errOut.Len() > 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errOut)
		}
		return out.String()
	}
	if out := hook([]string{"hook", "compact", "codex"}, `{"session_id":"`+id+`","turn_id":"t1","transcript_path":"`+tr+`","cwd":"`+dir+`","hook_event_name":"PreCompact","model":"gpt-5.5","trigger":"manual"}`); out != "" {
		t.Errorf("the PreCompact hook printed %q: Codex reads its stdout as the hook's JSON output", out)
	}
	after := hook([]string{"load", "--hook", "codex"}, `{"session_id":"`+id+`","transcript_path":"`+tr+`","cwd":"`+dir+`","hook_event_name":"SessionStart","model":"gpt-5.5","permission_mode":"bypassPermissions","source":"compact"}`)
	if !strings.HasPrefix(after, "## Checkpoint before the compaction") {
		t.Errorf("the checkpoint is not first:\n%.300s", after)
	}
	for _, want := range []string{"round the VAT totals", "vat.go (apply_patch)", "the golden files still need regenerating", "# wake: memory loaded"} {
		if !strings.Contains(after, want) {
			t.Errorf("the context after the compaction lacks %q:\n%s", want, after)
		}
	}
	if len(after) > 10000 {
		t.Errorf("the hook's text is %d bytes, past Codex's 10,000", len(after))
	}
	start := hook([]string{"load", "--hook", "codex"}, `{"session_id":"`+id+`","transcript_path":"`+tr+`","cwd":"`+dir+`","hook_event_name":"SessionStart","source":"startup"}`)
	if strings.Contains(start, "## Checkpoint before the compaction") {
		t.Errorf("a start carries the checkpoint:\n%.300s", start)
	}
}
