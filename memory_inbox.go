package wake

import (
	"context"
	"errors"
	"fmt"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/policy"
	"github.com/wakeproto/wake/store"
	"github.com/wakeproto/wake/tiers"
)

// Inbox is the remember-later inbox as wake shows it: its reminders
// scrubbed of secret-looking strings, or none when its sensitivity holds
// it back.
type Inbox struct {
	// Reminders are every entry that could be read, in file order, open
	// and closed; none when Held is set.
	Reminders []tiers.Reminder
	// Total and Open count the entries, held back or not.
	Total, Open int
	// Problems are the malformed entries, by line; their texts are left
	// out when Held is set.
	Problems []tiers.InboxProblem
	// Held is the level holding the inbox back ("confidential",
	// "secret"), "" when it is shown. Summary is the one line of a
	// confidential inbox that may appear.
	Held    string
	Summary string
	// Redacted counts what was scrubbed from the reminders shown.
	Redacted policy.Redactions
	// Bytes is the inbox's size when it is over the read limit
	// ([tiers.MaxDocBytes]): only its head was read, and the reminders
	// and counts are those of the head. 0 when it was read whole.
	Bytes int64
}

// Inbox reads warm/inbox.md under the shared lock (best effort, like
// [Memory.Check]). A missing inbox is empty; one that is not text is an
// error naming it.
func (m *Memory) Inbox(ctx context.Context) (Inbox, error) {
	if unlock, err := m.o.Locker.RLock(ctx, m.root); err == nil {
		defer unlock()
	} else {
		m.warn(fmt.Sprintf("the memory root's lock could not be taken (%v); the inbox is read as it is", err))
	}
	return ReadInbox(m.o.FS, m.root)
}

// Reminders returns every reminder of the inbox, open and closed, in file
// order, scrubbed of secret-looking strings; none when the inbox's
// sensitivity holds it back (what is not shown is not handed on either).
func (m *Memory) Reminders(ctx context.Context) ([]tiers.Reminder, error) {
	in, err := m.Inbox(ctx)
	return in.Reminders, err
}

// Remember appends a reminder to the inbox (see [store.Store.Remember]).
// The entry comes back scrubbed, or with its texts held back as the
// inbox's sensitivity says.
func (m *Memory) Remember(ctx context.Context, r store.NewReminder) (tiers.Reminder, error) {
	got, err := m.Store().Remember(ctx, r)
	return m.shownReminder(got), err
}

// CloseReminder closes the open reminder n by hand, saying why (see
// [store.Store.CloseReminder]). The entry, and a refusal quoting one
// already closed, come back scrubbed or held back as the inbox's
// sensitivity says.
func (m *Memory) CloseReminder(ctx context.Context, n int, why string) (tiers.Reminder, error) {
	got, err := m.Store().CloseReminder(ctx, n, why)
	var ce *store.ReminderClosedError
	if errors.As(err, &ce) {
		ce.Reminder = m.shownReminder(ce.Reminder)
	}
	return m.shownReminder(got), err
}

// shownReminder is r as an output may quote it.
func (m *Memory) shownReminder(r tiers.Reminder) tiers.Reminder {
	if lvl := policy.OfPath(m.o.FS, m.root, tiers.InboxPath); policy.Withheld(lvl) {
		return heldReminder(r, lvl)
	}
	r, _ = scrubReminder(r)
	return r
}

// heldReminder keeps of r its number, times and whether it is open.
func heldReminder(r tiers.Reminder, lvl string) tiers.Reminder {
	held := fmt.Sprintf("(held back: %s is %s)", tiers.InboxPath, lvl)
	out := tiers.Reminder{N: r.N, At: r.At, ClosedAt: r.ClosedAt, Line: r.Line, Text: held}
	if r.Consumed != "" {
		out.Consumed = held
	}
	if r.Done != "" {
		out.Done = held
	}
	return out
}

// scrubReminder scrubs every text of r, and replaces its control
// characters: a hand-edited inbox may hold terminal escapes, and what
// wake shows holds none.
func scrubReminder(r tiers.Reminder) (tiers.Reminder, policy.Redactions) {
	var all policy.Redactions
	for _, s := range []*string{&r.Text, &r.Topic, &r.Next, &r.Hypothesis, &r.Missing, &r.Consumed, &r.Done} {
		var red policy.Redactions
		*s, red = policy.Scrub(tiers.Printable(*s))
		all = all.Merge(red)
	}
	tags := make([]string, len(r.Tags))
	for i, t := range r.Tags {
		var red policy.Redactions
		tags[i], red = policy.Scrub(tiers.Printable(t))
		all = all.Merge(red)
	}
	if r.Tags != nil {
		r.Tags = tags
	}
	return r, all
}

// ReadInbox reads the inbox of the root at root as wake shows it (see
// [Inbox]), without the lock.
func ReadInbox(fsys afero.Fs, root string) (Inbox, error) {
	d, err := tiers.ReadDoc(fsys, root, tiers.InboxPath)
	if err != nil {
		return Inbox{}, err
	}
	switch {
	case d.Missing:
		return Inbox{}, nil
	case d.Skipped != "":
		return Inbox{}, fmt.Errorf("%s: %s", tiers.InboxPath, d.Skipped)
	}
	// Over the read limit only the head is read, as for a tier file: what
	// is shown stays in proportion to what can be shown.
	parse, out := tiers.ParseInbox, Inbox{}
	if d.Huge {
		parse, out.Bytes = tiers.ParseInboxHead, d.Size
	}
	b, err := parse(d.Content)
	var ie *tiers.InboxError
	if err != nil && !errors.As(err, &ie) {
		return Inbox{}, err
	}
	out.Total, out.Open, out.Problems = len(b.Reminders), len(b.Open()), b.Problems
	if lvl, _ := policy.OfDoc(d); policy.Withheld(lvl) {
		out.Held = lvl
		if lvl == tiers.Confidential {
			out.Summary, _ = policy.Scrub(tiers.OneLine(d.Meta.Summary))
		}
		for i := range out.Problems {
			out.Problems[i].Text = ""
			out.Problems[i].Reason, _ = policy.Scrub(out.Problems[i].Reason)
		}
		return out, nil
	}
	for _, r := range b.Reminders {
		r, red := scrubReminder(r)
		out.Redacted = out.Redacted.Merge(red)
		out.Reminders = append(out.Reminders, r)
	}
	for i := range out.Problems {
		p := &out.Problems[i]
		p.Text, _ = policy.Scrub(tiers.Printable(p.Text))
		p.Reason, _ = policy.Scrub(p.Reason)
	}
	return out, nil
}
