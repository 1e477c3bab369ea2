package wake_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake"
	"github.com/wakeproto/wake/checks"
	"github.com/wakeproto/wake/internal/memlock"
	"github.com/wakeproto/wake/skeleton"
)

// TestContradictionFindingsKept: a start keeps the contradiction check's
// findings in .state/, and the next start and wake check take them from
// there while the log is unchanged (findings planted under the log's key
// are what they report), and compare again once it changes.
func TestContradictionFindingsKept(t *testing.T) {
	fsys := afero.NewMemMapFs()
	now := time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)
	o := wake.Options{FS: fsys, Env: map[string]string{"HOME": "/home/ava"}, Now: func() time.Time { return now }, Locker: &memlock.Locker{}}
	ctx := context.Background()
	const root = "/p/.wake"
	if _, err := wake.Init(ctx, root, skeleton.Params{Agent: "Ava", Project: "bakery"}, o); err != nil {
		t.Fatal(err)
	}
	log := "# Decisions\n\n[2026-01-01] DECISION: Use YAML for config BECAUSE: readability\nSTATUS: active\n\n" +
		"[2026-01-05] DECISION: Use TOML for config BECAUSE: fewer parse errors\nSTATUS: active\n"
	afero.WriteFile(fsys, root+"/warm/decisions.md", []byte(log), 0o644)
	start := func() string {
		t.Helper()
		m, err := wake.Open(root, o)
		if err != nil {
			t.Fatal(err)
		}
		st, err := m.Start(ctx, wake.BootFiles{})
		if err != nil {
			t.Fatal(err)
		}
		return st.Text
	}
	check := func() checks.Report {
		t.Helper()
		m, err := wake.Open(root, o)
		if err != nil {
			t.Fatal(err)
		}
		r, err := m.Check(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	if text := start(); !strings.Contains(text, `entries 1 and 2 contradict`) {
		t.Fatalf("first start does not report the pair:\n%s", text)
	}
	cache := root + "/.state/" + checks.ContradictionCacheFile
	data, err := afero.ReadFile(fsys, cache)
	if err != nil {
		t.Fatalf("the findings were not kept: %v", err)
	}
	var f map[string]any
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	f["findings"] = []string{"planted finding"}
	planted, _ := json.Marshal(f)
	afero.WriteFile(fsys, cache, planted, 0o644)
	if text := start(); !strings.Contains(text, "planted finding") || strings.Contains(text, "entries 1 and 2 contradict") {
		t.Fatalf("a warm start compared the decisions again:\n%s", text)
	}
	if r := check(); !strings.Contains(strings.Join(findingDetails(r), "\n"), "planted finding") {
		t.Fatalf("wake check compared the decisions again: %+v", r.Findings)
	}
	// The log changes: compared again, by the check and by the start.
	afero.WriteFile(fsys, root+"/warm/decisions.md", []byte(strings.Replace(log, "TOML", "JSON", 1)), 0o644)
	if r := check(); !strings.Contains(strings.Join(findingDetails(r), "\n"), `"yaml" against "json"`) {
		t.Fatalf("wake check on a changed log: %+v", r.Findings)
	}
	if text := start(); !strings.Contains(text, `"yaml" against "json"`) || strings.Contains(text, "planted") {
		t.Fatalf("a start on a changed log:\n%s", text)
	}
}

func findingDetails(r checks.Report) []string {
	var out []string
	for _, f := range r.Findings {
		out = append(out, f.Details...)
	}
	return out
}
