package report_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/boot"
	"github.com/wakeproto/wake/internal/demo"
	"github.com/wakeproto/wake/internal/golden"
	"github.com/wakeproto/wake/report"
	"github.com/wakeproto/wake/tiers"
)

func build(t *testing.T, fsys afero.Fs) *boot.Context {
	t.Helper()
	cfg := demo.Config(t, fsys)
	enc := demo.Encoder(t)
	ctx, err := boot.Build(boot.Options{FS: fsys, Root: "/demo", Config: cfg, Counter: enc, Now: func() time.Time { return demo.Time }})
	if err != nil {
		t.Fatal(err)
	}
	ctx.Measure(enc)
	return ctx
}

// TestLoadDemoGolden fixes the schema of `wake load --format json` on the
// demo root: a change of a domain struct that changes it fails here.
func TestLoadDemoGolden(t *testing.T) {
	t.Parallel()
	ctx := build(t, demo.FS(t))
	data, err := report.LoadJSON(ctx)
	if err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "demo.load.json", string(data))
	var back report.Load
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	if back.Version != report.Version || back.TOC == nil || back.Digest == nil || back.Totals.Output != ctx.Totals.Output {
		t.Fatalf("JSON lacks the version, the TOC, the digest or the totals: %+v", back)
	}
}

// TestLoadJSONHoldsBack: the JSON of a context with a secret and a
// confidential tier file shows neither's text, and counts both.
func TestLoadJSONHoldsBack(t *testing.T) {
	t.Parallel()
	fsys := demo.FS(t)
	afero.WriteFile(fsys, "/demo/warm/open_questions.md", []byte("---\nsensitivity: secret\nsummary: keys\n---\n- The root password is hunter2.\n"), 0o644)
	afero.WriteFile(fsys, "/demo/warm/decisions.md", []byte("---\nsensitivity: confidential\nsummary: Decisions about pricing\n---\n"+
		"[2026-01-01] DECISION: Use margin 40 percent for bread BECAUSE: costs\nSTATUS: active\nTOPIC: margin\n"), 0o644)
	data, err := report.LoadJSON(build(t, fsys))
	if err != nil {
		t.Fatal(err)
	}
	for _, leak := range []string{"hunter2", "40 percent", "keys"} {
		if strings.Contains(string(data), leak) {
			t.Errorf("JSON shows held-back text %q", leak)
		}
	}
	var back report.Load
	json.Unmarshal(data, &back)
	if back.HeldBack.Secret != 1 || back.HeldBack.Confidential != 1 || back.HeldBack.Redacted != nil {
		t.Errorf("held_back %+v, want 1 secret, 1 confidential", back.HeldBack)
	}
}

// TestStatusJSONFlagsHugeFiles: a file over the read limit is flagged
// huge with its real size, and the memory total says what it counts.
func TestStatusJSONFlagsHugeFiles(t *testing.T) {
	t.Parallel()
	fsys := demo.FS(t)
	huge := strings.Repeat("- an open question that goes on\n", tiers.MaxDocBytes/32+10)
	afero.WriteFile(fsys, "/demo/warm/open_questions.md", []byte(huge), 0o644)
	ctx, err := boot.Read(boot.Options{FS: fsys, Root: "/demo", Config: tiers.DefaultConfig(), Counter: demo.Encoder(t)})
	if err != nil {
		t.Fatal(err)
	}
	data, err := report.StatusJSON(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var out report.Status
	if err := json.Unmarshal(data, &out); err != nil {
		t.Fatal(err)
	}
	if len(out.Files) != len(ctx.Files()) {
		t.Fatalf("%d files in the JSON, %d in the context", len(out.Files), len(ctx.Files()))
	}
	for _, f := range out.Files {
		if want := f.Path == tiers.QuestionsPath; f.Huge != want || want && f.Bytes != int64(len(huge)) {
			t.Errorf("JSON %s: huge %v, bytes %d", f.Path, f.Huge, f.Bytes)
		}
	}
	if !strings.HasPrefix(out.Scope, "tier files") {
		t.Errorf("memory_counts %q", out.Scope)
	}
}
