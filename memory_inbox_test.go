package wake_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake"
	"github.com/wakeproto/wake/internal/memlock"
	"github.com/wakeproto/wake/skeleton"
	"github.com/wakeproto/wake/store"
	"github.com/wakeproto/wake/tiers"
)

const inboxToken = "ghp_0123456789abcdefghijABCDEFGHIJ0123456789"

func inboxMemory(t *testing.T) (*wake.Memory, afero.Fs) {
	t.Helper()
	fsys := afero.NewMemMapFs()
	now := time.Date(2026, 11, 22, 22, 24, 46, 0, time.UTC)
	o := wake.Options{FS: fsys, Now: func() time.Time { return now }, Locker: &memlock.Locker{}}
	if _, err := wake.Init(context.Background(), "/p/.wake", skeleton.Params{Project: "p"}, o); err != nil {
		t.Fatal(err)
	}
	m, err := wake.Open("/p/.wake", o)
	if err != nil {
		t.Fatal(err)
	}
	return m, fsys
}

// What leaves through the library is scrubbed: the reminder returned, the
// list, and a refusal quoting a closed one; the file keeps what was given.
func TestRemindersAreScrubbed(t *testing.T) {
	m, fsys := inboxMemory(t)
	ctx := context.Background()
	r, err := m.Remember(ctx, store.NewReminder{Text: "rotate " + inboxToken, Tags: []string{"ops"}})
	if err != nil || strings.Contains(r.Text, "ghp_") || !strings.HasPrefix(r.Text, "rotate [redacted") {
		t.Fatalf("%+v %v", r, err)
	}
	if _, err := m.Remember(ctx, store.NewReminder{Text: "second", Next: "use " + inboxToken}); err != nil {
		t.Fatal(err)
	}
	if _, err := m.CloseReminder(ctx, 1, "done with "+inboxToken); err != nil {
		t.Fatal(err)
	}
	_, err = m.CloseReminder(ctx, 1, "again")
	var ce *store.ReminderClosedError
	var ie *store.InputError
	if !errors.As(err, &ce) || !errors.As(err, &ie) || strings.Contains(err.Error(), "ghp_") || !strings.Contains(err.Error(), "reminder 1 is already closed: done at 2026-11-22T22:24:46Z: done with [redacted") {
		t.Fatalf("%v", err)
	}
	rs, err := m.Reminders(ctx)
	if err != nil || len(rs) != 2 || rs[0].Open() || !rs[1].Open() {
		t.Fatalf("%+v %v", rs, err)
	}
	for _, r := range rs {
		if strings.Contains(r.Text+r.Next+r.Done, "ghp_") {
			t.Fatalf("not scrubbed: %+v", r)
		}
	}
	in, _ := m.Inbox(ctx)
	if in.Redacted.Total() != 3 || in.Total != 2 || in.Open != 1 {
		t.Fatalf("%+v", in)
	}
	data, _ := afero.ReadFile(fsys, "/p/.wake/"+tiers.InboxPath)
	if strings.Count(string(data), inboxToken) != 3 {
		t.Fatalf("the file does not keep what was given:\n%s", data)
	}
}

// A secret inbox shows nothing but counts; a confidential one its summary.
func TestHeldBackInbox(t *testing.T) {
	for _, lvl := range []string{tiers.Secret, tiers.Confidential} {
		m, fsys := inboxMemory(t)
		ctx := context.Background()
		afero.WriteFile(fsys, "/p/.wake/"+tiers.InboxPath, []byte("---\nsensitivity: "+lvl+"\nsummary: ops chores\n---\n# Remember later\n\n## 1 · 2026-11-01\n- reminder: HIDDEN-CANARY\n\n## 2 · 2026-11-01\n- next: HIDDEN-CANARY no reminder\n"), 0o644)
		in, err := m.Inbox(ctx)
		if err != nil || in.Held != lvl || len(in.Reminders) != 0 || in.Total != 1 || in.Open != 1 || len(in.Problems) != 1 || in.Problems[0].Text != "" {
			t.Fatalf("%s: %+v %v", lvl, in, err)
		}
		if want := map[string]string{tiers.Secret: "", tiers.Confidential: "ops chores"}[lvl]; in.Summary != want {
			t.Fatalf("%s: summary %q", lvl, in.Summary)
		}
		r, err := m.Remember(ctx, store.NewReminder{Text: "NEW-CANARY"})
		if err != nil || r.N != 3 || strings.Contains(r.Text, "CANARY") {
			t.Fatalf("%s: %+v %v", lvl, r, err)
		}
		if _, err := m.CloseReminder(ctx, 1, "why"); err != nil {
			t.Fatal(err)
		}
		if _, err := m.CloseReminder(ctx, 1, "why"); err == nil || strings.Contains(err.Error(), "why") || !strings.Contains(err.Error(), "held back") {
			t.Fatalf("%s: %v", lvl, err)
		}
	}
}

// TestRemindersArePrintable: a hand-edited inbox may hold terminal
// escapes; the reminders wake shows (listed, or echoed when closed) hold
// none, as the boot context's section holds none.
func TestRemindersArePrintable(t *testing.T) {
	m, fsys := inboxMemory(t)
	ctx := context.Background()
	text := "# Remember later\n\n## 1 · 2026-11-22T20:00:00Z\n- reminder: evil \x1b]0;pwned\x07 \x1b[31mred\n- topic: \x1b[2Jclear\n- next: \u009b1m\n- tags: a\x1bb\n"
	if err := afero.WriteFile(fsys, "/p/.wake/"+tiers.InboxPath, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	printable := func(what string, r tiers.Reminder) {
		t.Helper()
		for _, s := range append([]string{r.Text, r.Topic, r.Next, r.Done, r.Consumed}, r.Tags...) {
			if tiers.Printable(s) != s {
				t.Errorf("%s: control characters in %q", what, s)
			}
		}
	}
	in, err := m.Inbox(ctx)
	if err != nil || len(in.Reminders) != 1 {
		t.Fatalf("%+v %v", in, err)
	}
	printable("listed", in.Reminders[0])
	r, err := m.CloseReminder(ctx, 1, "done")
	if err != nil {
		t.Fatal(err)
	}
	printable("closed", r)
}
