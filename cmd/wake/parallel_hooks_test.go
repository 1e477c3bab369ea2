package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// TestEightSessionsThroughHooks: eight Claude Code sessions on one root
// (issue 25, point 7), each with its client session id, as the client
// runs them: four hand off themselves, all at once; then each one's Stop
// hook, all at once, asks only the four that did not; then each one's
// SessionEnd hook writes the automatic hand-off of those four alone. Each
// session behaves as if it were alone: its hand-off lists only the file
// its own transcript edited, though all eight changed the work tree, and
// the next start shows every session's summary, next priority and risk.
func TestEightSessionsThroughHooks(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	dir := t.TempDir()
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = []string{"HOME=" + filepath.Join(dir, "home"), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=" + os.DevNull,
			"GIT_AUTHOR_NAME=Ava", "GIT_AUTHOR_EMAIL=ava@example.com", "GIT_COMMITTER_NAME=Ava", "GIT_COMMITTER_EMAIL=ava@example.com"}
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	write := func(name, text string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git("init", "-q", "-b", "main")
	write(".gitignore", ".wake/\nhome/\n*.jsonl\n")
	write("app.go", "package main\n")
	git("add", ".")
	git("commit", "-q", "-m", "initial")
	run := func(env map[string]string, stdin string, args ...string) (string, string) {
		t.Helper()
		a, out, errOut := newTestApp(t, dir)
		for k, v := range env {
			a.env[k] = v
		}
		a.in = strings.NewReader(stdin)
		// Claude Code's Stop hook blocks with exit status 2.
		if code := a.run(args); code != 0 && (code != 2 || args[1] != "stop") {
			t.Errorf("wake %v: exit %d: %s", args, code, errOut)
		}
		return out.String(), errOut.String()
	}
	run(nil, "", "init", "--agent", "Ava")

	const n = 8
	id := func(i int) string { return fmt.Sprintf("5e55%04d", i) }
	tr := func(i int) string { return filepath.Join(dir, id(i)+".jsonl") }
	for i := range n {
		// The app's clock reads 03:24:20; each session worked before.
		ts := func(s int) string { return fmt.Sprintf("2026-11-22T03:%02d:%02dZ", 10+i, s) }
		file := fmt.Sprintf("part%d.go", i)
		write(tr(i)[len(dir)+1:], `{"type":"user","message":{"role":"user","content":"write part `+fmt.Sprint(i)+`"},"timestamp":"`+ts(0)+`","cwd":"`+dir+`","sessionId":"`+id(i)+`"}
{"type":"assistant","message":{"role":"assistant","content":[{"type":"tool_use","id":"w1","name":"Write","input":{"file_path":"`+filepath.Join(dir, file)+`","content":"x"}}]},"timestamp":"`+ts(1)+`","sessionId":"`+id(i)+`"}
{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"w1","content":"ok"}]},"timestamp":"`+ts(2)+`","sessionId":"`+id(i)+`"}
{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"Wrote part `+fmt.Sprint(i)+`."}]},"timestamp":"`+ts(3)+`","sessionId":"`+id(i)+`"}
`)
		write(file, "package main\n")
	}
	hook := func(i int, event string) string {
		return fmt.Sprintf(`{"session_id":%q,"transcript_path":%q,"cwd":%q,"hook_event_name":%q,"stop_hook_active":false,"reason":"other"}`, id(i), tr(i), dir, event)
	}
	all := func(f func(i int)) {
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() { f(i) })
		}
		wg.Wait()
	}
	// Every session starts.
	all(func(i int) { run(nil, hook(i, "SessionStart"), "load", "--hook", "claude") })
	// The first four hand off themselves, at once.
	all(func(i int) {
		if i < n/2 {
			run(map[string]string{"CLAUDE_CODE_SESSION_ID": id(i)}, "", "handoff",
				"--summary", fmt.Sprintf("Session %d wrote part %d", i, i), "--next", fmt.Sprintf("Review part %d", i), "--risk", fmt.Sprintf("part %d is untested", i))
		}
	})
	// Each one's Stop hook: only those that did not hand off are asked.
	stops := make([]string, n)
	all(func(i int) { _, stops[i] = run(nil, hook(i, "Stop"), "hook", "stop", "claude") })
	for i, out := range stops {
		asked := strings.Contains(out, "wake: this session changed files")
		if asked != (i >= n/2) {
			t.Errorf("session %d (handed off: %v): Stop asked: %v\n%s", i, i < n/2, asked, out)
		}
		if asked && !strings.Contains(out, fmt.Sprintf("part%d.go", i)) {
			t.Errorf("session %d was asked about another's file:\n%s", i, out)
		}
	}
	// Each one's SessionEnd hook: an automatic hand-off for those four.
	all(func(i int) { run(nil, hook(i, "SessionEnd"), "hook", "end", "claude") })

	// The ledger: one hand-off per session, each with its session id.
	ledger, err := os.Open(filepath.Join(dir, ".wake", "ledger.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer ledger.Close()
	handoffs := map[string][]bool{}
	for sc := bufio.NewScanner(ledger); sc.Scan(); {
		var e struct {
			Op      string
			Session string
			Auto    bool
		}
		if json.Unmarshal(sc.Bytes(), &e) == nil && e.Op == "handoff" {
			handoffs[e.Session] = append(handoffs[e.Session], e.Auto)
		}
	}
	for i := range n {
		if got := handoffs[id(i)]; len(got) != 1 || got[0] != (i >= n/2) {
			t.Errorf("session %d: hand-offs (automatic?) %v, want one, automatic: %v", i, got, i >= n/2)
		}
	}
	// Each automatic hand-off's record lists its own file alone.
	records, _ := filepath.Glob(filepath.Join(dir, ".wake", "cold", "sessions", "*.md"))
	autos := 0
	for _, r := range records {
		data, _ := os.ReadFile(r)
		text := string(data)
		if !strings.Contains(text, "Automatic hand-off") {
			continue
		}
		autos++
		changed := text[strings.Index(text, "What changed"):]
		changed = changed[:strings.Index(changed[1:], "\n#")+1]
		own := 0
		for i := range n {
			if strings.Contains(changed, fmt.Sprintf("part%d.go", i)) {
				own++
			}
		}
		if own != 1 || !strings.Contains(changed, "more changed file(s) in the work tree that this session's edit tools did not touch") {
			t.Errorf("%s: What changed lists %d of the sessions' files, want its own alone and the others counted:\n%s", filepath.Base(r), own, changed)
		}
	}
	if autos != n/2 {
		t.Errorf("%d automatic hand-off records, want %d", autos, n/2)
	}
	// The next start shows every session.
	out, _ := run(nil, "", "load")
	for i := range n {
		var want []string
		if i < n/2 {
			want = []string{fmt.Sprintf("Session %d wrote part %d", i, i), fmt.Sprintf("Review part %d", i), fmt.Sprintf("part %d is untested", i)}
		} else {
			want = []string{fmt.Sprintf("part%d.go", i), fmt.Sprintf("write part %d", i)}
		}
		for _, w := range want {
			if !strings.Contains(out, w) {
				t.Errorf("the next start lacks session %d's %q", i, w)
			}
		}
	}
	if t.Failed() {
		t.Logf("the next start:\n%s", out)
		for _, v := range []string{"recent/latest.md", "recent/previous.md"} {
			view, _ := os.ReadFile(filepath.Join(dir, ".wake", v))
			for _, r := range records {
				data, _ := os.ReadFile(r)
				if string(data) == string(view) {
					t.Logf("%s is a copy of %s", v, filepath.Base(r))
				}
			}
		}
	}
}
