package merge

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/wakeproto/wake/tiers"
)

// reminderID reads a reminder's "- id: r-…" field line.
var reminderID = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?m)^[ \t]*[-*+][ \t]+[Ii][Dd][ \t]*:[ \t]*(\S+)[ \t]*\r?$`)
})

// closing reads a reminder's closing lines ("- consumed: …", "- done: …").
var closing = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?mi)^[ \t]*[-*+][ \t]+(consumed|done)[ \t]*:.*$`)
})

// reminder is one entry of an inbox with its bytes.
type reminder struct {
	tiers.Reminder
	raw string
}

type inboxSide struct {
	text  string
	rems  []reminder
	keys  map[string]reminder
	nums  map[int]bool
	last  int
	start int // where the first entry starts
}

func readInbox(data []byte) inboxSide {
	s := inboxSide{text: string(data), keys: map[string]reminder{}, nums: map[int]bool{}, start: len(data)}
	b, _ := tiers.ParseInbox(data) // a malformed entry is not read: it stays in ours as it is
	starts := tiers.LineStarts(s.text)
	for _, r := range b.Reminders {
		if r.Line < 1 || r.Line > len(starts) || r.End < starts[r.Line-1] {
			continue
		}
		rm := reminder{Reminder: r, raw: s.text[starts[r.Line-1]:r.End]}
		s.start = min(s.start, starts[r.Line-1])
		s.rems = append(s.rems, rm)
		if _, dup := s.keys[reminderKey(rm)]; !dup {
			s.keys[reminderKey(rm)] = rm
		}
		s.nums[r.N] = true
	}
	s.last = b.Last
	return s
}

// inboxText reports whether data is an inbox wake reads: text, whatever
// problems its entries have.
func inboxText(data []byte) bool {
	_, err := tiers.ParseInbox(data)
	var ie *tiers.InboxError
	return err == nil || errors.As(err, &ie)
}

// reminderKey names a reminder across branches: its id when it has one,
// else its time and text. Not its number: a merge may renumber one, and
// the next merge must still know it.
func reminderKey(r reminder) string {
	if m := reminderID().FindStringSubmatch(r.raw); m != nil {
		return "id:" + strings.ToLower(m[1])
	}
	if !r.At.IsZero() {
		return "at:" + r.At.UTC().Format(time.RFC3339) + "|" + tiers.OneLine(r.Text)
	}
	return "head:" + normal(firstLineOf(r.raw)) + "|" + tiers.OneLine(r.Text)
}

// MergeInbox merges the inbox by reminder: every reminder on either side
// is kept, ours in place and theirs' new ones at the end; one closed on
// either side is closed (their closing line is added to ours). A new
// reminder of theirs whose number ours already uses is renumbered past the
// highest, with a line saying so, and a note. One that a side removed and
// the other left as base had it is removed (wake compact archived it).
func MergeInbox(o Options, base, ours, theirs []byte) (Result, error) {
	if string(theirs) == string(base) || string(ours) == string(theirs) {
		return Result{Data: ours}, nil
	}
	if string(ours) == string(base) {
		return Result{Data: theirs}, nil
	}
	if !inboxText(ours) || !inboxText(theirs) {
		return prose(o, base, ours, theirs) // wake writes no inbox that is not text: a person looks
	}
	b, us, them := readInbox(base), readInbox(ours), readInbox(theirs)
	var res Result
	eol := eolOf(us.text)
	var out strings.Builder
	pos := 0
	for _, r := range us.rems {
		start := r.End - len(r.raw)
		out.WriteString(us.text[pos:start])
		pos = r.End
		k := reminderKey(r)
		t, inTheirs := them.keys[k]
		if inTheirs && twinReminders(b, k, r, t) {
			inTheirs = false // theirs' reminder with this id is another one
		}
		if !inTheirs {
			if br, inBase := b.keys[k]; inBase && br.raw == r.raw {
				continue // archived on their side, as it was
			}
		}
		out.WriteString(r.raw)
		if inTheirs && r.Open() && !t.Open() {
			addClosing(&out, r.raw, t.raw, eol)
		}
	}
	out.WriteString(us.text[pos:])
	last := max(us.last, them.last)
	for _, t := range them.rems {
		k := reminderKey(t)
		raw := t.raw
		if u, ok := us.keys[k]; ok {
			if !twinReminders(b, k, u, t) {
				continue
			}
			// Two reminders with one id: theirs gets an id of its own,
			// derived from it, so that a second merge knows it.
			id := tiers.ReminderID(writerOf(t.ID), t.N, t.At.UTC().Format(tiers.InboxTimeLayout), t.Text)
			if _, ok := us.keys["id:"+strings.ToLower(id)]; ok {
				continue // merged before
			}
			raw = withReminderID(raw, id)
			_, theirSide := o.sides()
			res.Notes = append(res.Notes, fmt.Sprintf("reminder %s of %s (%s) is now %s: both branches had a reminder %s, two different ones", t.ID, theirSide, tiers.OneLine(t.Text), id, t.ID))
		}
		if br, inBase := b.keys[k]; inBase && br.raw == t.raw {
			continue // archived on our side, as it was
		}
		if us.nums[t.N] {
			last++
			ourSide, theirSide := o.sides()
			raw = renumber(raw, t.N, last, o.Path, theirSide, eol)
			res.Notes = append(res.Notes, fmt.Sprintf("reminder %d of %s is now reminder %d: %s has a reminder %d too", t.N, theirSide, last, ourSide, t.N))
		}
		us.nums[t.N] = true
		appendBlock(&out, raw, eol)
	}
	res.Data = []byte(out.String())
	return res, nil
}

// addClosing adds to an open reminder the closing lines the other side
// gave it.
func addClosing(out *strings.Builder, raw, other, eol string) {
	if !strings.HasSuffix(raw, "\n") {
		out.WriteString(eol)
	}
	for _, l := range closing().FindAllString(other, -1) {
		out.WriteString(strings.TrimRight(l, "\r") + eol)
	}
}

// renumber gives a reminder's heading the number n, and says so in a line
// of its own (a field wake keeps and does not read).
func renumber(raw string, was, n int, path, side, eol string) string {
	head, rest, _ := strings.Cut(raw, "\n")
	head = strings.TrimRight(head, "\r")
	i := strings.Index(head, fmt.Sprint(was))
	if i < 0 {
		return raw
	}
	head = head[:i] + fmt.Sprint(n) + head[i+len(fmt.Sprint(was)):]
	note := fmt.Sprintf("- renumbered: was %d on %s; a git merge of %s found %d taken", was, side, path, was)
	body := strings.TrimRight(rest, "\r\n")
	if body == "" {
		return head + eol + note + eol
	}
	return head + eol + withEOL(body, eol) + note + eol
}

// appendBlock adds a block of lines at the end, after a blank line.
func appendBlock(out *strings.Builder, raw, eol string) {
	appendEntry(out, raw, eol)
}

// twinReminders reports whether ours and theirs, two reminders with the
// id k, are two different reminders: their texts differ and base had no
// reminder with that id (one a side edited by hand stays one reminder).
func twinReminders(base inboxSide, k string, ours, theirs reminder) bool {
	if !strings.HasPrefix(k, "id:") || tiers.OneLine(ours.Text) == tiers.OneLine(theirs.Text) {
		return false
	}
	_, inBase := base.keys[k]
	return !inBase
}

// withReminderID is a reminder's bytes with its id line's value replaced.
func withReminderID(raw, id string) string {
	loc := reminderID().FindStringSubmatchIndex(raw)
	if loc == nil {
		return raw
	}
	return raw[:loc[2]] + id + raw[loc[3]:]
}
