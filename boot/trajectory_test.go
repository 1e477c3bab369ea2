package boot

import (
	"fmt"
	"github.com/spf13/afero"
	"github.com/wakeproto/wake/cold"
	"github.com/wakeproto/wake/internal/demo"
	"strings"
	"testing"
	"time"
)

// TestTrajectoryHiddenNamesRisks: when not even one session's line fits,
// the section still says how many sessions and open risks it left out,
// so an open risk never vanishes unsaid.
func TestTrajectoryHiddenNamesRisks(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 11, 22, 3, 0, 0, 0, time.UTC)
	all := []TrajectoryEntry{
		{At: at, Path: "recent/latest.md", Summary: "second", Risk: "the VAT sums drift"},
		{At: at.Add(-time.Hour), Path: "recent/previous.md", Summary: "first", Risk: "the backups are untested"},
	}
	tr := &Trajectory{Sessions: 2, all: all, Risks: openRisks(all, 10)}
	tr.fit(5, encoder(t))
	var b strings.Builder
	writeTrajectory(&b, &Context{Trajectory: tr})
	if !strings.Contains(b.String(), "2 sessions and 2 open risks, not listed") {
		t.Fatalf("hidden trajectory:\n%s", b.String())
	}
}

// TestHookSummaryKeepsTrajectory: a hook too small for the whole context
// still carries what the last sessions handed on, their next priorities
// and the open risks, before the warnings.
func TestHookSummaryKeepsTrajectory(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 11, 22, 3, 0, 0, 0, time.UTC)
	all := []TrajectoryEntry{
		{At: at, Path: "recent/latest.md", Summary: "second", Next: "ship the importer", Risk: "the VAT sums drift"},
		{At: at.Add(-time.Hour), Path: "recent/previous.md", Summary: "first", Next: "write the importer"},
	}
	tr := &Trajectory{Sessions: 2, all: all, Risks: openRisks(all, 10)}
	tr.fit(500, encoder(t))
	c := &Context{Root: "/p/.wake", Trajectory: tr}
	for i := range 40 {
		c.Warnings = append(c.Warnings, fmt.Sprintf("w%02d %s", i, strings.Repeat("x", 100)))
	}
	out := Hook(c, HookTarget{BootPath: "/p/.wake/boot.md"}, 3000)
	for _, want := range []string{"## Trajectory", "Next: ship the importer. Risk: the VAT sums drift."} {
		if !strings.Contains(out, want) {
			t.Fatalf("the hook summary lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "w39 ") {
		t.Fatalf("a warning was kept while the limit cut:\n%s", out)
	}
}

// TestTrajectoryEachFactOnce: the newest session, which the announcement
// gives, is one short line; an open risk a listed line shows is not said
// again below; one whose line did not fit still is.
func TestTrajectoryEachFactOnce(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 11, 22, 3, 0, 0, 0, time.UTC)
	all := []TrajectoryEntry{
		{At: at, Summary: "second session shipped it", Next: "ship the importer", Risk: "the till drifts", announced: true},
		{At: at.Add(-time.Hour), Summary: "first", Next: "write the importer", Risk: "the VAT sums drift"},
	}
	tr := &Trajectory{Sessions: 2, all: all, Risks: openRisks(all, 10)}
	tr.fit(500, encoder(t))
	out := tr.Text()
	for want, n := range map[string]int{"the last session, as announced (its risk in the HANDOFF above).": 1,
		"second session shipped it": 0, "ship the importer": 0, "the till drifts": 0, "the VAT sums drift": 1, "Open risks": 0} {
		if got := strings.Count(out, want); got != n {
			t.Errorf("%q %d times, want %d:\n%s", want, got, n, out)
		}
	}
	// The older line squeezed out: its risk stays, below.
	tr = &Trajectory{Sessions: 2, all: all, Risks: openRisks(all, 10)}
	tr.Entries, tr.Unlisted = all[:1], 1
	if out := tr.Text(); !strings.Contains(out, "Open risks of sessions not listed above") || !strings.Contains(out, "- 2026-11-22: the VAT sums drift") || strings.Contains(out, "the till drifts") {
		t.Errorf("the risk of a session not listed is lost, or the HANDOFF's repeated:\n%s", out)
	}
}

// TestTrajectoryCopyOnce: the newest session's record read from the cold
// index, its long summary cut short there, and its whole copy in recent/
// are one session: one line.
func TestTrajectoryCopyOnce(t *testing.T) {
	t.Parallel()
	fsys := demoFS(t)
	long := "Automatic hand-off (the session ended without one): the agent's tools edited 1 file (greeting.txt), ran 1 command, recorded 1 decision; the user asked: “\"add a greeting file\"”"
	rec := "---\nsummary: '" + strings.ReplaceAll(long, "'", "''") + "'\nsession: 2026-11-22T03:00:00Z\nnext_priority: check it\n---\n# Session 2026-11-22\n\n## What happened\n- things\n"
	afero.WriteFile(fsys, "/demo/cold/sessions/2026-11-22T03-00-00Z-ab12cd.md", []byte(rec), 0o644)
	afero.WriteFile(fsys, "/demo/recent/latest.md", []byte(rec), 0o644)
	cfg := demo.Config(t, fsys)
	// As a start does: through the cold index.
	c, err := Build(Options{FS: fsys, Root: "/demo", Config: cfg, Counter: encoder(t), Now: func() time.Time { return demoTime },
		ColdIndex: cold.OpenIndex(fsys, "/demo", cfg.Encoding)})
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(c.Trajectory.Text(), "2026-11-22 03:00Z"); n != 1 {
		t.Errorf("the session has %d trajectory lines:\n%s", n, c.Trajectory.Text())
	}
}

// TestCommentsLeftOut: the boot context leaves out a file's HTML comments
// (notes to a hand editor), but not text a "comment" would swallow
// across a code fence.
func TestCommentsLeftOut(t *testing.T) {
	t.Parallel()
	fsys := demoFS(t)
	body := "# Open questions\n\n<!-- Add one with - -->\n- Is VAT per invoice?\n\n```html\n<!-- in a fence\n```\n- Kept after the fence\n\nEnd -->\n"
	afero.WriteFile(fsys, "/demo/warm/open_questions.md", []byte(body), 0o644)
	_, md := build(t, fsys, demo.Config(t, fsys), encoder(t))
	if strings.Contains(md, "Add one with") || !strings.Contains(md, "Is VAT per invoice?") || !strings.Contains(md, "- Kept after the fence") {
		t.Errorf("the comments are not left out, or a fence's text is lost:\n%s", md)
	}
}

// TestTrajectoryTwoSessionsOfOneSecond: two sessions of two clones that
// handed off in the same second with the same summary, one with an open
// risk and one without, are two sessions, not a record and its copy: the
// risk stays in view.
func TestTrajectoryTwoSessionsOfOneSecond(t *testing.T) {
	t.Parallel()
	fsys := demoFS(t)
	rec := func(risk string) string {
		return "---\nsummary: Set up the till\nsession: 2026-11-22T03:00:00Z\nnext_priority: check it\nopen_risk: '" + risk + "'\n---\n# Session 2026-11-22\n\n## What happened\n- things\n"
	}
	afero.WriteFile(fsys, "/demo/cold/sessions/2026-11-22T03-00-00Z-aaaaaa.md", []byte(rec("")), 0o644)
	afero.WriteFile(fsys, "/demo/cold/sessions/2026-11-22T03-00-00Z-zzzzzz.md", []byte(rec("the till drifts")), 0o644)
	cfg := demo.Config(t, fsys)
	for _, index := range []bool{false, true} {
		o := Options{FS: fsys, Root: "/demo", Config: cfg, Counter: encoder(t), Now: func() time.Time { return demoTime }}
		if index {
			o.ColdIndex = cold.OpenIndex(fsys, "/demo", cfg.Encoding)
		}
		c, err := Build(o)
		if err != nil {
			t.Fatal(err)
		}
		if text := c.Trajectory.Text(); strings.Count(text, "2026-11-22 03:00Z") != 2 || !strings.Contains(text, "the till drifts") {
			t.Errorf("index %v: two sessions of one second, one with a risk:\n%s", index, text)
		}
	}
}

// TestStripComments: comments on lines of their own go; code keeps its
// comments, fenced or indented, and so does a comment a fence interrupts,
// one that never closes or one with text after its close.
func TestStripComments(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ in, want string }{
		{"a\n<!-- note -->\nb\n", "a\nb\n"},
		{"a\n  <!-- two\nlines -->  \nb\n", "a\nb\n"},
		{"```html\n<!-- SPDX-License-Identifier: MIT -->\n<!doctype html>\n```\n", "```html\n<!-- SPDX-License-Identifier: MIT -->\n<!doctype html>\n```\n"},
		{"~~~~\n<!-- x -->\n~~~\nstill code\n~~~~\n<!-- y -->\nz\n", "~~~~\n<!-- x -->\n~~~\nstill code\n~~~~\nz\n"},
		{"text\n\n    <!-- indented code: keep me -->\n", "text\n\n    <!-- indented code: keep me -->\n"},
		{"\t<!-- tab code -->\n", "\t<!-- tab code -->\n"},
		{"<!-- spans\n```\ncode\n```\n-->\n", "<!-- spans\n```\ncode\n```\n-->\n"},
		{"<!-- never closes\nb\n", "<!-- never closes\nb\n"},
		{"<!-- c --> text after\n", "<!-- c --> text after\n"},
		{"no comment\n", "no comment\n"},
		{"<!-- last line without end -->", ""},
	} {
		if got := stripComments(c.in); got != c.want {
			t.Errorf("stripComments(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestAnnouncedOnlyWhenAnnounced (from the review): conflict markers in
// the inbox put a failure in the announcement's "Resumed. …" line's
// place; the HANDOFF and the trajectory then say the last session in full,
// not "as announced".
func TestAnnouncedOnlyWhenAnnounced(t *testing.T) {
	t.Parallel()
	fsys := demoFS(t)
	_, md := build(t, fsys, demo.Config(t, fsys), encoder(t))
	if !strings.Contains(md, "session_summary: as announced") {
		t.Fatalf("the demo's HANDOFF is not 'as announced' to begin with:\n%s", md)
	}
	afero.WriteFile(fsys, "/demo/warm/inbox.md", []byte("# Inbox\n\n<<<<<<< HEAD\n- [ ] one\n=======\n- [ ] two\n>>>>>>> other\n"), 0o644)
	c, md := build(t, fsys, demo.Config(t, fsys), encoder(t))
	if strings.Contains(c.Announcement, "Resumed.") {
		t.Fatalf("the markers did not take the Resumed line's place:\n%s", c.Announcement)
	}
	if strings.Contains(md, "as announced") {
		t.Errorf("the context says 'as announced' of what the announcement no longer says:\n%s", md)
	}
}

// TestTOCNamesOnlyListedRecords (from the review): with a trajectory too
// small for every session, the table of contents names by the
// Trajectory only the records the trajectory lists; the others keep their
// summaries, which would otherwise be nowhere in the context.
func TestTOCNamesOnlyListedRecords(t *testing.T) {
	t.Parallel()
	fsys := demoFS(t)
	for i := range 14 {
		at := time.Date(2026, 11, 1+i, 9, 0, 0, 0, time.UTC)
		rec := fmt.Sprintf("---\nsummary: Session number %d did its own distinct work\nsession: %s\nnext_priority: go on\n---\n# Session\n\n## What happened\n- things\n", i, at.Format(time.RFC3339))
		afero.WriteFile(fsys, "/demo/cold/sessions/"+at.Format("2006-01-02T15-04-05Z")+"-abcdef.md", []byte(rec), 0o644)
	}
	cfg := demo.Config(t, fsys)
	cfg.Budget.Trajectory = 120
	c, err := Build(Options{FS: fsys, Root: "/demo", Config: cfg, Counter: encoder(t), Now: func() time.Time { return demoTime }})
	if err != nil {
		t.Fatal(err)
	}
	listed := len(c.Trajectory.Entries)
	toc := c.TOC.Text()
	if listed == 0 || listed >= 10 {
		t.Fatalf("the test wants a trajectory listing a few sessions, not %d:\n%s", listed, c.Trajectory.Text())
	}
	if n := strings.Count(toc, "its line is in the Trajectory"); n > listed {
		t.Errorf("%d records named by the Trajectory, which lists %d:\n%s", n, listed, toc)
	}
	if !strings.Contains(toc, "Session number 0 did its own distinct work") {
		t.Errorf("the oldest session, which the trajectory does not list, has no summary in the table of contents:\n%s", toc)
	}
}
