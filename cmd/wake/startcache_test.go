package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/skill"
	"github.com/wakeproto/wake/store"
)

// starts are the Claude Code hook's start and `wake load` in dir, each
// returning what it printed on stdout and stderr.
func starts(t *testing.T, dir string) (hook, load func() (string, string)) {
	hook = func() (string, string) {
		t.Helper()
		code, out, errOut := runHook(t, dir, hookJSON(dir))
		if code != 0 {
			t.Fatalf("hook: exit %d: %s", code, errOut)
		}
		return out, errOut
	}
	load = func() (string, string) {
		t.Helper()
		a, out, errOut := newTestApp(t, dir)
		if code := a.run([]string{"load"}); code != 0 {
			t.Fatalf("load: exit %d: %s", code, errOut)
		}
		return out.String(), errOut.String()
	}
	return hook, load
}

// TestHookAndLoadRideTheStartCache proves `wake load` and its Claude Code
// hook keep their output in the start cache once the boot files are
// settled, print from it what a start without it prints (stderr
// included), and build again after an edit.
func TestHookAndLoadRideTheStartCache(t *testing.T) {
	t.Parallel()
	dir := memoryWithSessions(t)
	cache := filepath.Join(dir, ".wake", ".state", "start-cache")
	hook, load := starts(t, dir)
	for _, c := range []struct {
		name string
		run  func() (string, string)
		view string
	}{{"hook", hook, `"name":"hook claude`}, {"load", load, `"name":"load"`}} {
		for range 3 {
			c.run()
		}
		data, err := os.ReadFile(cache)
		if err != nil || !strings.Contains(string(data), c.view) {
			t.Fatalf("%s: the start cache does not hold its view after three starts (%v)", c.name, err)
		}
		out, errOut := c.run()
		os.Remove(cache)
		fresh, freshErr := c.run()
		if out != fresh || errOut != freshErr {
			t.Errorf("%s: from the cache:\n%s\n%s\nfresh:\n%s\n%s", c.name, out, errOut, fresh, freshErr)
		}
	}
	tasks := filepath.Join(dir, ".wake", "warm", "active_tasks.md")
	data, _ := os.ReadFile(tasks)
	os.WriteFile(tasks, append(data, "- [ ] Proof the dough overnight.\n"...), 0o644)
	if out, _ := load(); !strings.Contains(out, "Proof the dough overnight.") {
		t.Errorf("the load after an edit does not show it:\n%s", out)
	}
}

// TestHandoffPrimesTheNextStart: `wake handoff` primes the start cache
// for the ways the root's sessions started (here `wake load` and the
// Claude Code hook), so the cache holds both views made after the
// hand-off's writes; what the next hook and load print is what a start
// without the cache prints, the hand-off in it.
func TestHandoffPrimesTheNextStart(t *testing.T) {
	t.Parallel()
	dir, cache, hook, load := settledStarts(t)
	before, _ := os.ReadFile(cache)
	a, out, errOut := newTestApp(t, dir)
	if code := a.run([]string{"handoff", "--summary", "Primed the next start", "--next", "Start the next session"}); code != 0 {
		t.Fatalf("handoff: exit %d: %s", code, errOut)
	}
	if strings.Contains(errOut.String(), "skill.md") {
		t.Errorf("the hand-off told the priming's notices:\n%s", errOut)
	}
	if !strings.Contains(out.String(), "Primed the next start") {
		t.Errorf("the hand-off's report:\n%s", out)
	}
	after, err := os.ReadFile(cache)
	if err != nil || string(after) == string(before) {
		t.Fatalf("the hand-off left the start cache as it was (%v)", err)
	}
	for _, view := range []string{`"name":"load"`, `"name":"hook claude`} {
		if !strings.Contains(string(after), view) {
			t.Errorf("the primed cache lacks %s", view)
		}
	}
	primedAgainstFresh(t, cache, "after the primed hand-off", map[string]func() (string, string){"load": load, "hook": hook})
	if got, _ := load(); !strings.Contains(got, "Primed the next start") {
		t.Errorf("the load after the hand-off lacks it:\n%s", got)
	}
}

// settledStarts makes a memory with sessions whose start cache holds both
// a `wake load` and a Claude Code hook, and returns its directory, the
// cache's path and the two starts.
func settledStarts(t *testing.T) (dir, cache string, hook, load func() (string, string)) {
	t.Helper()
	dir = memoryWithSessions(t)
	cache = filepath.Join(dir, ".wake", ".state", "start-cache")
	hook, load = starts(t, dir)
	for range 3 {
		hook()
		load()
	}
	return dir, cache, hook, load
}

// primedAgainstFresh runs each start in starts, which must be served
// from the start cache as a hand-off primed it (a start served from it
// writes nothing there; one built keeps its output), then each again with
// the cache removed, and fails when an output differs.
func primedAgainstFresh(t *testing.T, cache, what string, starts map[string]func() (string, string)) {
	t.Helper()
	type output struct{ out, err string }
	got := map[string]output{}
	primed, err := os.ReadFile(cache)
	if err != nil {
		t.Fatal(err)
	}
	for name, run := range starts {
		o, e := run()
		got[name] = output{o, e}
		if now, _ := os.ReadFile(cache); !bytes.Equal(now, primed) {
			t.Errorf("the %s start %s was built, not served from the primed cache", name, what)
			primed = now
		}
	}
	for name, run := range starts {
		os.Remove(cache)
		if o, e := run(); o != got[name].out || e != got[name].err {
			t.Errorf("%s %s:\n%s\n%s\nfresh:\n%s\n%s", name, what, got[name].out, got[name].err, o, e)
		}
	}
}

// TestHandoffKeepsNoSkill: a user who keeps skill.md out (`wake load
// --no-skill`, `wake handoff --no-skill`) does not find it written by the
// hand-off's priming, which runs the view with the boot files its last
// start wrote.
func TestHandoffKeepsNoSkill(t *testing.T) {
	t.Parallel()
	dir := memoryWithSessions(t)
	for range 3 {
		a, _, errOut := newTestApp(t, dir)
		if code := a.run([]string{"load", "--no-skill"}); code != 0 {
			t.Fatalf("load: exit %d: %s", code, errOut)
		}
	}
	shared := filepath.Join(dir, "home", ".claude", "agentchat.skill.md")
	own := filepath.Join(dir, ".wake", "skill.md")
	os.Remove(shared)
	os.Remove(own)
	a, _, errOut := newTestApp(t, dir)
	if code := a.run([]string{"handoff", "--no-skill", "--summary", "No skill here", "--next", "Still none"}); code != 0 {
		t.Fatalf("handoff: exit %d: %s", code, errOut)
	}
	for _, p := range []string{shared, own} {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("wake handoff --no-skill wrote %s", p)
		}
	}
}

// TestHandoffLeavesTheSharedNoticeToAStart: the shared skill.md is another
// root's, which wake says once. A hand-off with --no-skill does not look
// at it; its priming, which tells nothing, must not say it to nobody and
// record it as said: the next load says it.
func TestHandoffLeavesTheSharedNoticeToAStart(t *testing.T) {
	t.Parallel()
	dir := memoryWithSessions(t)
	other := t.TempDir()
	if a, _, errOut := newTestApp(t, other); a.run([]string{"init", "--agent", "Bea"}) != 0 {
		t.Fatalf("init other: %s", errOut)
	}
	load := func() string {
		t.Helper()
		a, _, errOut := newTestApp(t, dir)
		if code := a.run([]string{"load"}); code != 0 {
			t.Fatalf("load: exit %d: %s", code, errOut)
		}
		return errOut.String()
	}
	for range 3 {
		load()
	}
	// The other root takes the shared file (its HOME is dir/home too).
	shared := filepath.Join(dir, "home", ".claude", "agentchat.skill.md")
	if err := os.WriteFile(shared, []byte("# Bea's memory\n"+skill.Marker(filepath.Join(other, ".wake"))+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	a, _, errOut := newTestApp(t, dir)
	if code := a.run([]string{"handoff", "--no-skill", "--summary", "s", "--next", "n"}); code != 0 {
		t.Fatalf("handoff: exit %d: %s", code, errOut)
	}
	told := errOut.String()
	for range 2 {
		told += load()
	}
	if !strings.Contains(told, "wake says this once") {
		t.Errorf("nobody was told the shared skill.md is another root's; the hand-off and loads said:\n%s", told)
	}
}

// holdingLocker is a FileLocker that, at the first shared lock asked for
// (the priming's: a hand-off takes none), lets another holder take the
// exclusive lock first, as another wake command would, and keeps it
// until the test ends.
type holdingLocker struct {
	store.FileLocker
	t     *testing.T
	once  sync.Once
	waits atomic.Int32 // the waits that ended without the lock
}

func (l *holdingLocker) RLock(ctx context.Context, root string) (func() error, error) {
	l.once.Do(func() {
		unlock, err := store.FileLocker{Timeout: time.Second}.Lock(ctx, root)
		if err != nil {
			l.t.Fatal(err)
		}
		l.t.Cleanup(func() { unlock() })
	})
	return l.counted(l.FileLocker.RLock(ctx, root))
}

func (l *holdingLocker) Lock(ctx context.Context, root string) (func() error, error) {
	return l.counted(l.FileLocker.Lock(ctx, root))
}

func (l *holdingLocker) counted(unlock func() error, err error) (func() error, error) {
	if err != nil {
		l.waits.Add(1)
	}
	return unlock, err
}

// TestHandoffWaitsForTheLockOnce: when another wake command holds the
// root's lock as the priming starts, the hand-off, durable already, gives
// up priming after one bounded wait, not one for each view the cache
// holds.
func TestHandoffWaitsForTheLockOnce(t *testing.T) {
	t.Parallel()
	dir := memoryWithSessions(t)
	for range 2 {
		if code, _, errOut := runHook(t, dir, hookJSON(dir)); code != 0 {
			t.Fatalf("hook: %s", errOut)
		}
		a, _, errOut := newTestApp(t, dir)
		if code := a.run([]string{"load"}); code != 0 {
			t.Fatalf("load: %s", errOut)
		}
	}
	a, out, errOut := newTestApp(t, dir)
	const timeout = 300 * time.Millisecond
	l := &holdingLocker{FileLocker: store.FileLocker{Timeout: timeout}, t: t}
	a.locker = l
	if code := a.run([]string{"handoff", "--summary", "Waited once", "--next", "n"}); code != 0 {
		t.Fatalf("handoff: exit %d: %s", code, errOut)
	}
	if !strings.Contains(out.String(), "Waited once") {
		t.Fatalf("no report: %s", out)
	}
	// Counted, not timed: a busy machine makes any time bound flaky.
	if n := l.waits.Load(); n != 1 {
		t.Errorf("the hand-off waited for the lock in vain %d time(s), want once", n)
	}
}

// countCacheOpens counts the opens of .state/tokens.json for reading: a
// start served from the start cache reads no count cache, a build does.
type countCacheOpens struct {
	afero.Fs
	n *atomic.Int32
}

func (f countCacheOpens) Open(name string) (afero.File, error) {
	if strings.HasSuffix(name, filepath.Join(".state", "tokens.json")) {
		f.n.Add(1)
	}
	return f.Fs.Open(name)
}

func (f countCacheOpens) OpenFile(name string, flag int, perm os.FileMode) (afero.File, error) {
	if flag&(os.O_WRONLY|os.O_RDWR) == 0 && strings.HasSuffix(name, filepath.Join(".state", "tokens.json")) {
		f.n.Add(1)
	}
	return f.Fs.OpenFile(name, flag, perm)
}

// TestPrimedClaudeCodeFlow: a Claude Code session as it ends (the agent's
// wake handoff, which primes; the Stop hook at the turn's end; the
// SessionEnd hook, which finds the work handed off), then the next
// session's SessionStart hook: served from the primed entry, it reads no
// count cache.
func TestPrimedClaudeCodeFlow(t *testing.T) {
	t.Parallel()
	dir := memoryWithSessions(t)
	for range 3 {
		if code, _, errOut := runHook(t, dir, hookJSON(dir)); code != 0 {
			t.Fatalf("hook: %s", errOut)
		}
	}
	tr := filepath.Join(dir, "work.jsonl")
	os.WriteFile(tr, []byte(`{"type":"user","message":{"role":"user","content":"write the notes"},"timestamp":"2026-11-22T03:00:00Z","sessionId":"5998b205"}
{"type":"assistant","message":{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Write","input":{"file_path":"notes.txt","content":"x"}}]},"timestamp":"2026-11-22T03:00:01Z"}
{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"ok"}]},"timestamp":"2026-11-22T03:00:02Z"}
`), 0o644)
	a, _, errOut := newTestApp(t, dir)
	if code := a.run([]string{"handoff", "--summary", "Wrote the notes", "--next", "More notes"}); code != 0 {
		t.Fatalf("handoff: %s", errOut)
	}
	for _, ev := range [][2]string{
		{"stop", `{"session_id":"5998b205","transcript_path":"` + tr + `","cwd":"` + dir + `","hook_event_name":"Stop","stop_hook_active":false}`},
		{"end", `{"session_id":"5998b205","transcript_path":"` + tr + `","cwd":"` + dir + `","hook_event_name":"SessionEnd","reason":"other"}`},
	} {
		a, _, errOut := newTestApp(t, dir)
		a.in = strings.NewReader(ev[1])
		if code := a.run([]string{"hook", ev[0], "claude"}); code != 0 {
			t.Fatalf("hook %s: %s", ev[0], errOut)
		}
	}
	var n atomic.Int32
	a, out, errOut := newTestApp(t, dir)
	a.fs = countCacheOpens{a.fs, &n}
	a.in = strings.NewReader(hookJSON(dir))
	if code := a.run([]string{"load", "--hook", "claude"}); code != 0 {
		t.Fatalf("hook: %s", errOut)
	}
	if n.Load() > 0 {
		t.Errorf("the next session's start read the count cache %d time(s): built, not served from the primed entry", n.Load())
	}
	if !strings.Contains(out.String(), "Wrote the notes") {
		t.Errorf("the next session's start lacks the hand-off:\n%s", out)
	}
}

// TestMCPHandoffPrimesTheNextStart: a hand-off through wake mcp's
// wake_handoff primes the start cache as the command's does, so that the
// next session's start is served from it, the same as a fresh build.
func TestMCPHandoffPrimesTheNextStart(t *testing.T) {
	t.Parallel()
	dir, cache, hook, load := settledStarts(t)
	a, out, errOut := newTestApp(t, dir)
	a.in = strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"test","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"wake_handoff","arguments":{"summary":"Handed off over MCP","next":"Pick it up"}}}
`)
	if code := a.run([]string{"mcp"}); code != 0 {
		t.Fatalf("mcp: exit %d: %s", code, errOut)
	}
	if !strings.Contains(out.String(), `"id":2,"result"`) || strings.Contains(out.String(), `"isError":true`) {
		t.Fatalf("the hand-off's answer:\n%s", out)
	}
	primed, err := os.ReadFile(cache)
	if err != nil || !strings.Contains(string(primed), "Handed off over MCP") {
		t.Fatalf("the start cache holds no start after the MCP hand-off (%v)", err)
	}
	primedAgainstFresh(t, cache, "after the MCP hand-off", map[string]func() (string, string){"load": load, "hook": hook})
}
