package store

import (
	"context"
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/tiers"
)

func TestRememberCreatesAndAppends(t *testing.T) {
	t.Parallel()
	s, c := newHandoffStore(t, afero.NewMemMapFs())
	ctx := context.Background()
	r, err := s.Remember(ctx, NewReminder{Text: " Outline onboarding UX spike ", Topic: "ux", Next: "Review mockups", Tags: []string{"ux", " ", "spike"}})
	if err != nil {
		t.Fatal(err)
	}
	if r.N != 1 || r.ID != tiers.ReminderID("wtest", 1, "2026-11-22T03:24:20Z", "Outline onboarding UX spike") || r.Text != "Outline onboarding UX spike" || !r.At.Equal(c.now().Truncate(time.Second)) || !r.Open() {
		t.Fatalf("%+v", r)
	}
	c.t = c.t.Add(time.Minute)
	if _, err := s.Remember(ctx, NewReminder{Text: "Second"}); err != nil {
		t.Fatal(err)
	}
	// The summary front matter every file wake writes carries.
	want := "---\nsummary: Reminders to pick up later, added by wake remember; closed ones annotated, never deleted\n---\n" +
		tiers.InboxTitle + "\n\n" + tiers.InboxIntro + "\n\n" +
		"## 1 · 2026-11-22T03:24:20Z\n- id: " + r.ID + "\n- reminder: Outline onboarding UX spike\n- topic: ux\n- next: Review mockups\n- tags: ux, spike\n\n" +
		"## 2 · 2026-11-22T03:25:20Z\n- id: " + tiers.ReminderID("wtest", 2, "2026-11-22T03:25:20Z", "Second") + "\n- reminder: Second\n"
	if got := hoRead(t, s, tiers.InboxPath); got != want {
		t.Fatalf("inbox:\n%s\nwant:\n%s", got, want)
	}
	entries, _, err := ReadLedger(s.FS, s.Root)
	if err != nil {
		t.Fatal(err)
	}
	last := entries[len(entries)-1]
	if last.Op != OpRemember || !reflect.DeepEqual(last.Paths, []string{tiers.InboxPath}) || last.ChangeSummary != "remembered #2: Second" {
		t.Fatalf("%+v", last)
	}
	if countOps(t, s, OpRemember) != 2 {
		t.Fatal("not one ledger line per reminder")
	}
}

func TestRememberRefusesBadInput(t *testing.T) {
	t.Parallel()
	s, _ := newHandoffStore(t, afero.NewMemMapFs())
	for _, tc := range []struct {
		r    NewReminder
		want string
	}{
		{NewReminder{Text: "  "}, "the reminder text is empty"},
		{NewReminder{Text: "a\nb"}, "must each be one line"},
		{NewReminder{Text: "a", Next: "x\ry"}, "must each be one line"},
		{NewReminder{Text: "a", Topic: "bell\a"}, "the topic: "},
		{NewReminder{Text: "a", Tags: []string{"x,y"}}, "holds a comma"},
	} {
		_, err := s.Remember(context.Background(), tc.r)
		var ie *InputError
		if !errors.As(err, &ie) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v, want an input error with %q", tc.r, err, tc.want)
		}
	}
	if _, err := s.FS.Stat(s.Path(tiers.InboxPath)); !errors.Is(err, os.ErrNotExist) {
		t.Fatal("a refused reminder created the inbox")
	}
}

// A hand-edited inbox keeps its line ending, front matter, prose and
// numbering (a new entry takes a number past every one used, a malformed
// entry's included); a last line with no newline is ended first.
func TestRememberKeepsHandEdits(t *testing.T) {
	t.Parallel()
	s, _ := newHandoffStore(t, afero.NewMemMapFs())
	old := "---\r\nsensitivity: confidential\r\n---\r\n# Mine\r\n\r\n## 9 · 2026-11-01\r\n- next: no reminder line\r\n\r\n## 3 · 2026-11-02\r\n- reminder: kept"
	if err := s.Write(tiers.InboxPath, []byte(old)); err != nil {
		t.Fatal(err)
	}
	r, err := s.Remember(context.Background(), NewReminder{Text: "new"})
	if err != nil || r.N != 10 {
		t.Fatalf("%+v %v", r, err)
	}
	want := old + "\r\n\r\n## 10 · 2026-11-22T03:24:20Z\r\n- id: " + tiers.ReminderID("wtest", 10, "2026-11-22T03:24:20Z", "new") + "\r\n- reminder: new\r\n"
	if got := hoRead(t, s, tiers.InboxPath); got != want {
		t.Fatalf("%q\nwant\n%q", got, want)
	}
	entries, _, _ := ReadLedger(s.FS, s.Root)
	if e := entries[len(entries)-1]; e.Sensitivity != tiers.Confidential {
		t.Fatalf("the ledger line does not keep the inbox's level: %+v", e)
	}
	// Entry 3 ended the file without a newline: closing it ends it first.
	if _, err := s.CloseReminder(context.Background(), 3, "kept it"); err != nil {
		t.Fatal(err)
	}
	if got := hoRead(t, s, tiers.InboxPath); !strings.Contains(got, "- reminder: kept\r\n- done: kept it at 2026-11-22T03:24:20Z\r\n\r\n## 10") {
		t.Fatalf("%q", got)
	}
}

func TestRememberRefusesBinaryInbox(t *testing.T) {
	t.Parallel()
	s, _ := newHandoffStore(t, afero.NewMemMapFs())
	old := "## 1 · 2026-11-01\n- reminder: x\x00"
	if err := s.Write(tiers.InboxPath, []byte(old)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Remember(context.Background(), NewReminder{Text: "new"}); err == nil || !strings.Contains(err.Error(), tiers.InboxPath) {
		t.Fatalf("err = %v", err)
	}
	if _, err := s.CloseReminder(context.Background(), 1, "why"); err == nil || !strings.Contains(err.Error(), tiers.InboxPath) {
		t.Fatalf("err = %v", err)
	}
	if got := hoRead(t, s, tiers.InboxPath); got != old {
		t.Fatal("the binary inbox was changed")
	}
}

func TestCloseAndConsumeReminders(t *testing.T) {
	t.Parallel()
	s, c := newHandoffStore(t, afero.NewMemMapFs())
	ctx := context.Background()
	for _, text := range []string{"one", "two", "three"} {
		if _, err := s.Remember(ctx, NewReminder{Text: text, Topic: "t"}); err != nil {
			t.Fatal(err)
		}
	}
	c.t = c.t.Add(time.Hour)
	r, err := s.CloseReminder(ctx, 2, "shipped at noon")
	if err != nil || r.Open() || r.Done != "shipped at noon" || !r.ClosedAt.Equal(c.t) {
		t.Fatalf("%+v %v", r, err)
	}
	if countOps(t, s, OpRememberDone) != 1 {
		t.Fatal("no remember-done ledger line")
	}
	before := hoRead(t, s, tiers.InboxPath)
	for _, tc := range []struct {
		n    int
		want string
	}{
		{2, "reminder 2 is already closed: done at 2026-11-22T04:24:20Z: shipped at noon"},
		{7, "there is no reminder 7 in warm/inbox.md"},
	} {
		_, err := s.CloseReminder(ctx, tc.n, "again")
		var ie *InputError
		if !errors.As(err, &ie) || err.Error() != tc.want || ie.Hint() == "" {
			t.Errorf("%d: %v, want %q", tc.n, err, tc.want)
		}
	}
	if _, err := s.CloseReminder(ctx, 1, " "); err == nil || !strings.Contains(err.Error(), "empty") {
		t.Errorf("an empty reason: %v", err)
	}
	// Consuming a closed one writes nothing, not even the open one named,
	// nor the capsule.
	consume := func(ns []int) error {
		const rel = "cold/capsules/main/20261122T223000Z.md"
		e := Entry{At: c.t, Op: "capsule", Paths: []string{rel, tiers.InboxPath}, ChangeSummary: "capsule"}
		return s.WriteCapsuleLocked(rel, []byte("---\n"), ns, "main/20261122T223000Z", c.t, e)
	}
	if err := consume([]int{1, 2}); err == nil {
		t.Fatal("consumed a closed reminder")
	}
	if hoRead(t, s, tiers.InboxPath) != before {
		t.Fatal("a refused close changed the inbox")
	}
	if _, err := s.FS.Stat(s.Path("cold/capsules/main/20261122T223000Z.md")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the capsule of a refused consumption is there: %v", err)
	}
	if err := consume([]int{3, 1}); err != nil {
		t.Fatal(err)
	}
	got := hoRead(t, s, tiers.InboxPath)
	b, err := tiers.ParseInbox([]byte(got))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range b.Reminders {
		if r.Open() || (r.N != 2 && (r.Consumed != "main/20261122T223000Z" || !r.ClosedAt.Equal(c.t))) {
			t.Errorf("%+v", r)
		}
	}
	// Nothing was taken away: the old text is all there, lines added.
	for _, l := range strings.Split(before, "\n") {
		if !strings.Contains(got, l) {
			t.Errorf("line %q is gone", l)
		}
	}
	if !strings.HasSuffix(got, "- reminder: three\n- topic: t\n- consumed: main/20261122T223000Z at 2026-11-22T04:24:20Z\n") {
		t.Fatalf("%s", got)
	}
}

// inboxOps are the inbox commands, each run on inboxRoot.
var inboxOps = []struct {
	name, op, old string
	run           func(*Store) error
}{
	{"remember", OpRemember, inboxText, func(s *Store) error {
		_, err := s.Remember(context.Background(), NewReminder{Text: "Outline the spike", Topic: "ux", Tags: []string{"a", "b"}})
		return err
	}},
	{"done", OpRememberDone, inboxText, func(s *Store) error {
		_, err := s.CloseReminder(context.Background(), 1, "shipped")
		return err
	}},
	{"remember-new", OpRemember, "", func(s *Store) error {
		_, err := s.Remember(context.Background(), NewReminder{Text: "First of all"})
		return err
	}},
}

const inboxText = "# Remember later\r\n\r\n## 1 · 2026-11-01T10:00:00Z\r\n- reminder: Check the flaky test\r\n"

// inboxRoot lays out a root whose inbox is old ("": none).
func inboxRoot(t *testing.T, old string) afero.Fs {
	t.Helper()
	fs := afero.NewMemMapFs()
	s, _ := newHandoffStore(t, fs)
	if old == "" {
		return fs
	}
	if err := s.Write(tiers.InboxPath, []byte(old)); err != nil {
		t.Fatal(err)
	}
	return fs
}

// TestInboxCommandsSurviveEveryFault fails each mutating operation of each
// inbox command in turn. As an error the code sees, a failed command
// leaves the inbox exactly as it was, with no ledger line; as a crash, the
// inbox is the old content or the new exactly, never a mix. Either way no
// temporary file survives a recovery and the next command works.
func TestInboxCommandsSurviveEveryFault(t *testing.T) {
	t.Parallel()
	for _, op := range inboxOps {
		fs := inboxRoot(t, op.old)
		count := &faultFs{Fs: fs}
		if err := op.run(storeOn(count, faultAt)); err != nil {
			t.Fatalf("%s: %v", op.name, err)
		}
		s := storeOn(fs, faultAt)
		want := hoRead(t, s, tiers.InboxPath)
		old := op.old
		if want == old || countOps(t, s, op.op) != 1 {
			t.Fatalf("%s changed nothing", op.name)
		}
		for _, crash := range []bool{false, true} {
			for n := 1; n <= count.n; n++ {
				name := map[bool]string{false: "error", true: "crash"}[crash]
				t.Run(op.name+"/"+name+"/"+count.ops[n-1], func(t *testing.T) {
					fs := inboxRoot(t, old)
					ffs := &faultFs{Fs: fs, failAt: n, crash: crash}
					err := op.run(storeOn(ffs, faultAt))
					if err != nil && !errors.Is(err, errFault) {
						t.Fatalf("err = %v, want the injected fault", err)
					}
					s := storeOn(fs, faultAt.Add(time.Hour))
					got, rerr := afero.ReadFile(fs, s.Path(tiers.InboxPath))
					if rerr != nil && !errors.Is(rerr, os.ErrNotExist) {
						t.Fatal(rerr)
					}
					lines := countOps(t, s, op.op)
					switch {
					case string(got) != old && string(got) != want:
						t.Fatalf("the inbox is neither the old nor the new content:\n%q", got)
					case err == nil && (string(got) != want || lines != 1):
						t.Fatalf("succeeded, but the inbox is the old one or has %d ledger lines", lines)
					case errors.As(err, new(*InboxWrittenError)) && (string(got) != want || lines != 1):
						t.Fatalf("%v, but the inbox is the old one or has %d ledger lines", err, lines)
					case err != nil && !crash && !errors.As(err, new(*InboxWrittenError)) && (string(got) != old || lines != 0):
						t.Fatalf("failed (%v), but the inbox changed or has %d ledger lines:\n%q", err, lines, got)
					case err != nil && string(got) == old && lines != 0:
						t.Fatalf("the inbox is the old one but has %d ledger lines", lines)
					}
					if _, err := Recover(context.Background(), s); err != nil {
						t.Fatalf("recovery: %v", err)
					}
					// Recovered, the inbox and the ledger agree: the new
					// inbox with its one line, or the old with none.
					got, _ = afero.ReadFile(fs, s.Path(tiers.InboxPath))
					if lines := countOps(t, s, op.op); string(got) == want && lines != 1 || string(got) != want && lines != 0 {
						t.Fatalf("after recovery the inbox is the %s one with %d ledger lines", map[bool]string{true: "new", false: "old"}[string(got) == want], lines)
					}
					if _, err := s.Remember(context.Background(), NewReminder{Text: "Next one"}); err != nil {
						t.Fatalf("the next remember: %v", err)
					}
					afero.Walk(fs, s.Root, func(p string, fi os.FileInfo, err error) error {
						if err == nil && strings.Contains(fi.Name(), ".tmp-") {
							t.Errorf("temporary file left: %s", p)
						}
						return nil
					})
				})
			}
		}
	}
}

// FuzzRememberReadsBack: every reminder Validate accepts is written so
// that it reads back as given, after the entries before it, whatever
// they hold.
func FuzzRememberReadsBack(f *testing.F) {
	f.Add("Outline the spike", "ux", "Review mockups", "a,b", false)
	f.Add("- done: x at 2026-11-01T00:00:00Z", "## 2 · 2026", "  next: y", ", ,", true)
	f.Fuzz(func(t *testing.T, text, topic, next, tags string, crlf bool) {
		r := NewReminder{Text: text, Topic: topic, Next: next, Tags: strings.Split(tags, ",")}
		if r.normalized().Validate() != nil {
			return
		}
		s, _ := newHandoffStore(t, afero.NewMemMapFs())
		old := "# Remember later\n\n## 1 · 2026-11-01\n- reminder: first\n  wrapped"
		if crlf {
			old = strings.ReplaceAll(old, "\n", "\r\n")
		}
		if err := s.Write(tiers.InboxPath, []byte(old)); err != nil {
			t.Fatal(err)
		}
		got, err := s.Remember(context.Background(), r)
		if err != nil {
			t.Fatal(err)
		}
		n := r.normalized()
		if got.N != 2 || got.Text != n.Text || got.Topic != n.Topic || got.Next != n.Next || !reflect.DeepEqual(got.Tags, n.Tags) {
			t.Fatalf("%+v, want %+v", got, n)
		}
		b, err := tiers.ParseInbox([]byte(hoRead(t, s, tiers.InboxPath)))
		if err != nil || len(b.Reminders) != 2 || b.Reminders[0].Text != "first wrapped" {
			t.Fatalf("%+v %v", b, err)
		}
	})
}

// TestInboxRecordSettledBeforeAnyWriter proves an inbox write a kill left
// between the inbox and its ledger line (its record standing) is settled
// by the next writer of any kind, under the lock, before it can rewrite
// the inbox: the reminder gets its line, never dropped as a write that
// did not happen.
func TestInboxRecordSettledBeforeAnyWriter(t *testing.T) {
	t.Parallel()
	fs := inboxRoot(t, "")
	s := storeOn(fs, faultAt)
	text := tiers.InboxFront + tiers.InboxTitle + "\n\n" + tiers.InboxIntro + "\n\n## 1 · 2026-11-22T03:24:20Z\n- id: r-184509-wtest\n- reminder: First of all\n"
	e := Entry{At: faultAt, Op: OpRemember, Paths: []string{tiers.InboxPath}, ChangeSummary: "remembered #1: First of all"}
	// The remember killed after its inbox, before its line.
	if err := s.stageInbox([]byte(text), e); err != nil {
		t.Fatal(err)
	}
	if err := s.Write(tiers.InboxPath, []byte(text)); err != nil {
		t.Fatal(err)
	}
	if countOps(t, s, OpRemember) != 0 {
		t.Fatal("the line is there already")
	}
	// Another writer, not the inbox's, runs next (its recovery skipped).
	if err := s.Mutate(context.Background(), func() (Entry, error) {
		return Entry{At: faultAt, Op: "edit", Paths: []string{tiers.MainPath}, ChangeSummary: "a writer"}, nil
	}); err != nil {
		t.Fatal(err)
	}
	if n := countOps(t, s, OpRemember); n != 1 {
		t.Errorf("the interrupted remember has %d ledger lines after the next writer, want 1", n)
	}
	if _, err := fs.Stat(s.inboxPendingPath()); err == nil {
		t.Error("the record is still there")
	}
}
