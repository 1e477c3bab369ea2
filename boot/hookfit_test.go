package boot

import (
	"fmt"
	"strings"
	"testing"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/internal/demo"
	"github.com/wakeproto/wake/tiers"
)

// TestHookFitKeepsWhatMatters: a boot context three times Codex's limit
// reaches Codex with the announcement, the checks, main.md's HANDOFF, the
// trajectory, the newest decisions in force and the open tasks, in the
// context's order, within the limit; what was left out is named, with
// the file to read it in (issue 26, point 3). The parts worth less (a
// long previous session, the cold listing) are the ones left out.
func TestHookFitKeepsWhatMatters(t *testing.T) {
	t.Parallel()
	fsys := demoFS(t)
	cfg := demo.Config(t, fsys)
	// A long previous session and many older decisions in force.
	prev, _ := afero.ReadFile(fsys, "/demo/"+tiers.PreviousPath)
	var long strings.Builder
	for i := range 250 {
		fmt.Fprintf(&long, "- Step %d of the importer rework, described at length so the file grows well past the hook's limit.\n", i)
	}
	afero.WriteFile(fsys, "/demo/"+tiers.PreviousPath, []byte(strings.Replace(string(prev), "## What happened\n", "## What happened\n"+long.String(), 1)), 0o644)
	dec, _ := afero.ReadFile(fsys, "/demo/"+tiers.DecisionsPath)
	var older strings.Builder
	for i := range 120 {
		fmt.Fprintf(&older, "[2025-01-%02d] DECISION: Keep rule %d of the old ledger format BECAUSE: the auditors asked for it in the first year\nSTATUS: active\nTOPIC: ledger rule %d\n\n", i%28+1, i, i)
	}
	afero.WriteFile(fsys, "/demo/"+tiers.DecisionsPath, []byte(strings.Replace(string(dec), "# Decisions\n\n", "# Decisions\n\n"+older.String(), 1)), 0o644)
	ctx, md := build(t, fsys, cfg, encoder(t))
	if len(md) < 3*Codex.Limit {
		t.Fatalf("the context is %d bytes, want three times Codex's %d", len(md), Codex.Limit)
	}
	out := HookFor(ctx, HookTarget{BootPath: "/p/.wake/boot.md"}, Codex)
	if len(out) > Codex.Limit {
		t.Fatalf("%d bytes, over Codex's %d", len(out), Codex.Limit)
	}
	for _, want := range []string{
		ctx.Announcement[:40],
		"## HANDOFF",
		"next_priority:",
		"## Trajectory",
		"Write one importer per bank",         // the newest decision in force
		"Round VAT per invoice, not per line", // an open task
		"## Left out",
		"recent/previous.md",
		"warm/decisions.md (",
		"read /p/.wake/boot.md",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the hook text lacks %q", want)
		}
	}
	// In the context's order: the HANDOFF, the tasks, the decisions.
	if h, k, d := strings.Index(out, "## HANDOFF"), strings.Index(out, "Round VAT per invoice"), strings.Index(out, "Write one importer per bank"); !(h < k && k < d) {
		t.Errorf("out of order: HANDOFF at %d, tasks at %d, decisions at %d", h, k, d)
	}
	if strings.Contains(out, "Step 249 of the importer rework") {
		t.Error("the long previous session's end is shown while what matters more had to be cut")
	}
	if t.Failed() || testing.Verbose() {
		t.Logf("%s", out)
	}
}

// TestHookFitNeverOverLimit: whatever the limit, the fitted text stays
// within it, counted as the client counts (bytes, UTF-16 units), phase
// headings, the cold listing and the note included.
func TestHookFitNeverOverLimit(t *testing.T) {
	t.Parallel()
	fsys := demoFS(t)
	cfg := demo.Config(t, fsys)
	for i := range 60 {
		afero.WriteFile(fsys, fmt.Sprintf("/demo/cold/notes/n%02d.md", i), []byte(fmt.Sprintf("---\nsummary: Note %d about the bakery's ovens, flour and the 😀 of the day\n---\nbody\n", i)), 0o644)
	}
	prev, _ := afero.ReadFile(fsys, "/demo/"+tiers.PreviousPath)
	afero.WriteFile(fsys, "/demo/"+tiers.PreviousPath, []byte(strings.Replace(string(prev), "## What happened\n", "## What happened\n"+strings.Repeat("- a long step of the work, told at length — é😀\n", 80), 1)), 0o644)
	cfg.Budget.TOC = 20000 // the cold listing whole: a long section of its own
	ctx, _ := build(t, fsys, cfg, encoder(t))
	for _, s := range ctx.Sections() {
		if s.Title == "Phase 4: cold" && len(s.Text) < 3000 {
			t.Fatalf("the cold listing is %d bytes: too short to test", len(s.Text))
		}
	}
	for _, h := range []HookClient{Codex, ClaudeCode} {
		for limit := 400; limit <= 12000; limit += 173 {
			h.Limit = limit
			out := hookFit(ctx, HookTarget{BootPath: "/p/.wake/boot.md"}, h)
			if n := h.Len(out); n > limit {
				t.Fatalf("%s, limit %d: %d units", h.Name, limit, n)
			}
		}
	}
}
