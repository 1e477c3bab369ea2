package merge

import (
	"strconv"
	"strings"
	"testing"

	"github.com/wakeproto/wake/tiers"
)

const inboxHead = "# Remember later\n\nReminders.\n"

func rem(n int, at, text string, lines ...string) string {
	s := "\n## " + strconv.Itoa(n) + " · " + at + "\n- reminder: " + text + "\n"
	for _, l := range lines {
		s += l + "\n"
	}
	return s
}

func mergeInbox(t *testing.T, base, ours, theirs string) (tiers.Inbox, string, Result) {
	t.Helper()
	r, err := File(opts(t, ".wake/warm/inbox.md"), []byte(base), []byte(ours), []byte(theirs))
	if err != nil {
		t.Fatal(err)
	}
	b, err := tiers.ParseInbox(r.Data)
	if err != nil {
		t.Fatalf("%v:\n%s", err, r.Data)
	}
	return b, string(r.Data), r
}

func TestInboxUnionRenumbers(t *testing.T) {
	base := inboxHead + rem(1, "2026-11-28T09:00:00Z", "one")
	ours := base + rem(2, "2026-11-28T09:01:00Z", "ours")
	theirs := base + rem(2, "2026-11-28T09:02:00Z", "theirs")
	b, text, r := mergeInbox(t, base, ours, theirs)
	if len(b.Reminders) != 3 || len(r.Notes) != 1 {
		t.Fatalf("%d reminders, notes %v:\n%s", len(b.Reminders), r.Notes, text)
	}
	if th, ok := b.Reminder(3); !ok || th.Text != "theirs" || !strings.Contains(text, "- renumbered: was 2") {
		t.Errorf("theirs not renumbered 3:\n%s", text)
	}
	// Merged again: the renumbered reminder is known by its time and text.
	b, text, _ = mergeInbox(t, base, text, theirs)
	if len(b.Reminders) != 3 {
		t.Errorf("a second merge added again:\n%s", text)
	}
}

func TestInboxClosedOnEitherSide(t *testing.T) {
	base := inboxHead + rem(1, "2026-11-28T09:00:00Z", "one") + rem(2, "2026-11-28T09:00:01Z", "two")
	ours := base + rem(3, "2026-11-28T09:01:00Z", "three")
	theirs := inboxHead + rem(1, "2026-11-28T09:00:00Z", "one", "- done: shipped at 2026-11-28T09:05:00Z") + rem(2, "2026-11-28T09:00:01Z", "two")
	b, text, _ := mergeInbox(t, base, ours, theirs)
	if one, _ := b.Reminder(1); one.Open() || one.Done != "shipped" {
		t.Errorf("reminder 1 not closed:\n%s", text)
	}
	if len(b.Open()) != 2 {
		t.Errorf("open %d:\n%s", len(b.Open()), text)
	}
}

func TestInboxByID(t *testing.T) {
	base := inboxHead
	ours := base + rem(1, "2026-11-28T09:00:00Z", "same text", "- id: r-aaaa")
	theirs := base + rem(1, "2026-11-28T09:00:00Z", "same text", "- id: r-bbbb")
	b, text, _ := mergeInbox(t, base, ours, theirs)
	if len(b.Reminders) != 2 {
		t.Errorf("two ids, %d reminders:\n%s", len(b.Reminders), text)
	}
}

func TestInboxCRLF(t *testing.T) {
	crlf := func(s string) string { return strings.ReplaceAll(s, "\n", "\r\n") }
	base := crlf(inboxHead + rem(1, "2026-11-28T09:00:00Z", "one"))
	ours := base + crlf(rem(2, "2026-11-28T09:01:00Z", "ours"))
	theirs := inboxHead + rem(1, "2026-11-28T09:00:00Z", "one") + rem(2, "2026-11-28T09:02:00Z", "theirs")
	_, text, _ := mergeInbox(t, base, ours, theirs)
	if strings.Contains(strings.ReplaceAll(text, "\r\n", ""), "\n") || !strings.HasPrefix(text, ours) {
		t.Errorf("%q", text)
	}
}

// In a rebase, ours is the other branch and theirs this clone's commit:
// the renumbered line and the note say so.
func TestInboxRenumberedInARebase(t *testing.T) {
	base := inboxHead + rem(1, "2026-11-28T09:00:00Z", "one")
	ours := base + rem(2, "2026-11-28T09:01:00Z", "upstream")
	theirs := base + rem(2, "2026-11-28T09:02:00Z", "mine, replayed")
	o := opts(t, ".wake/warm/inbox.md")
	o.Rebase = true
	r, err := File(o, []byte(base), []byte(ours), []byte(theirs))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(r.Data), "- renumbered: was 2 on this branch;") || len(r.Notes) != 1 ||
		r.Notes[0] != "reminder 2 of this branch is now reminder 3: the other branch has a reminder 2 too" {
		t.Errorf("notes %q:\n%s", r.Notes, r.Data)
	}
	o.Rebase = false
	if r, _ := File(o, []byte(base), []byte(ours), []byte(theirs)); !strings.Contains(string(r.Data), "- renumbered: was 2 on the other branch;") {
		t.Errorf("a merge:\n%s", r.Data)
	}
}

// Two reminders with one id (a copy made by hand on each branch) are both
// kept, theirs with an id of its own that a second merge knows.
func TestInboxTwinsReidentified(t *testing.T) {
	withID := func(n int, at, id, text string) string {
		return strings.Replace(rem(n, at, text), "\n- reminder:", "\n- id: "+id+"\n- reminder:", 1)
	}
	base := inboxHead + rem(1, "2026-11-28T09:00:00Z", "one")
	ours := base + withID(2, "2026-11-28T09:01:00Z", "r-1a2b3c-k3f9qa", "ours")
	theirs := base + withID(2, "2026-11-28T09:01:00Z", "r-1a2b3c-k3f9qa", "theirs")
	b, text, r := mergeInbox(t, base, ours, theirs)
	if len(b.Reminders) != 3 || len(b.Problems) != 0 {
		t.Fatalf("%d reminders, problems %+v:\n%s", len(b.Reminders), b.Problems, text)
	}
	th, _ := b.Reminder(3)
	if th.Text != "theirs" || th.ID == "r-1a2b3c-k3f9qa" || !strings.HasSuffix(th.ID, "-k3f9qa") || len(r.Notes) != 2 {
		t.Errorf("theirs %+v, notes %q:\n%s", th, r.Notes, text)
	}
	if again, text2, _ := mergeInbox(t, base, text, theirs); len(again.Reminders) != 3 {
		t.Errorf("a second merge added again:\n%s", text2)
	}
	// One reminder base had, its text edited by hand on one side: one.
	edited := strings.Replace(ours, "- reminder: ours", "- reminder: ours, reworded", 1)
	if b, text, _ := mergeInbox(t, ours, ours+rem(3, "2026-11-28T09:05:00Z", "more"), edited); len(b.Reminders) != 3 {
		t.Errorf("an edit by hand taken for another reminder:\n%s", text)
	}
}
