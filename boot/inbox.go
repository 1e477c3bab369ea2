package boot

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/wakeproto/wake/budget"
	"github.com/wakeproto/wake/checks"
	"github.com/wakeproto/wake/policy"
	"github.com/wakeproto/wake/tiers"
)

// RemindersTitle is the heading of the open reminders' section.
const RemindersTitle = "## Open reminders"

// Reminders is the open reminders of warm/inbox.md as the context lists
// them: newest first, one line each, within budget.inbox; those past the
// budget are counted, not listed. The context has none (nil) when no
// reminder is open, or the inbox is secret (counted as held back).
type Reminders struct {
	Budget   int
	Tokens   int              // exact count of Text()
	Open     int              // the open reminders
	Entries  []tiers.Reminder // listed, newest first, scrubbed
	Unlisted int
	// Held is "confidential" for an inbox shown by its summary only.
	Held     string
	Summary  string
	Squeezed bool // cut further to keep the context under memory_max
	// Bytes is the inbox's size when it is over the read limit, and only
	// the open reminders of its head are here; 0 when it was read whole.
	Bytes int64

	all    []tiers.Reminder // every open reminder, newest first
	hidden bool             // not even the count of the reminders fits
	cuts   []budget.Cut     // the reminders left out, and the count when hidden
}

// addFindings adds findings found after the checks ran (the inbox is read
// after them) and says their failures in the announcement, in place of
// the "Resumed. …" line of a start whose checks all passed.
func (c *Context) addFindings(fs []checks.Finding) {
	var msgs []string
	for _, f := range fs {
		if f.Severity == checks.Halt || f.Severity == checks.Fail {
			msgs = append(msgs, f.Message)
		}
	}
	c.Findings = append(c.Findings, fs...)
	if len(msgs) == 0 {
		return
	}
	lines := strings.Split(c.Announcement, "\n")
	if n := len(lines); n > 0 && strings.HasPrefix(lines[n-1], "Resumed.") {
		lines = lines[:n-1]
	}
	c.Announcement = strings.Join(append(lines, msgs...), "\n")
	c.Announcement = strings.TrimPrefix(c.Announcement, "\n")
}

// readInbox reads the inbox, and says its conflict markers' failures in
// the announcement: before anything takes what the announcement says as
// said (the HANDOFF's "as announced"), since a failure takes the place of
// its "Resumed. …" line. Problems reading it are warnings: they never stop
// a session start.
func (c *Context) readInbox(o Options) {
	d, err := tiers.ReadDoc(o.FS, o.Root, tiers.InboxPath)
	switch {
	case err != nil:
		c.Warnings = append(c.Warnings, fmt.Sprintf("%s: unreadable: %s; no open reminders shown", tiers.InboxPath, tiers.Cause(err)))
		return
	case d.Missing:
		return
	case d.Skipped != "":
		c.Warnings = append(c.Warnings, fmt.Sprintf("%s: skipped: %s", tiers.InboxPath, d.Skipped))
		return
	}
	c.addFindings(checks.MarkerFindings(d))
	c.inbox = &d
}

// addReminders fits the open reminders of the inbox [Context.readInbox]
// read to budget.inbox.
func (c *Context) addReminders(o Options) {
	if c.inbox == nil {
		return
	}
	d := *c.inbox
	// Like a tier file over the read limit, a huge inbox is read by its
	// head only, and the instance is told to compress it: a start's
	// memory follows what it shows, not what a cloned root ships.
	parse := tiers.ParseInbox
	if d.Huge {
		parse, c.inboxHuge = tiers.ParseInboxHead, d.Size
	}
	in, err := parse(d.Content)
	var ie *tiers.InboxError
	switch {
	case errors.As(err, &ie):
		for _, p := range ie.Problems {
			reason, _ := policy.Scrub(p.Reason)
			c.Warnings = append(c.Warnings, fmt.Sprintf("%s:%d: %s", tiers.InboxPath, p.Line, reason))
		}
	case err != nil:
		c.Warnings = append(c.Warnings, err.Error())
		return
	}
	open := in.Open()
	if len(open) == 0 {
		return
	}
	lvl, metaErr := policy.OfDoc(d)
	switch lvl {
	case tiers.Secret:
		c.HeldBack.Secret++
		if metaErr != nil {
			c.Warnings = append(c.Warnings, fmt.Sprintf("%s: held back because its front matter cannot be read, so its sensitivity is unknown (not because it is secret): %v", tiers.InboxPath, metaErr))
		}
		return
	case tiers.Confidential:
		c.HeldBack.Confidential++
		r := &Reminders{Budget: o.Config.Budget.Inbox, Open: len(open), Held: tiers.Confidential, Bytes: c.inboxHuge}
		var red policy.Redactions
		r.Summary, red = policy.Scrub(tiers.OneLine(d.Meta.Summary))
		c.HeldBack.Redacted = c.HeldBack.Redacted.Merge(red)
		r.fit(r.Budget, o.Counter)
		c.Reminders = r
		return
	}
	r := &Reminders{Budget: o.Config.Budget.Inbox, Open: len(open), Bytes: c.inboxHuge}
	for _, rm := range open {
		rm.Tags = slices.Clone(rm.Tags)
		ptrs := []*string{&rm.Text, &rm.Topic, &rm.Next}
		for i := range rm.Tags {
			ptrs = append(ptrs, &rm.Tags[i])
		}
		for _, s := range ptrs {
			var red policy.Redactions
			*s, red = policy.Scrub(*s)
			c.HeldBack.Redacted = c.HeldBack.Redacted.Merge(red)
		}
		r.all = append(r.all, rm)
	}
	// Newest first: entries are numbered as they are added.
	slices.SortStableFunc(r.all, func(a, b tiers.Reminder) int { return b.N - a.N })
	r.fit(r.Budget, o.Counter)
	c.Reminders = r
}

// fit lists as many reminders, newest first, as fit limit tokens with the
// line counting the rest, counted exactly: the oldest go first. When not
// even that line fits, none is listed.
func (r *Reminders) fit(limit int, c budget.Counter) {
	r.hidden = false
	lines := make([]string, len(r.all))
	for i, rm := range r.all {
		lines[i] = reminderLine(rm)
	}
	r.Tokens, r.hidden, r.cuts = fitNewest(c, limit, tiers.InboxPath, lines, r.moreLine, func(n int) string {
		r.Entries, r.Unlisted = r.all[:n], len(r.all)-n
		return r.Text()
	})
}

// Text renders the listed reminders and the count of the others, or a
// confidential inbox's summary. Empty when nothing fits.
func (r *Reminders) Text() string {
	if r.hidden {
		return ""
	}
	if r.Held != "" {
		s := fmt.Sprintf("%s is confidential: %s, summary only.\n", tiers.InboxPath, budget.Plural(r.Open, "open reminder"))
		if r.Summary != "" {
			s += "Summary: " + r.Summary + "\n"
		}
		return s + r.headLine()
	}
	var b strings.Builder
	for _, rm := range r.Entries {
		b.WriteString(reminderLine(rm))
	}
	b.WriteString(r.moreLine(r.Unlisted))
	return b.String()
}

func (r *Reminders) moreLine(unlisted int) string {
	s := ""
	if unlisted > 0 {
		s = fmt.Sprintf("- %d more open, not listed: `wake remember list`\n", unlisted)
	}
	return s + r.headLine()
}

// headLine says that only the head of a huge inbox was read, "" when it
// was read whole.
func (r *Reminders) headLine() string {
	if r.Bytes == 0 {
		return ""
	}
	return fmt.Sprintf("- only the first %d KiB of %s (%s bytes) were read: reminders past them are not counted\n",
		tiers.HeadBytes>>10, tiers.InboxPath, budget.Thousands(int(r.Bytes)))
}

// reminderLine is one open reminder: "- #N DATE [topic] TEXT (next: STEP)".
func reminderLine(r tiers.Reminder) string {
	var b strings.Builder
	fmt.Fprintf(&b, "- #%d", r.N)
	if !r.At.IsZero() {
		fmt.Fprintf(&b, " %s", r.At.UTC().Format("2006-01-02"))
	}
	if r.Topic != "" {
		fmt.Fprintf(&b, " [%s]", tiers.ShortLine(r.Topic))
	}
	fmt.Fprintf(&b, " %s", tiers.ShortLine(r.Text))
	if r.Next != "" {
		fmt.Fprintf(&b, " (next: %s)", tiers.ShortLine(r.Next))
	}
	b.WriteString("\n")
	// A hand-edited inbox may hold terminal escapes; none reach the context.
	return tiers.Printable(b.String())
}

// writeReminders renders the open reminders' section.
func writeReminders(b *strings.Builder, c *Context) {
	r := c.Reminders
	if r == nil {
		return
	}
	writeListSection(b, RemindersTitle, r.Text(), r.Squeezed, budget.Plural(r.Open, "open reminder"), "budget.inbox", "`wake remember list`")
}

// writeListSection renders a section of listed lines under title: text,
// or, when none fits, what was not listed (what), why and where to read it.
func writeListSection(b *strings.Builder, title, text string, squeezed bool, what, budgetKey, where string) {
	fmt.Fprintf(b, "\n%s\n\n", title)
	if text != "" {
		b.WriteString(text)
		return
	}
	why := "do not fit " + budgetKey
	if squeezed {
		why = "left out to keep this context under budget.memory_max"
	}
	fmt.Fprintf(b, "%s, not listed (they %s): %s.\n", what, why, where)
}
