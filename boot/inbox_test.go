package boot

import (
	"fmt"
	"strings"
	"testing"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/budget"
	"github.com/wakeproto/wake/internal/demo"
	"github.com/wakeproto/wake/internal/golden"
	"github.com/wakeproto/wake/tiers"
)

// demoInbox has three open reminders, one closed and one done, with a
// pasted token in one.
const demoInbox = `# Remember later

Reminders to pick up later.

## 1 · 2026-11-20T09:00:00Z
- reminder: Outline the onboarding UX spike
- topic: ux
- next: Review the mockups
- tags: ux, spike

## 2 · 2026-11-20T10:00:00Z
- reminder: Taken up already
- consumed: main/20261120T110000Z at 2026-11-20T11:00:00Z

## 3 · 2026-11-21T08:30:00Z
- reminder: Rotate the deploy token ghp_0123456789abcdefghijABCDEFGHIJ0123456789
- next: ask ops

## 4 · 2026-11-21T09:00:00Z
- reminder: Closed by hand
- done: not needed at 2026-11-21T10:00:00Z

## 5 · 2026-11-21T12:00:00Z
- reminder: Check why the nightly build is slow
- topic: ci
`

// TestLoadOpenRemindersGolden: the open reminders have a section of their
// own after phase 3, newest first, scrubbed, counted in the footer; the
// rest of the context is the demo's as it was.
func TestLoadOpenRemindersGolden(t *testing.T) {
	t.Parallel()
	fsys := demoFS(t)
	cfg := demo.Config(t, fsys)
	afero.WriteFile(fsys, "/demo/"+tiers.InboxPath, []byte(demoInbox), 0o644)
	enc := encoder(t)
	ctx, md := build(t, fsys, cfg, enc)
	golden.Check(t, "demo-reminders.load.md", md)

	r := ctx.Reminders
	if r == nil || r.Open != 3 || len(r.Entries) != 3 || r.Entries[0].N != 5 || r.Entries[2].N != 1 || r.Tokens != enc.Count(r.Text()) {
		t.Fatalf("%+v", r)
	}
	if strings.Contains(md, "ghp_") || ctx.HeldBack.Redacted.Total() != 1 {
		t.Fatalf("the token was not scrubbed (%v)", ctx.HeldBack.Redacted)
	}
	section := "\n## Open reminders\n\n- #5 2026-11-21 [ci] Check why the nightly build is slow\n"
	i, j, k := strings.Index(md, "\n## Phase 3"), strings.Index(md, section), strings.Index(md, "\n## Phase 4")
	if i < 0 || j < i || k < j {
		t.Fatalf("the section is not between phase 3 and phase 4:\n%s", md)
	}
	if !strings.Contains(md, fmt.Sprintf("| open reminders | %d | %d |", r.Tokens, cfg.Budget.Inbox)) {
		t.Fatal("no footer row")
	}
	// The section counts in memory: without it the footer's memory is
	// exactly its tokens fewer.
	plain, _ := build(t, demoFS(t), cfg, enc)
	if ctx.Totals.Memory != plain.Totals.Memory+r.Tokens {
		t.Fatalf("memory %d, without the inbox %d, reminders %d", ctx.Totals.Memory, plain.Totals.Memory, r.Tokens)
	}
	var titles []string
	for _, s := range ctx.Sections() {
		titles = append(titles, s.Title)
	}
	if !strings.Contains(strings.Join(titles, "|"), "|warm/open_questions.md|Trajectory|Open reminders|") {
		t.Fatalf("sections: %v", titles)
	}
}

// No open reminder, no section: the context is byte for byte the one
// without an inbox.
func TestLoadNoOpenReminders(t *testing.T) {
	t.Parallel()
	enc := encoder(t)
	cfg := demo.Config(t, demoFS(t))
	_, plain := build(t, demoFS(t), cfg, enc)
	closed := "## 1 · 2026-11-20\n- reminder: x\n- done: y at 2026-11-20T10:00:00Z\n"
	for _, inbox := range []string{"", "# Remember later\n", closed} {
		fsys := demoFS(t)
		afero.WriteFile(fsys, "/demo/"+tiers.InboxPath, []byte(inbox), 0o644)
		ctx, md := build(t, fsys, cfg, enc)
		if ctx.Reminders != nil || md != plain {
			t.Fatalf("%q: the context changed", inbox)
		}
	}
}

func manyReminders(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "## %d · 2026-11-%02dT10:00:00Z\n- reminder: Reminder number %d about a thing to look at later\n\n", i, i%28+1, i)
	}
	return b.String()
}

// Over budget.inbox the oldest go first, each cut recorded, and a line
// counts them; the section stays within its budget, counted exactly.
func TestLoadRemindersFitBudget(t *testing.T) {
	t.Parallel()
	fsys := demoFS(t)
	cfg := demo.Config(t, fsys)
	cfg.Budget.Inbox = 80
	afero.WriteFile(fsys, "/demo/"+tiers.InboxPath, []byte(manyReminders(20)), 0o644)
	enc := encoder(t)
	ctx, md := build(t, fsys, cfg, enc)
	r := ctx.Reminders
	if r.Tokens > 80 || r.Tokens != enc.Count(r.Text()) || r.Unlisted == 0 || len(r.Entries)+r.Unlisted != 20 {
		t.Fatalf("%d tokens, %d listed, %d unlisted", r.Tokens, len(r.Entries), r.Unlisted)
	}
	if r.Entries[0].N != 20 || r.Entries[len(r.Entries)-1].N != 20-len(r.Entries)+1 {
		t.Fatalf("not the newest: %+v", r.Entries)
	}
	if !strings.Contains(md, fmt.Sprintf("- %d more open, not listed: `wake remember list`\n", r.Unlisted)) {
		t.Fatalf("no count line:\n%s", r.Text())
	}
	var cuts []budget.Cut
	for _, c := range ctx.Cuts() {
		if c.Where == tiers.InboxPath {
			cuts = append(cuts, c)
		}
	}
	if len(cuts) != r.Unlisted || cuts[0].What != "- #1 2026-11-02 Reminder number 1 about a thing to look at later" || cuts[0].Tokens == 0 {
		t.Fatalf("cuts: %+v", cuts)
	}

	// A budget too small for even the count: nothing listed, the section
	// says how many and where.
	cfg.Budget.Inbox = 3
	ctx, md = build(t, fsys, cfg, enc)
	if ctx.Reminders.Tokens != 0 || !strings.Contains(md, "\n## Open reminders\n\n20 open reminders, not listed (they do not fit budget.inbox): `wake remember list`.\n") {
		t.Fatalf("%+v", ctx.Reminders)
	}
	// Its last cut is the count line that did not fit, with its tokens.
	cuts = cuts[:0]
	for _, c := range ctx.Cuts() {
		if c.Where == tiers.InboxPath {
			cuts = append(cuts, c)
		}
	}
	if last := cuts[len(cuts)-1]; !strings.Contains(last.What, "20 more open") || last.Tokens != enc.Count(ctx.Reminders.moreLine(20)) {
		t.Fatalf("the last cut is %+v, not the count line", last)
	}
}

// Under memory_max the reminders give way after the digest and the table
// of contents, before any tier file.
func TestLoadRemindersSqueezed(t *testing.T) {
	t.Parallel()
	fsys := demoFS(t)
	cfg := demo.Config(t, fsys)
	afero.WriteFile(fsys, "/demo/"+tiers.InboxPath, []byte(manyReminders(8)), 0o644)
	enc := encoder(t)
	full, md := build(t, fsys, cfg, enc)
	extras := full.TOC.Tokens + full.Digest.Tokens
	if full.Reminders.Tokens == 0 || extras == 0 {
		t.Fatalf("nothing to squeeze: %+v", full.Reminders)
	}
	// Room for everything but half the reminders.
	cfg.Budget.MemoryMax = enc.Count(md) - extras - 8 - full.Reminders.Tokens/2
	cfg.ContextWindow = cfg.Budget.MemoryMax + cfg.Budget.WorkMin
	ctx, md := build(t, fsys, cfg, enc)
	r := ctx.Reminders
	if enc.Count(md) > cfg.Budget.MemoryMax || !r.Squeezed || r.Tokens >= full.Reminders.Tokens || ctx.Digest.Tokens != 0 || ctx.TOC.Tokens != 0 {
		t.Fatalf("%d tokens (max %d); reminders %+v; digest %d, toc %d", enc.Count(md), cfg.Budget.MemoryMax, r, ctx.Digest.Tokens, ctx.TOC.Tokens)
	}
	for _, f := range ctx.Files() {
		if f.Truncated {
			t.Fatalf("%s was cut before the reminders were emptied", f.Path)
		}
	}
}

// A confidential inbox: the section gives its summary and count only; a
// secret one: no section, counted as held back.
func TestLoadHeldBackInbox(t *testing.T) {
	t.Parallel()
	enc := encoder(t)
	for _, lvl := range []string{tiers.Confidential, tiers.Secret} {
		fsys := demoFS(t)
		cfg := demo.Config(t, fsys)
		afero.WriteFile(fsys, "/demo/"+tiers.InboxPath, []byte("---\nsensitivity: "+lvl+"\nsummary: chores for ops\n---\n"+manyReminders(3)), 0o644)
		plain, _ := build(t, demoFS(t), cfg, enc)
		ctx, md := build(t, fsys, cfg, enc)
		if strings.Contains(md, "Reminder number") {
			t.Fatalf("%s: a reminder is shown:\n%s", lvl, md)
		}
		switch lvl {
		case tiers.Confidential:
			if ctx.HeldBack.Confidential != plain.HeldBack.Confidential+1 ||
				!strings.Contains(md, "\n## Open reminders\n\nwarm/inbox.md is confidential: 3 open reminders, summary only.\nSummary: chores for ops\n") {
				t.Fatalf("%s:\n%s", lvl, md)
			}
		case tiers.Secret:
			if ctx.Reminders != nil || ctx.HeldBack.Secret != plain.HeldBack.Secret+1 || strings.Contains(md, "Open reminders") || !strings.Contains(md, "secret document") {
				t.Fatalf("%s:\n%s", lvl, md)
			}
		}
	}
}

// The Claude hook's delta names the section when a reminder is added, and
// says it went when the last one is closed.
func TestHookDeltaOpenReminders(t *testing.T) {
	t.Parallel()
	enc := encoder(t)
	fsys := demoFS(t)
	cfg := demo.Config(t, fsys)
	_, before := build(t, fsys, cfg, enc)
	afero.WriteFile(fsys, "/demo/"+tiers.InboxPath, []byte(manyReminders(1)), 0o644)
	ctx, with := build(t, fsys, cfg, enc)
	h := HookClient{Import: "CLAUDE.md", Limit: 100000, Unit: budget.Bytes}
	out := HookFor(ctx, HookTarget{BootPath: "/p/.wake/boot.md", Before: before, BeforeRead: true}, h)
	if !strings.Contains(out, "\n## Open reminders\n") || !strings.Contains(out, "- #1 2026-11-02 Reminder number 1") || strings.Contains(out, "## Budget") {
		t.Fatalf("%s", out)
	}
	afero.WriteFile(fsys, "/demo/"+tiers.InboxPath, []byte(manyReminders(1)+"- done: x at 2026-11-03T00:00:00Z\n"), 0o644)
	ctx, _ = build(t, fsys, cfg, enc)
	out = HookFor(ctx, HookTarget{BootPath: "/p/.wake/boot.md", Before: with, BeforeRead: true}, h)
	if !strings.Contains(out, "No longer in it (disregard them in the imported copy): Open reminders.") {
		t.Fatalf("%s", out)
	}
}

// A hook too small for the whole context still carries the open
// reminders in its summary.
func TestHookSummaryOpenReminders(t *testing.T) {
	t.Parallel()
	enc := encoder(t)
	fsys := demoFS(t)
	cfg := demo.Config(t, fsys)
	afero.WriteFile(fsys, "/demo/"+tiers.InboxPath, []byte(manyReminders(2)), 0o644)
	ctx, md := build(t, fsys, cfg, enc)
	out := HookFor(ctx, HookTarget{BootPath: "/p/.wake/boot.md"}, HookClient{Limit: len(md) / 2, Unit: budget.Bytes})
	if len(out) > len(md)/2 || !strings.Contains(out, "Open reminders") || !strings.Contains(out, "- #2 2026-11-03 Reminder number 2") {
		t.Fatalf("%s", out)
	}
}
