package report

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/wakeproto/wake"
	"github.com/wakeproto/wake/budget"
	"github.com/wakeproto/wake/tiers"
)

// Reminders is the JSON of `wake remember list --format json`.
type Reminders struct {
	Version int    `json:"version"`
	Path    string `json:"path"`
	// Total and Open count the entries that could be read, held back or
	// not.
	Total     int        `json:"total"`
	Open      int        `json:"open"`
	Reminders []Reminder `json:"reminders"`
	// Malformed lists the entries that could not be read, by line; their
	// text is left out when the inbox is held back.
	Malformed []Malformed `json:"malformed"`
	// HeldBack is the sensitivity level that holds the inbox back:
	// Reminders is then empty; Summary is a confidential inbox's one line.
	HeldBack string `json:"held_back,omitempty"`
	Summary  string `json:"summary,omitempty"`
	// Redacted counts by kind the secret-looking strings scrubbed from the
	// reminders' texts.
	Redacted map[string]int `json:"redacted,omitempty"`
	// Huge says the inbox is over the read limit, Bytes long: only its
	// head was read, and the reminders and counts are those of the head.
	Huge  bool  `json:"huge,omitempty"`
	Bytes int64 `json:"bytes,omitempty"`
}

// Reminder is one entry of the inbox.
type Reminder struct {
	N int `json:"n"`
	// ID is its id line's ([tiers.ReminderID]); absent from the entries
	// older wakes wrote.
	ID string `json:"id,omitempty"`
	// At is when it was added (RFC 3339, UTC); "" when its heading's time
	// is unreadable.
	At    string   `json:"at"`
	Text  string   `json:"text"`
	Topic string   `json:"topic,omitempty"`
	Next  string   `json:"next,omitempty"`
	Tags  []string `json:"tags"`
	// Status is "open", "consumed" (by the capsule Consumed names) or
	// "done" (closed by hand, Done saying why).
	Status   string `json:"status"`
	Consumed string `json:"consumed,omitempty"`
	Done     string `json:"done,omitempty"`
	ClosedAt string `json:"closed_at,omitempty"`
	Line     int    `json:"line"`
}

// ReminderChange is the JSON of `wake remember "TEXT" --format json` and
// `wake remember done N --format json`: the entry as it now reads.
type ReminderChange struct {
	Version  int      `json:"version"`
	Path     string   `json:"path"`
	Reminder Reminder `json:"reminder"`
}

// Reminder statuses.
const (
	ReminderOpen     = "open"
	ReminderConsumed = "consumed"
	ReminderDone     = "done"
)

// ReminderStatus is r's status.
func ReminderStatus(r tiers.Reminder) string {
	switch {
	case r.Consumed != "":
		return ReminderConsumed
	case r.Done != "":
		return ReminderDone
	}
	return ReminderOpen
}

func stamp(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}

// NewReminder is r as the JSON shows it.
func NewReminder(r tiers.Reminder) Reminder {
	return Reminder{N: r.N, ID: r.ID, At: stamp(r.At), Text: r.Text, Topic: r.Topic, Next: r.Next, Tags: strs(r.Tags),
		Status: ReminderStatus(r), Consumed: r.Consumed, Done: r.Done, ClosedAt: stamp(r.ClosedAt), Line: r.Line}
}

// ReminderChangeJSON renders the entry a command added or closed.
func ReminderChangeJSON(r tiers.Reminder) ([]byte, error) {
	return marshal(ReminderChange{Version: Version, Path: tiers.InboxPath, Reminder: NewReminder(r)})
}

// ShownReminders is what `wake remember list` lists: every entry with
// all, else the open ones.
func ShownReminders(in wake.Inbox, all bool) []tiers.Reminder {
	var out []tiers.Reminder
	for _, r := range in.Reminders {
		if all || r.Open() {
			out = append(out, r)
		}
	}
	return out
}

// RemindersJSON renders the shown reminders of in as JSON.
func RemindersJSON(in wake.Inbox, all bool) ([]byte, error) {
	out := Reminders{Version: Version, Path: tiers.InboxPath, Total: in.Total, Open: in.Open, Reminders: []Reminder{},
		Malformed: []Malformed{}, HeldBack: in.Held, Summary: in.Summary, Redacted: in.Redacted, Huge: in.Bytes > 0, Bytes: in.Bytes}
	for _, p := range in.Problems {
		out.Malformed = append(out.Malformed, Malformed{Line: p.Line, Text: p.Text, Reason: p.Reason})
	}
	for _, r := range ShownReminders(in, all) {
		out.Reminders = append(out.Reminders, NewReminder(r))
	}
	return marshal(out)
}

// ReminderLine is r on one line, as the list and the boot context show
// it: "#N  DATE  [topic]  TEXT  (next: STEP)".
func ReminderLine(r tiers.Reminder) string {
	var b strings.Builder
	fmt.Fprintf(&b, "#%d", r.N)
	if !r.At.IsZero() {
		fmt.Fprintf(&b, "  %s", r.At.UTC().Format("2006-01-02"))
	}
	if r.Topic != "" {
		fmt.Fprintf(&b, "  [%s]", tiers.OneLine(r.Topic))
	}
	fmt.Fprintf(&b, "  %s", tiers.OneLine(r.Text))
	if r.Next != "" {
		fmt.Fprintf(&b, "  (next: %s)", tiers.OneLine(r.Next))
	}
	return b.String()
}

// RemindersText writes the shown reminders of in, each on its line with
// its tags and, with all, how it was closed; then the counts.
func RemindersText(w io.Writer, in wake.Inbox, all bool) {
	remindersText(w, in, all)
	if in.Bytes > 0 {
		fmt.Fprintf(w, "Only the first %d KiB of %s (%s bytes, over the %d MiB read limit) were read: reminders past them are not listed or counted; compress it.\n",
			tiers.HeadBytes>>10, tiers.InboxPath, budget.Thousands(int(in.Bytes)), tiers.MaxDocBytes>>20)
	}
}

func remindersText(w io.Writer, in wake.Inbox, all bool) {
	switch {
	case in.Held == tiers.Confidential:
		fmt.Fprintf(w, "%s is confidential: its %d reminder(s), %d open, are held back; wake shows its summary only.\n", tiers.InboxPath, in.Total, in.Open)
		if in.Summary != "" {
			fmt.Fprintf(w, "Summary: %s\n", in.Summary)
		}
		return
	case in.Held != "":
		fmt.Fprintf(w, "%s is %s: its %d reminder(s), %d open, are held back; wake shows none of their text.\n", tiers.InboxPath, in.Held, in.Total, in.Open)
		return
	}
	shown := ShownReminders(in, all)
	for _, r := range shown {
		fmt.Fprintln(w, ReminderLine(r))
		if len(r.Tags) > 0 {
			fmt.Fprintf(w, "     tags: %s\n", tiers.OneLine(strings.Join(r.Tags, ", ")))
		}
		if !r.Open() {
			fmt.Fprintf(w, "     %s\n", tiers.OneLine(r.Closure()))
		}
	}
	if len(shown) > 0 {
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "%s: %d open, %d closed", budget.Plural(in.Total, "reminder"), in.Open, in.Total-in.Open)
	if !all && in.Total > in.Open {
		fmt.Fprint(w, " (--all lists every one)")
	}
	fmt.Fprintln(w, ".")
	if r := in.Redacted.Line(); r != "" {
		fmt.Fprintf(w, "%s: wake shows them so; take them out of %s.\n", strings.ToUpper(r[:1])+r[1:], tiers.InboxPath)
	}
}
