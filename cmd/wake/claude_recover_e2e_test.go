package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/wakeproto/wake/handoff"
)

// TestClaudeCodeRecoversKilledSession runs the real Claude Code through a
// session that writes a file and is killed before any hook of its end
// runs (no Stop, no SessionEnd): the next session's start, once the
// killed one's transcript has gone quiet, hands it off from that
// transcript, marked recovered, and the model of the new session is told
// so once (issue 26, point 7).
func TestClaudeCodeRecoversKilledSession(t *testing.T) {
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
	runBounded(t, proj, env, 60*time.Second, bin, "install", "claude")

	// The session writes notes.txt; the model's next reply stalls, and
	// the client is killed while it waits.
	notes := filepath.Join(proj, "notes.txt")
	stub.writeNext(notes)
	stub.pause = 5 * time.Second
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, claude, "-p", "--permission-mode", "acceptEdits", "write the notes for the bakery")
	cmd.Dir, cmd.Env = proj, env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(40 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		if _, err := os.Stat(notes); err == nil {
			break
		}
		if time.Now().After(deadline) {
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			t.Fatal("the session did not write notes.txt")
		}
	}
	time.Sleep(time.Second) // the tool's result reaches the transcript
	syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	cmd.Wait()
	log := readFile(t, hooks)
	if strings.Contains(log, "hook stop") || strings.Contains(log, "hook end") {
		t.Fatalf("a hook of the session's end ran:\n%s", log)
	}
	transcripts, _ := filepath.Glob(filepath.Join(filepath.Dir(proj), "home", ".claude", "projects", "*", "*.jsonl"))
	if len(transcripts) != 1 {
		t.Fatalf("transcripts: %v", transcripts)
	}
	// An hour later, as the next session starts.
	hour := time.Now().Add(-time.Hour)
	if err := os.Chtimes(transcripts[0], hour, hour); err != nil {
		t.Fatal(err)
	}
	stub.takeMessages(t)
	stub.pause = 0
	runBounded(t, proj, env, 120*time.Second, claude, "-p", "hello")
	told := 0
	for _, r := range stub.take() {
		told += strings.Count(r, "wake recovered the hand-off of an earlier session")
	}
	if told != 1 {
		t.Errorf("the new session's model was told of the recovery %d times, want once", told)
	}
	latest := readFile(t, filepath.Join(proj, ".wake", "recent", "latest.md"))
	for _, want := range []string{handoff.RecoveredPrefix[:40], "notes.txt", "write the notes for the bakery"} {
		if !strings.Contains(latest, want) {
			t.Errorf("recent/latest.md lacks %q:\n%s", want, latest)
		}
	}
	assertStaysInTempDir(t, proj)
}
