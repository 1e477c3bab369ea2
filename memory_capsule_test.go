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
	"github.com/wakeproto/wake/internal/demo"
	"github.com/wakeproto/wake/internal/golden"
	"github.com/wakeproto/wake/internal/memlock"
	"github.com/wakeproto/wake/store"
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
	if _, err := m.Remember(ctx, store.NewReminder{Text: "Outline onboarding UX spike", Topic: "ux", Next: "Review mockups", Tags: []string{"ux", "spike"}}); err != nil {
		t.Fatal(err)
	}
	tr, err := os.ReadFile("transcript/testdata/claude.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	write(t, fsys, "/t/claude.jsonl", string(tr))
	now = now.Add(time.Minute)
	w, err := m.Capsule(ctx, wake.CapsuleOptions{Transcript: "/t/claude.jsonl", TranscriptFormat: "claude", Consume: true})
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
	entries, _, err := store.ReadLedger(fsys, "/demo")
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

// TestCapsuleFits: at a small max_tokens the body fits, counted exactly;
// the blocked task, the open risk and the newest decision stay while
// the oldest decision, the questions and the highlights go first; every
// cut is recorded; a reminder cut is not consumed; a body past 80% of
// the prompt ceiling warns.
func TestCapsuleFits(t *testing.T) {
	now := capsuleClock
	_, m, _ := capsuleRoot(t, "\n[capsule]\nmax_tokens = 400\nprompt_ceiling = 450\n", &now)
	ctx := context.Background()
	for _, txt := range []string{"an older reminder that is long enough to weigh something in the capsule", "the newest reminder"} {
		if _, err := m.Remember(ctx, store.NewReminder{Text: txt}); err != nil {
			t.Fatal(err)
		}
		now = now.Add(time.Minute)
	}
	w, err := m.Capsule(ctx, wake.CapsuleOptions{})
	if err != nil {
		t.Fatal(err)
	}
	data := string(w.Data)
	body := data[strings.Index(data, "# Mission Snapshot"):]
	if n := demo.Encoder(t).Count(body); n != w.Tokens || n > 400 {
		t.Fatalf("body is %d tokens (Written: %d), over 400:\n%s", n, w.Tokens, data)
	}
	for _, kept := range []string{"**Blocked:** Volksbank", "**Open risk:**", "Write one importer per bank", "**Objective:**"} {
		if !strings.Contains(body, kept) {
			t.Errorf("the capsule lost %q:\n%s", kept, data)
		}
	}
	for _, cut := range []string{"Use TOML for config", "**Open question:**", "an older reminder"} {
		if strings.Contains(body, cut) {
			t.Errorf("the capsule kept %q over more pressing items:\n%s", cut, data)
		}
	}
	if len(w.Cuts) == 0 || !strings.Contains(body, "more items cut to fit capsule.max_tokens") {
		t.Errorf("cuts %+v; the body does not say what was cut:\n%s", w.Cuts, data)
	}
	for _, c := range w.Cuts {
		if !strings.HasPrefix(c.Where, w.Path+" § ") || c.Tokens <= 0 {
			t.Errorf("cut %+v does not name the capsule's section or its size", c)
		}
	}
	if !strings.Contains(strings.Join(w.Warnings, "\n"), "past 80% of capsule.prompt_ceiling (450)") {
		t.Errorf("warnings %q, want the prompt ceiling's", w.Warnings)
	}
	rs, _ := m.Reminders(ctx)
	for _, r := range rs {
		shown := strings.Contains(body, r.Text)
		if shown == r.Open() {
			t.Errorf("reminder %d %q: shown %v, open %v", r.N, r.Text, shown, r.Open())
		}
	}
}

// TestCapsuleSecrets: a secret pasted into a task is scrubbed, a secret
// document contributes nothing, a confidential one its summary only.
func TestCapsuleSecrets(t *testing.T) {
	now := capsuleClock
	fsys, m, _ := capsuleRoot(t, "", &now)
	const token = "ghp_0123456789abcdefghijABCDEFGHIJ0123456789"
	tasks, _ := afero.ReadFile(fsys, "/demo/"+tiers.TasksPath)
	write(t, fsys, "/demo/"+tiers.TasksPath, strings.Replace(string(tasks), "## Blocked\n", "## Blocked\n- [ ] Deploy with the token "+token+" once CI is green.\n", 1))
	write(t, fsys, "/demo/"+tiers.QuestionsPath, "---\nsummary: SUMMARY-CANARY\nsensitivity: secret\n---\n# Open questions\n\n- QUESTION-CANARY\n")
	write(t, fsys, "/demo/"+tiers.LatestPath, "---\nsummary: Payroll session LATEST-SUMMARY\nsession: 2026-11-21T17:40:00Z\nsensitivity: confidential\n---\n# Session\n\n## Open threads\n- THREAD-CANARY\n")
	w, err := m.Capsule(context.Background(), wake.CapsuleOptions{Objective: "Deploy with " + token})
	if err != nil {
		t.Fatal(err)
	}
	data, _ := afero.ReadFile(fsys, "/demo/"+w.Path)
	text := string(data)
	for _, leak := range []string{token, "QUESTION-CANARY", "SUMMARY-CANARY", "THREAD-CANARY"} {
		if strings.Contains(text, leak) {
			t.Errorf("the capsule holds %q:\n%s", leak, text)
		}
	}
	for _, want := range []string{"**Blocked:** Deploy with the token [redacted:", "recent/latest.md is confidential; its summary: Payroll session LATEST-SUMMARY"} {
		if !strings.Contains(text, want) {
			t.Errorf("the capsule lacks %q:\n%s", want, text)
		}
	}
	if c, err := capsule.Parse(data); err != nil || strings.Contains(c.Front.PrimaryObjective, token) {
		t.Errorf("objective %q, %v", c.Front.PrimaryObjective, err)
	}
}

// TestCapsuleDryRun writes nothing, consumes nothing and appends no
// ledger line.
func TestCapsuleDryRun(t *testing.T) {
	now := capsuleClock
	fsys, m, _ := capsuleRoot(t, "", &now)
	ctx := context.Background()
	if _, err := m.Remember(ctx, store.NewReminder{Text: "keep me open"}); err != nil {
		t.Fatal(err)
	}
	before, _, _ := store.ReadLedger(fsys, "/demo")
	w, err := m.Capsule(ctx, wake.CapsuleOptions{DryRun: true})
	if err != nil || !w.DryRun || !strings.Contains(string(w.Data), "keep me open") || len(w.Consumed) != 0 {
		t.Fatalf("dry run: %+v, %v", w, err)
	}
	if ok, _ := afero.Exists(fsys, "/demo/"+w.Path); ok {
		t.Errorf("a dry run wrote %s", w.Path)
	}
	after, _, _ := store.ReadLedger(fsys, "/demo")
	rs, _ := m.Reminders(ctx)
	if len(after) != len(before) || !rs[0].Open() {
		t.Errorf("a dry run wrote the ledger (%d → %d lines) or consumed a reminder (%+v)", len(before), len(after), rs)
	}
}

// TestCapsuleListPruneTOC: capsules of two branches' directories are
// listed oldest first, filtered by branch; prune moves those older than
// its duration to the archive, never deleting, with one ledger line and
// a suffix on a name clash; the cold TOC lists capsules and archived
// ones by their objective.
func TestCapsuleListPruneTOC(t *testing.T) {
	now := capsuleClock
	fsys, m, _ := capsuleRoot(t, "", &now)
	ctx := context.Background()
	old, err := m.Capsule(ctx, wake.CapsuleOptions{Objective: "OLD-OBJECTIVE"})
	if err != nil {
		t.Fatal(err)
	}
	// A capsule of another branch, written by hand, 40 days old too.
	other := "cold/capsules/feature/x/" + now.Format(capsule.StampLayout) + ".md"
	write(t, fsys, "/demo/"+other, strings.Replace(string(old.Data), "branch: no-branch", "branch: feature/x", 1))
	// An archived capsule already holding the old one's name.
	write(t, fsys, "/demo/"+capsule.ArchivePathOf(old.ID), "---\nsummary: an earlier prune's\n---\n# x\n")
	now = now.Add(40 * 24 * time.Hour)
	fresh, err := m.Capsule(ctx, wake.CapsuleOptions{Objective: "FRESH-OBJECTIVE"})
	if err != nil {
		t.Fatal(err)
	}
	all, err := m.Capsules(ctx, "", false)
	if err != nil || len(all) != 3 || all[2].ID != fresh.ID || all[2].Objective != "FRESH-OBJECTIVE" {
		t.Fatalf("Capsules = %+v, %v", all, err)
	}
	if mine, _ := m.Capsules(ctx, "feature/x", false); len(mine) != 1 || mine[0].Path != other || mine[0].Branch != "feature/x" {
		t.Errorf("Capsules(feature/x) = %+v", mine)
	}
	dry, err := m.PruneCapsules(ctx, 30*24*time.Hour, true)
	if err != nil || len(dry.Moves) != 2 || !dry.DryRun {
		t.Fatalf("dry run %+v, %v", dry, err)
	}
	if ok, _ := afero.Exists(fsys, "/demo/"+old.Path); !ok {
		t.Fatalf("a dry run moved %s", old.Path)
	}
	p, err := m.PruneCapsules(ctx, 30*24*time.Hour, false)
	if err != nil || len(p.Moves) != 2 {
		t.Fatalf("prune %+v, %v", p, err)
	}
	wantTo := map[string]string{
		old.Path: capsule.ArchiveDir + "/" + old.ID + "-pruned-2.md",
		other:    capsule.ArchiveDir + "/feature/x/" + capsule.Stamp(capsuleClock, 1) + ".md",
	}
	for _, mv := range p.Moves {
		if wantTo[mv.From] != mv.To {
			t.Errorf("moved %s to %s, want %s", mv.From, mv.To, wantTo[mv.From])
		}
		if ok, _ := afero.Exists(fsys, "/demo/"+mv.From); ok {
			t.Errorf("%s is still there", mv.From)
		}
		if ok, _ := afero.Exists(fsys, "/demo/"+mv.To); !ok {
			t.Errorf("%s is not there", mv.To)
		}
	}
	if ok, _ := afero.Exists(fsys, "/demo/"+fresh.Path); !ok {
		t.Errorf("prune moved the fresh capsule")
	}
	entries, _, _ := store.ReadLedger(fsys, "/demo")
	if last := entries[len(entries)-1]; last.Op != "capsule-prune" || len(last.Paths) != 4 {
		t.Errorf("last ledger entry %+v", last)
	}
	if again, err := m.PruneCapsules(ctx, 30*24*time.Hour, false); err != nil || len(again.Moves) != 0 {
		t.Errorf("a second prune: %+v, %v", again, err)
	}
	if e2, _, _ := store.ReadLedger(fsys, "/demo"); len(e2) != len(entries) {
		t.Errorf("a prune with nothing to move wrote the ledger")
	}
	withArchive, _ := m.Capsules(ctx, "", true)
	if len(withArchive) != 4 {
		t.Errorf("with the archive: %+v", withArchive)
	}
	// The cold TOC lists them under their objective.
	toc, _, err := m.ColdTOC()
	if err != nil {
		t.Fatal(err)
	}
	text := toc.Text()
	for _, want := range []string{"FRESH-OBJECTIVE", "OLD-OBJECTIVE", "archive/"} {
		if !strings.Contains(text, want) {
			t.Errorf("the cold TOC lacks %q:\n%s", want, text)
		}
	}
}

// TestNewestCapsulePassesOver: a newer capsule that does not parse, or
// that declares itself secret, is passed over with a warning; a branch
// without capsules has none; a secret in a capsule written by hand comes
// back scrubbed.
func TestNewestCapsulePassesOver(t *testing.T) {
	now := capsuleClock
	fsys, m, notes := capsuleRoot(t, "", &now)
	ctx := context.Background()
	if _, ok, err := m.NewestCapsule(ctx, "main"); ok || err != nil {
		t.Fatalf("a branch without capsules: %v, %v", ok, err)
	}
	good, err := m.Capsule(ctx, wake.CapsuleOptions{Objective: "GOOD"})
	if err != nil {
		t.Fatal(err)
	}
	const token = "ghp_0123456789abcdefghijABCDEFGHIJ0123456789"
	write(t, fsys, "/demo/"+good.Path, strings.Replace(string(good.Data), "- **Objective:** GOOD", "- **Objective:** GOOD "+token, 1))
	dir := "/demo/cold/capsules/no-branch/"
	write(t, fsys, dir+capsule.Stamp(now.Add(time.Hour), 1)+".md", "# Mission Snapshot\n\nno front matter\n")
	write(t, fsys, dir+capsule.Stamp(now.Add(2*time.Hour), 1)+".md", "---\nsensitivity: secret\n---\n# x\n")
	f, ok, err := m.NewestCapsule(ctx, capsule.NoBranch)
	if err != nil || !ok || f.ID != good.ID {
		t.Fatalf("NewestCapsule = %q, %v, %v", f.ID, ok, err)
	}
	if strings.Contains(f.Body, token) || !strings.Contains(f.Body, "[redacted:") {
		t.Errorf("the body is not scrubbed:\n%s", f.Body)
	}
	var warned int
	for _, n := range *notes {
		if strings.Contains(n.Msg, "passed over") {
			warned++
		}
	}
	if warned != 2 {
		t.Errorf("%d warnings of capsules passed over, want 2: %+v", warned, *notes)
	}
}

// racingLocker runs before, once, just before it takes the lock: another
// process that got the lock first.
type racingLocker struct {
	memlock.Locker
	before func()
}

func (l *racingLocker) Lock(ctx context.Context, root string) (func() error, error) {
	if f := l.before; f != nil {
		l.before = nil
		f()
	}
	return l.Locker.Lock(ctx, root)
}

// TestPruneRaceWritesNothing: a prune that finds, once it holds the lock,
// that another one moved everything it planned to move writes no ledger
// line, like any prune with nothing to move.
func TestPruneRaceWritesNothing(t *testing.T) {
	now := capsuleClock
	fsys := demo.FS(t)
	enc := demo.Encoder(t)
	lk := &racingLocker{}
	o := wake.Options{FS: fsys, Env: map[string]string{"HOME": "/home", "PATH": os.Getenv("PATH")}, Now: func() time.Time { return now },
		Locker: lk, Encoder: func(string) (*budget.Encoder, error) { return enc, nil }}
	m, err := wake.Open("/demo", o)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := m.Capsule(ctx, wake.CapsuleOptions{Objective: "x"}); err != nil {
		t.Fatal(err)
	}
	now = now.Add(40 * 24 * time.Hour)
	other, err := wake.Open("/demo", o)
	if err != nil {
		t.Fatal(err)
	}
	lk.before = func() {
		if _, err := other.PruneCapsules(ctx, 30*24*time.Hour, false); err != nil {
			t.Fatal(err)
		}
	}
	var before []store.Entry
	p, err := m.PruneCapsules(ctx, 30*24*time.Hour, false)
	if err != nil || len(p.Moves) != 0 {
		t.Fatalf("the prune that lost the race: %+v, %v", p, err)
	}
	entries, _, _ := store.ReadLedger(fsys, "/demo")
	for _, e := range entries {
		if e.Op == "capsule-prune" {
			before = append(before, e)
		}
	}
	if len(before) != 1 {
		t.Fatalf("capsule-prune ledger lines %+v, want the one of the prune that moved", before)
	}
}

// TestCapsuleUnreadableInbox: an inbox that is not text costs the capsule
// its reminders, not the capsule: it is written, says why it has none,
// warns, and leaves the inbox untouched.
func TestCapsuleUnreadableInbox(t *testing.T) {
	now := capsuleClock
	fsys, m, notes := capsuleRoot(t, "", &now)
	bad := []byte("# Remember later\n\x00\x01binary\n")
	if err := afero.WriteFile(fsys, "/demo/warm/inbox.md", bad, 0o644); err != nil {
		t.Fatal(err)
	}
	w, err := m.Capsule(context.Background(), wake.CapsuleOptions{})
	if err != nil {
		t.Fatalf("an unreadable inbox stopped the capsule: %v", err)
	}
	if !strings.Contains(string(w.Data), "warm/inbox.md could not be read") || len(w.Consumed) != 0 {
		t.Errorf("the capsule does not say the inbox could not be read (consumed %v):\n%s", w.Consumed, w.Data)
	}
	warned := false
	for _, n := range *notes {
		warned = warned || strings.Contains(n.Msg, "no reminders")
	}
	if !warned {
		t.Errorf("no warning: %+v", *notes)
	}
	if got, _ := afero.ReadFile(fsys, "/demo/warm/inbox.md"); string(got) != string(bad) {
		t.Error("the inbox was written")
	}
}

// TestCapsuleByHandConsumesNothing: a capsule built without Consume shows
// the open reminders and leaves them open; the ledger line names the
// capsule alone.
func TestCapsuleByHandConsumesNothing(t *testing.T) {
	now := capsuleClock
	fsys, m, _ := capsuleRoot(t, "", &now)
	ctx := context.Background()
	if _, err := m.Remember(ctx, store.NewReminder{Text: "keep me open"}); err != nil {
		t.Fatal(err)
	}
	w, err := m.Capsule(ctx, wake.CapsuleOptions{})
	if err != nil || !strings.Contains(string(w.Data), "keep me open") || len(w.Consumed) != 0 {
		t.Fatalf("capsule: consumed %v, %v:\n%s", w.Consumed, err, w.Data)
	}
	if rs, err := m.Reminders(ctx); err != nil || len(rs) != 1 || !rs[0].Open() {
		t.Errorf("reminders after the capsule: %+v, %v", rs, err)
	}
	entries, _, err := store.ReadLedger(fsys, "/demo")
	if err != nil {
		t.Fatal(err)
	}
	if last := entries[len(entries)-1]; last.Op != "capsule" || len(last.Paths) != 1 || strings.Contains(last.ChangeSummary, "consumed") {
		t.Errorf("last ledger entry %+v", last)
	}
}
