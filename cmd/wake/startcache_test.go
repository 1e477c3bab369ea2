package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHookAndLoadRideTheStartCache proves `wake load` and its Claude Code
// hook keep their output in the start cache once the boot files are
// settled, print from it what a start without it prints (stderr
// included), and build again after an edit.
func TestHookAndLoadRideTheStartCache(t *testing.T) {
	t.Parallel()
	dir := memoryWithSessions(t)
	cache := filepath.Join(dir, ".wake", ".state", "start-cache")
	hook := func() (string, string) {
		t.Helper()
		code, out, errOut := runHook(t, dir, hookJSON(dir))
		if code != 0 {
			t.Fatalf("hook: exit %d: %s", code, errOut)
		}
		return out, errOut
	}
	load := func() (string, string) {
		t.Helper()
		a, out, errOut := newTestApp(t, dir)
		if code := a.run([]string{"load"}); code != 0 {
			t.Fatalf("load: exit %d: %s", code, errOut)
		}
		return out.String(), errOut.String()
	}
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
	dir := memoryWithSessions(t)
	cache := filepath.Join(dir, ".wake", ".state", "start-cache")
	hook := func() (string, string) {
		t.Helper()
		code, out, errOut := runHook(t, dir, hookJSON(dir))
		if code != 0 {
			t.Fatalf("hook: exit %d: %s", code, errOut)
		}
		return out, errOut
	}
	load := func() (string, string) {
		t.Helper()
		a, out, errOut := newTestApp(t, dir)
		if code := a.run([]string{"load"}); code != 0 {
			t.Fatalf("load: exit %d: %s", code, errOut)
		}
		return out.String(), errOut.String()
	}
	for range 3 {
		hook()
		load()
	}
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
	for _, c := range []struct {
		name string
		run  func() (string, string)
	}{{"load", load}, {"hook", hook}} {
		got, gotErr := c.run()
		os.Remove(cache)
		fresh, freshErr := c.run()
		if got != fresh || gotErr != freshErr {
			t.Errorf("%s after the primed hand-off:\n%s\n%s\nfresh:\n%s\n%s", c.name, got, gotErr, fresh, freshErr)
		}
		if c.name == "load" && !strings.Contains(got, "Primed the next start") {
			t.Errorf("the load after the hand-off lacks it:\n%s", got)
		}
	}
}
