package wake_test

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake"
	"github.com/wakeproto/wake/budget"
	"github.com/wakeproto/wake/capsule"
	"github.com/wakeproto/wake/handoff"
	"github.com/wakeproto/wake/internal/demo"
	"github.com/wakeproto/wake/internal/golden"
	"github.com/wakeproto/wake/internal/memlock"
	"github.com/wakeproto/wake/tiers"
)

// capsuleClock is the fixed clock of the capsule tests: a day after the
// demo root was written.
var capsuleClock = demo.Time.Add(24 * time.Hour)

// capsuleRoot opens the demo root with extraToml appended to its
// wake.toml, at a clock the test may move.
func capsuleRoot(t *testing.T, extraToml string, now *time.Time) (afero.Fs, *wake.Memory, *[]wake.Notice) {
	t.Helper()
	fsys := demo.FS(t)
	if extraToml != "" {
		data, _ := afero.ReadFile(fsys, "/demo/wake.toml")
		if err := afero.WriteFile(fsys, "/demo/wake.toml", append(data, extraToml...), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	enc := demo.Encoder(t)
	var notes []wake.Notice
	o := wake.Options{FS: fsys, Env: map[string]string{"HOME": "/home", "PATH": os.Getenv("PATH")}, Now: func() time.Time { return *now },
		Locker: &memlock.Locker{}, Encoder: func(string) (*budget.Encoder, error) { return enc, nil },
		Notify: func(n wake.Notice) { notes = append(notes, n) }}
	m, err := wake.Open("/demo", o)
	if err != nil {
		t.Fatal(err)
	}
	return fsys, m, &notes
}

func write(t *testing.T, fsys afero.Fs, name, text string) {
	t.Helper()
	if err := afero.WriteFile(fsys, name, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestCapsuleDemo builds a capsule of the demo root with a reminder in
// its inbox and a Claude Code transcript: the file is the golden one, the
// reminder is consumed by the capsule's id, and one ledger line names both.
func TestCapsuleDemo(t *testing.T) {
	now := capsuleClock
	fsys, m, _ := capsuleRoot(t, "", &now)
	ctx := context.Background()
	if _, err := m.Remember(ctx, handoff.NewReminder{Text: "Outline onboarding UX spike", Topic: "ux", Next: "Review mockups", Tags: []string{"ux", "spike"}}); err != nil {
		t.Fatal(err)
	}
	tr, err := os.ReadFile("transcript/testdata/claude.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	write(t, fsys, "/t/claude.jsonl", string(tr))
	now = now.Add(time.Minute)
	w, err := m.Capsule(ctx, wake.CapsuleOptions{Transcript: "/t/claude.jsonl", TranscriptFormat: "claude"})
	if err != nil {
		t.Fatal(err)
	}
	wantID := "no-branch/" + now.UTC().Format(capsule.StampLayout)
	if w.ID != wantID || w.Path != "cold/capsules/"+wantID+".md" {
		t.Errorf("id %q path %q, want %q", w.ID, w.Path, wantID)
	}
	data, err := afero.ReadFile(fsys, "/demo/"+w.Path)
	if err != nil {
		t.Fatal(err)
	}
	if string(data) != string(w.Data) {
		t.Errorf("the file differs from Written.Data")
	}
	golden.Check(t, "capsule_demo.md", string(data))
	if _, err := capsule.Parse(data); err != nil {
		t.Errorf("the capsule does not parse: %v", err)
	}
	// Its body is within the budget, counted exactly.
	body := string(data[strings.Index(string(data), "# Mission Snapshot"):])
	if n := demo.Encoder(t).Count(body); n != w.Tokens || n > 1200 || w.Budget != 1200 {
		t.Errorf("body counts %d tokens, Written says %d of %d", n, w.Tokens, w.Budget)
	}
	// The reminder is consumed by the capsule.
	if len(w.Consumed) != 1 || w.Consumed[0] != 1 {
		t.Errorf("consumed %v, want [1]", w.Consumed)
	}
	rs, err := m.Reminders(ctx)
	if err != nil || len(rs) != 1 || rs[0].Open() || !strings.HasPrefix(rs[0].Consumed, wantID) {
		t.Errorf("reminders after the capsule: %+v, %v", rs, err)
	}
	entries, _, err := handoff.ReadLedger(fsys, "/demo")
	if err != nil {
		t.Fatal(err)
	}
	last := entries[len(entries)-1]
	if last.Op != "capsule" || len(last.Paths) != 2 || last.Paths[0] != w.Path || last.Paths[1] != tiers.InboxPath {
		t.Errorf("last ledger entry %+v", last)
	}
	// A second capsule in the same second gets -2 and replaces nothing;
	// the reminder, consumed, is not in it.
	w2, err := m.Capsule(ctx, wake.CapsuleOptions{Objective: "Review PR #42"})
	if err != nil {
		t.Fatal(err)
	}
	if w2.ID != wantID+"-2" || len(w2.Consumed) != 0 || strings.Contains(string(w2.Data), "onboarding") {
		t.Errorf("second capsule %q consumed %v:\n%s", w2.ID, w2.Consumed, w2.Data)
	}
	if again, _ := afero.ReadFile(fsys, "/demo/"+w.Path); string(again) != string(data) {
		t.Errorf("the first capsule changed")
	}
	f, ok, err := m.NewestCapsule(ctx, "")
	if err != nil || !ok || f.ID != w2.ID || f.Body != string(w2.Data) || !f.Created.Equal(now) ||
		f.Capsule.Front.PrimaryObjective != "Review PR #42" {
		t.Errorf("NewestCapsule = %+v, %v, %v", f, ok, err)
	}
}
