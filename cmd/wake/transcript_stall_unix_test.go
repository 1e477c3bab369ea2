//go:build unix

package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// runBoundedInput is runBoundedApp with input on stdin.
func runBoundedInput(t *testing.T, dir, input string, args ...string) (int, string, string) {
	t.Helper()
	a, out, errOut := newTestApp(t, dir)
	a.in = strings.NewReader(input)
	done := make(chan int, 1)
	go func() { done <- a.run(args) }()
	select {
	case code := <-done:
		return code, out.String(), errOut.String()
	case <-time.After(10 * time.Second):
		t.Fatalf("wake %s did not return", strings.Join(args, " "))
	}
	return 0, "", ""
}

// stallingTranscripts are paths a hook may be handed as a transcript that
// must not stall it: a named pipe with no writer (its open blocks), a link
// to one, a device read without end, a directory; each with what wake
// says of it.
func stallingTranscripts(t *testing.T, dir string) map[string][2]string {
	t.Helper()
	fifo := filepath.Join(dir, "pipe.jsonl")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	link := filepath.Join(dir, "link.jsonl")
	if err := os.Symlink(fifo, link); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(dir, "dir.jsonl")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	kinds := map[string][2]string{
		"fifo":      {fifo, "not a regular file (named pipe)"},
		"link":      {link, "not a regular file (named pipe)"},
		"directory": {sub, "is a directory"},
	}
	if fi, err := os.Stat("/dev/zero"); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
		kinds["device"] = [2]string{"/dev/zero", "not a regular file (character device)"}
	}
	return kinds
}

// TestTranscriptReadersRefuseNonRegular (issue 23, reproductions 4 and
// 5): a transcript that is a FIFO, a link to one, /dev/zero or a
// directory makes no reader wait or read without end. The Stop and
// SessionEnd hooks of both clients and the SubagentStart hook answer
// (exit 0) with a warning naming the path and what it is; wake handoff
// --auto and wake capsule --transcript fail so.
func TestTranscriptReadersRefuseNonRegular(t *testing.T) {
	t.Parallel()
	for kind, c := range stallingTranscripts(t, t.TempDir()) {
		// A memory each, so that the SubagentStart hook builds a capsule,
		// reading the transcript, rather than reusing the last one's.
		dir, path, why := memoryWithSessions(t), c[0], c[1]
		hook := func(event string) string {
			in, _ := json.Marshal(map[string]any{"session_id": "s1", "transcript_path": path, "cwd": dir,
				"hook_event_name": event, "agent_id": "a1", "agent_type": "general-purpose", "reason": "other"})
			return string(in)
		}
		for _, r := range []struct {
			name, input string
			args        []string
			code        int
		}{
			{"stop claude", hook("Stop"), []string{"hook", "stop", "claude"}, 0},
			{"stop codex", hook("Stop"), []string{"hook", "stop", "codex"}, 0},
			{"end claude", hook("SessionEnd"), []string{"hook", "end", "claude"}, 0},
			{"end codex", hook("SessionEnd"), []string{"hook", "end", "codex"}, 0},
			{"subagent claude", hook("SubagentStart"), []string{"capsule", "--hook", "claude"}, 0},
			{"handoff --auto", "", []string{"handoff", "--auto", "--transcript", path}, 1},
			{"capsule --transcript", "", []string{"capsule", "--dry-run", "--transcript", path}, 1},
		} {
			start := time.Now()
			code, _, errOut := runBoundedInput(t, dir, r.input, r.args...)
			if took := time.Since(start); took > 3*time.Second {
				t.Errorf("%s, %s: took %v", r.name, kind, took)
			}
			if code != r.code || !strings.Contains(errOut, path+": "+why) {
				t.Errorf("%s, %s: exit %d (want %d), stderr lacks %q:\n%s", r.name, kind, code, r.code, path+": "+why, errOut)
			}
		}
	}
}

// TestInputFilesRefuseNonRegular: the other paths wake is given to read,
// wake handoff --file and the capsule of wake capsule verify, are refused
// at once, naming the path and what it is, when they are a named pipe (or
// a link to one), a device or a directory.
func TestInputFilesRefuseNonRegular(t *testing.T) {
	t.Parallel()
	dir := memoryWithSessions(t)
	for kind, c := range stallingTranscripts(t, t.TempDir()) {
		path, why := c[0], c[1]
		code, _, errOut := runBoundedInput(t, dir, "", "handoff", "--file", path)
		if code != 2 || !strings.Contains(errOut, "--file "+path+": "+why) {
			t.Errorf("handoff --file, %s: exit %d, stderr %s", kind, code, errOut)
		}
	}
	capsules := filepath.Join(dir, ".wake", "cold", "capsules")
	if err := os.MkdirAll(capsules, 0o755); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(capsules, "pipe.md")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	code, _, errOut := runBoundedInput(t, dir, "", "capsule", "verify", fifo)
	if code == 0 || !strings.Contains(errOut, "pipe.md") || !strings.Contains(errOut, "not a regular file (named pipe)") {
		t.Errorf("capsule verify of a named pipe: exit %d, stderr %s", code, errOut)
	}
}
