package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wakeproto/wake/internal/golden"
)

// TestCapsuleJSONGolden pins the JSON of wake capsule prompt and verify:
// the prompt with its stub, a clean verify that records the named files'
// hashes, and one after an edit that reports the drift. go test
// ./cmd/wake -update rewrites them.
func TestCapsuleJSONGolden(t *testing.T) {
	t.Parallel()
	dir := memoryWithSessions(t)
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("hello\n"), 0o644)
	capsule := filepath.Join(".wake", "cold", "capsules", "no-branch", "filled.md")
	steps := []struct {
		name   string
		args   []string
		before func()
	}{
		{"capsule-prompt.json", []string{"capsule", "prompt", "--session", "s-1", "--stub", "--format", "json"}, nil},
		{"capsule-verify.json", []string{"capsule", "verify", capsule, "--format", "json"}, func() {
			os.WriteFile(filepath.Join(dir, capsule), []byte(filledCapsule), 0o644)
		}},
		{"capsule-verify-drift.json", []string{"capsule", "verify", capsule, "--format", "json"}, func() {
			os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("hello again\n"), 0o644)
		}},
	}
	for _, s := range steps {
		if s.before != nil {
			s.before()
		}
		a, out, errOut := newTestApp(t, dir)
		if code := a.run(s.args); code != exitOK && code != exitFailed {
			t.Fatalf("%v: exit %d\n%s", s.args, code, errOut)
		}
		golden.Check(t, "json/"+s.name, strings.ReplaceAll(out.String(), dir, "$DIR"))
	}
}

const filledCapsule = `---
branch: no-branch
source_session: s-1
created_at: 2026-11-22T03:24:20Z
primary_objective: "Keep the books"
token_budget: 1200
version: "1"
---
# Mission Snapshot
- Keep the books; see ` + "`notes.txt`" + `.

# Key Decisions & Rationale
_Nothing recorded._

# Active Workstreams
_Nothing recorded._

# Pending Actions
- [ ] Read [the notes](notes.txt) again.

# Knowledge Base
_Nothing recorded._

# Risks & Watchpoints
_Nothing recorded._

# Transcript Highlights
- 2026-11-22T03:20Z: the user asked for capsules.

# Exploratory Threads & User Preferences
_Nothing recorded._
`
