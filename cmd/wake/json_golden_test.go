package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/wakeproto/wake/internal/golden"
)

// TestJSONGolden pins the JSON every --format json command prints, on a
// memory with three sessions and a decision made at a fixed time, so that
// a change to a field is a change to a golden file in review, never an
// accident. go test ./cmd/wake -update rewrites them.
func TestJSONGolden(t *testing.T) {
	t.Parallel()
	dir := memoryWithSessions(t)
	fillPurpose(t, filepath.Join(dir, ".wake", "main.md"))
	a, _, errOut := newTestApp(t, dir)
	if code := a.run([]string{"decide", "Use TOML for config", "--because", "it reads well", "--topic", "config"}); code != 0 {
		t.Fatalf("decide: exit %d\n%s", code, errOut)
	}
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"status.json", []string{"status", "--format", "json"}},
		{"check.json", []string{"check", "--format", "json"}},
		{"decisions.json", []string{"decisions", "--all", "--format", "json"}},
		{"log.json", []string{"log", "--format", "json"}},
		{"trust-list.json", []string{"trust", "--list", "--format", "json"}},
		{"capsule.json", []string{"capsule", "--dry-run", "--format", "json"}},
		{"capsule-list.json", []string{"capsule", "list", "--archived", "--format", "json"}},
		{"capsule-prune.json", []string{"capsule", "prune", "--older-than", "30d", "--dry-run", "--format", "json"}},
		// Last: it writes a session.
		{"handoff.json", []string{"handoff", "--summary", "fourth session", "--next", "more", "--format", "json"}},
	} {
		a, out, errOut := newTestApp(t, dir)
		if code := a.run(tc.args); code != 0 && code != exitFailed {
			t.Fatalf("%v: exit %d\n%s", tc.args, code, errOut)
		}
		golden.Check(t, "json/"+tc.name, strings.ReplaceAll(out.String(), dir, "$DIR"))
	}
}
