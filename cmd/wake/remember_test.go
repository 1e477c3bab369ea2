package main

import (
	"testing"

	"github.com/wakeproto/wake/internal/golden"
)

// TestRememberJSONGolden pins the JSON of wake remember: the entry added,
// the entry closed, and the list with --all.
func TestRememberJSONGolden(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if a, _, errOut := newTestApp(t, dir); a.run([]string{"init"}) != 0 {
		t.Fatalf("init: %s", errOut)
	}
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"remember-add.json", []string{"remember", "Outline the onboarding UX spike", "--topic", "ux", "--next", "Review the mockups", "--tag", "ux,spike", "--format", "json"}},
		{"", []string{"remember", "Check the flaky test"}},
		{"remember-done.json", []string{"remember", "done", "2", "--because", "fixed in #12", "--format", "json"}},
		{"remember-list.json", []string{"remember", "list", "--all", "--format", "json"}},
	} {
		a, out, errOut := newTestApp(t, dir)
		if code := a.run(tc.args); code != 0 {
			t.Fatalf("%v: exit %d\n%s", tc.args, code, errOut)
		}
		if tc.name != "" {
			golden.Check(t, "json/"+tc.name, out.String())
		}
	}
}
