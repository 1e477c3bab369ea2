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
