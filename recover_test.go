package wake_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake"
	"github.com/wakeproto/wake/handoff"
	"github.com/wakeproto/wake/tiers"
	"github.com/wakeproto/wake/transcript"
)

// TestRecoverMissed: a fresh session's start hands off the earlier
// session of its client that worked and left no hand-off (killed before
// any hook ran), from the transcript beside its own, marked recovered;
// once. A transcript written to lately (perhaps a session still open),
// one of a session in another project, and one whose session did no
// work are left alone.
func TestRecoverMissed(t *testing.T) {
	t.Parallel()
	m, fsys, now := autoMemory(t) // 10:00, a hand-off at 09:00
	ctx := context.Background()
	dir := "/h/.claude/projects/-p/"
	write := func(name, text string, age time.Duration) {
		t.Helper()
		if err := afero.WriteFile(fsys, dir+name, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		at := now.Add(-age)
		if err := fsys.Chtimes(dir+name, at, at); err != nil {
			t.Fatal(err)
		}
	}
	write("killed.jsonl", claudeTurn("killed", now.Add(-50*time.Minute), "write the report", "report.txt"), 40*time.Minute)
	write("open.jsonl", claudeTurn("open", now.Add(-5*time.Minute), "write the plan", "plan.txt"), time.Minute)
	write("elsewhere.jsonl", strings.ReplaceAll(claudeTurn("elsewhere", now.Add(-50*time.Minute), "write the menu", "menu.txt"), `"cwd":"/p"`, `"cwd":"/q"`), 30*time.Minute)
	write("talk.jsonl", `{"type":"user","message":{"role":"user","content":"what is VAT?"},"timestamp":"`+now.Add(-45*time.Minute).Format(time.RFC3339)+`","cwd":"/p","sessionId":"talk"}
`, 35*time.Minute)
	write("now.jsonl", claudeTurn("now", *now, "hello", "x.txt"), 0)

	recs, err := m.RecoverMissed(ctx, wake.RecoverOptions{Transcript: dir + "now.jsonl", Format: transcript.Claude, Boot: wake.BootFiles{NoSkill: true}})
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 1 || recs[0].Transcript != dir+"killed.jsonl" {
		t.Fatalf("recovered %+v, want killed.jsonl alone", recs)
	}
	latest := readMem(t, fsys, "/p/.wake/recent/latest.md")
	if !strings.Contains(latest, handoff.RecoveredPrefix) || !strings.Contains(latest, "report.txt") || !strings.Contains(latest, "write the report") {
		t.Fatalf("recent/latest.md:\n%s", latest)
	}
	// The next start recovers nothing more: each transcript read once,
	// the killed session handed off.
	*now = now.Add(time.Minute)
	if recs, err = m.RecoverMissed(ctx, wake.RecoverOptions{Transcript: dir + "now.jsonl", Format: transcript.Claude, Boot: wake.BootFiles{NoSkill: true}}); err != nil || len(recs) != 0 {
		t.Fatalf("a second start recovered %+v (%v)", recs, err)
	}
	// Once the open session has been quiet long enough, it is recovered
	// too; its transcript read again, since it changed.
	*now = now.Add(time.Hour)
	if recs, err = m.RecoverMissed(ctx, wake.RecoverOptions{Transcript: dir + "now.jsonl", Format: transcript.Claude, Boot: wake.BootFiles{NoSkill: true}}); err != nil || len(recs) != 1 || recs[0].Transcript != dir+"open.jsonl" {
		t.Fatalf("an hour later, recovered %+v (%v), want open.jsonl", recs, err)
	}
	ledger := readMem(t, fsys, "/p/.wake/ledger.jsonl")
	n := 0
	for _, l := range strings.Split(ledger, "\n") {
		if strings.Contains(l, `"op":"handoff"`) && strings.Contains(l, handoff.RecoveredPrefix) {
			n++
		}
	}
	if n != 2 {
		t.Errorf("the ledger holds %d recovered hand-offs, want 2", n)
	}
	if strings.Contains(ledger, "menu.txt") || strings.Contains(ledger, "what is VAT") {
		t.Errorf("another project's session, or one that did nothing, was handed off:\n%s", ledger)
	}
}

// TestRecoverLeavesANewerHandoff: a session that left no hand-off, after
// whose last word another session handed off, is not recovered: its
// automatic hand-off would take the HANDOFF from the newer one. It is
// named in a warning instead.
func TestRecoverLeavesANewerHandoff(t *testing.T) {
	t.Parallel()
	m, fsys, now := autoMemory(t) // 10:00, a hand-off at 09:00
	ctx := context.Background()
	dir := "/h/.claude/projects/-p/"
	afero.WriteFile(fsys, dir+"crashed.jsonl", []byte(claudeTurn("crashed", now.Add(-50*time.Minute), "write the report", "report.txt")), 0o644)
	at := now.Add(-45 * time.Minute)
	fsys.Chtimes(dir+"crashed.jsonl", at, at)
	// Another session hands off after it.
	*now = now.Add(-10 * time.Minute)
	in := handoff.Input{Session: tiers.Session{Summary: "Shipped the importer", NextPriority: "Send the report"}, SessionID: "b"}
	if _, err := m.Handoff(ctx, in, wake.BootFiles{NoSkill: true}); err != nil {
		t.Fatal(err)
	}
	*now = now.Add(10 * time.Minute)
	recs, err := m.RecoverMissed(ctx, wake.RecoverOptions{Transcript: dir + "now.jsonl", Format: transcript.Claude, Boot: wake.BootFiles{NoSkill: true}})
	if err != nil || len(recs) != 0 {
		t.Fatalf("recovered %+v (%v), want none", recs, err)
	}
	if latest := readMem(t, fsys, "/p/.wake/recent/latest.md"); !strings.Contains(latest, "Shipped the importer") {
		t.Fatalf("the newer hand-off lost its place:\n%s", latest)
	}
}

// TestRecoverAfterItsOwnHandoff: a session that handed off, went on
// working and was killed is recovered for the work after its hand-off:
// its own hand-off does not hold it back.
func TestRecoverAfterItsOwnHandoff(t *testing.T) {
	t.Parallel()
	m, fsys, now := autoMemory(t) // 10:00, a hand-off at 09:00
	ctx := context.Background()
	dir := "/h/.claude/projects/-p/"
	t0 := now.Add(-50 * time.Minute)
	text := claudeTurn("own", t0, "write the report", "report.txt")
	// Its own hand-off at 09:15, then more work.
	*now = t0.Add(5 * time.Minute)
	in := handoff.Input{Session: tiers.Session{Summary: "Wrote the report", NextPriority: "Write the plan"}, SessionID: "own"}
	if _, err := m.Handoff(ctx, in, wake.BootFiles{NoSkill: true}); err != nil {
		t.Fatal(err)
	}
	text += claudeTurn("own", t0.Add(10*time.Minute), "write the plan", "plan.txt")
	afero.WriteFile(fsys, dir+"own.jsonl", []byte(text), 0o644)
	at := t0.Add(11 * time.Minute)
	fsys.Chtimes(dir+"own.jsonl", at, at)
	*now = t0.Add(50 * time.Minute)
	recs, err := m.RecoverMissed(ctx, wake.RecoverOptions{Transcript: dir + "now.jsonl", Format: transcript.Claude, Boot: wake.BootFiles{NoSkill: true}})
	if err != nil || len(recs) != 1 {
		t.Fatalf("recovered %+v (%v), want the session's work after its hand-off", recs, err)
	}
	latest := readMem(t, fsys, "/p/.wake/recent/latest.md")
	if !strings.Contains(latest, "plan.txt") || strings.Contains(latest, "report.txt (Write)") {
		t.Errorf("the recovered hand-off does not cover the work after the session's own, alone:\n%s", latest)
	}
}
