//go:build unix

package main

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// runBoundedApp runs one wake command in-process and fails, rather than
// hanging, when it does not return within a few seconds.
func runBoundedApp(t *testing.T, dir string, args ...string) (int, string, string) {
	t.Helper()
	a, out, errOut := newTestApp(t, dir)
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

// TestLoadSkipsNamedPipes proves a FIFO at a tier path or in cold/ no
// longer hangs wake load or wake cold: it is skipped with a warning naming
// it, and the session still starts.
func TestLoadSkipsNamedPipes(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if code, _, errOut := runBoundedApp(t, dir, "init", "--agent", "Ava"); code != 0 {
		t.Fatalf("init: %d %s", code, errOut)
	}
	root := filepath.Join(dir, ".wake")
	syscall.Unlink(filepath.Join(root, "warm", "open_questions.md"))
	for _, p := range []string{"warm/open_questions.md", "cold/pipe.md"} {
		if err := syscall.Mkfifo(filepath.Join(root, p), 0o644); err != nil {
			t.Skipf("mkfifo: %v", err)
		}
	}
	code, out, errOut := runBoundedApp(t, dir, "load", "--no-skill")
	if code != 0 {
		t.Fatalf("load: exit %d: %s", code, errOut)
	}
	for _, want := range []string{
		"### warm/open_questions.md (not shown: not a regular file (named pipe))",
		"- cold/pipe.md: skipped: not a regular file (named pipe)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("context lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(errOut, "wake: warning: warm/open_questions.md: skipped: not a regular file (named pipe)") {
		t.Errorf("stderr: %s", errOut)
	}
	code, out, errOut = runBoundedApp(t, dir, "cold", "cold/pipe.md")
	if code != 1 || out != "" || !strings.Contains(errOut, "cold/pipe.md: refused: not a regular file (named pipe)") {
		t.Fatalf("cold: exit %d, out %q, err %s", code, out, errOut)
	}
	if code, _, errOut := runBoundedApp(t, dir, "status"); code != 0 {
		t.Fatalf("status: exit %d: %s", code, errOut)
	}
}
