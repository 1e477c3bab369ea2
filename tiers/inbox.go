package tiers

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
)

// InboxPath is the remember-later inbox: reminders an agent or the user
// left for later, each under a numbered heading. Entries are appended and
// never deleted; closing one annotates it ("consumed:" by a capsule,
// "done:" with a reason). It is not a phase-3 file: the boot context shows
// only its open reminders, in a section of their own.
const InboxPath = "warm/inbox.md"

// InboxTitle and InboxIntro open the inbox wake creates, after
// InboxFront, the summary front matter every file wake writes carries
// (the table of contents and the history show it).
const (
	InboxFront = "---\nsummary: Reminders to pick up later, added by wake remember; closed ones annotated, never deleted\n---\n"
	InboxTitle = "# Remember later"
	InboxIntro = "Reminders to pick up later, added by `wake remember`, numbered for good: wake never deletes one; closing one adds a consumed: or done: line."
)

// Inbox entry field keys, as wake writes them ("- key: value").
const (
	InboxKeyReminder = "reminder"
	InboxKeyTopic    = "topic"
	InboxKeyNext     = "next"
	// InboxKeyHypothesis and InboxKeyMissing are an exploratory thread's
	// current hypothesis and the evidence still missing for it (seed
	// 003's exploratory threads).
	InboxKeyHypothesis = "hypothesis"
	InboxKeyMissing    = "missing"
	InboxKeyTags       = "tags"
	InboxKeyConsumed   = "consumed"
	InboxKeyDone       = "done"
	// InboxKeyID is the reminder's id ([ReminderID]), which the entries
	// older wakes wrote lack: those are known by their number alone.
	InboxKeyID = "id"
)

// ReminderIDPrefix starts every id wake gives a reminder.
const ReminderIDPrefix = "r-"

// ReminderID returns the id wake gives the reminder numbered n, added at
// the time at (as the heading writes it) saying text, by the clone whose
// writer id is writer: "r-", six hex digits of a SHA-256 of the four, "-"
// and the writer ("r-9c04e1-k3f9qa"). Two branches both add a #25; the
// writer keeps their ids apart, so that a merge can take the union of the
// two inboxes by id.
func ReminderID(writer string, n int, at, text string) string {
	sum := sha256.Sum256([]byte(writer + "\n" + strconv.Itoa(n) + "\n" + at + "\n" + OneLine(text)))
	return ReminderIDPrefix + hex.EncodeToString(sum[:])[:6] + "-" + writer
}

// InboxTimeLayout is how wake writes an entry's time and a closing time.
const InboxTimeLayout = "2006-01-02T15:04:05Z"

// Reminder is one entry of the inbox.
type Reminder struct {
	N int // the number in its heading, which never changes
	// ID is the reminder's id line ([ReminderID]); "" in the entries
	// older wakes wrote, which are known by N alone.
	ID string
	At time.Time // when it was added; zero when its heading's time is unreadable
	// Text is the reminder; Topic, Next (the suggested next step) and Tags
	// are optional, and so are Hypothesis (the thread's current
	// hypothesis) and Missing (the evidence still missing for it).
	Text, Topic, Next   string
	Hypothesis, Missing string
	Tags                []string
	// Consumed is the id of the capsule that took the reminder up; Done
	// is why it was closed by hand. Either closes it.
	Consumed, Done string
	// ClosedAt is when it was closed; zero when open, or when the closing
	// line names no readable time.
	ClosedAt time.Time
	Line     int // 1-based line of its heading
	// End is the byte offset just past the entry's last non-blank line
	// (its line ending included, when it has one): where a closing line
	// goes.
	End int
}

// Open reports whether the reminder is still to be picked up.
func (r Reminder) Open() bool { return r.Consumed == "" && r.Done == "" }

// Closure says how and when a closed reminder was closed, "" when open:
// "consumed by capsule main/20261122T223000Z at 2026-11-22T22:30:00Z" or
// "done at 2026-11-22T22:30:00Z: shipped".
func (r Reminder) Closure() string {
	at := ""
	if !r.ClosedAt.IsZero() {
		at = " at " + r.ClosedAt.UTC().Format(InboxTimeLayout)
	}
	switch {
	case r.Consumed != "":
		return "consumed by capsule " + r.Consumed + at
	case r.Done != "":
		return "done" + at + ": " + r.Done
	}
	return ""
}

// InboxProblem is a malformed line of the inbox, or a problem with an
// entry, reported with its line; the rest of the file is still read.
type InboxProblem struct {
	Line   int
	Text   string // the line as written
	Reason string
	// Duplicate says the entry has a number or an id another entry has:
	// one of them cannot be named, and a merge without wake's driver is
	// the likely cause.
	Duplicate bool
}

// Inbox is a parsed warm/inbox.md.
type Inbox struct {
	Reminders []Reminder // in file order
	Problems  []InboxProblem
	// Last is the highest entry number the file uses, malformed entries'
	// included, so that a new entry never takes a number already seen;
	// LastLine is the line of the first heading that uses it.
	Last, LastLine int
	// EOL is the file's line ending ("\r\n" when its first line ends so),
	// which new lines take.
	EOL string
	// Partial says only a head of the file was read ([ParseInboxHead]):
	// the entries past it are not here.
	Partial bool
}

// Reminder returns the entry numbered n.
func (b Inbox) Reminder(n int) (Reminder, bool) {
	for _, r := range b.Reminders {
		if r.N == n {
			return r, true
		}
	}
	return Reminder{}, false
}

// Open returns the open reminders, in file order.
func (b Inbox) Open() []Reminder {
	var out []Reminder
	for _, r := range b.Reminders {
		if r.Open() {
			out = append(out, r)
		}
	}
	return out
}

// InboxError lists the malformed entries of the inbox, each with its line.
// ParseInbox returns it together with every entry it could read.
type InboxError struct {
	Problems []InboxProblem
}

func (e *InboxError) Error() string {
	parts := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		parts[i] = fmt.Sprintf("%s:%d: %s", InboxPath, p.Line, p.Reason)
	}
	return strings.Join(parts, "; ")
}

// inboxHead matches an entry's heading: "## N · TIME". A hand-written
// heading may use "-", "—", "|" or nothing between the two.
var inboxHead = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^##[ \t]+([0-9]+)\.?(?:[ \t]*(?:·|-|—|–|\|)[ \t]*|[ \t]+|$)(.*)$`)
})

// inboxField matches a field line: "- key: value" ("*" or "+" too).
var inboxField = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[ \t]*[-*+][ \t]+([A-Za-z_]+)[ \t]*:[ \t]?(.*)$`) })

// ParseInbox reads an inbox. It tolerates hand edits: prose anywhere,
// headings that are not entries, blank lines, "*" bullets, keys in any
// case, indented continuation lines, unknown fields (kept, ignored), CRLF
// line endings and a front matter block. What it cannot read as an entry
// (a numbered heading without a reminder: line, a number or an id used
// twice, an unreadable time, a field given twice) comes back as a problem with its
// line, in an *InboxError, together with everything it could read. A file
// that is not text (a NUL byte, invalid UTF-8) is refused with an error
// naming it and no entries: wake will not append to it.
func ParseInbox(data []byte) (Inbox, error) {
	b := Inbox{EOL: "\n"}
	if i := bytes.IndexByte(data, 0); i >= 0 {
		return b, fmt.Errorf("%s: not a text file (NUL byte at offset %d); wake reads and writes the inbox as text only", InboxPath, i)
	}
	if line := firstInvalidUTF8Line(data); line > 0 {
		return b, fmt.Errorf("%s:%d: invalid UTF-8; wake reads and writes the inbox as UTF-8 text only: fix or remove that line", InboxPath, line)
	}
	if first, _, ok := bytes.Cut(data, []byte("\n")); ok && bytes.HasSuffix(first, []byte("\r")) {
		b.EOL = "\r\n"
	}
	p := inboxParser{b: &b, seen: map[int]int{}, seenIDs: map[string]int{}}
	start := 0
	if _, body, ok := SplitFrontMatter(data); ok {
		// The block's lines, its two "---" lines included, come first.
		start = len(data) - len(body)
		p.line = bytes.Count(data[:start], []byte("\n"))
	}
	text := string(data)
	for off := start; off < len(text); {
		end := strings.IndexByte(text[off:], '\n')
		next := len(text)
		if end >= 0 {
			next = off + end + 1
		}
		p.line++
		raw := text[off:next]
		p.take(strings.TrimRight(raw, "\r\n"), next)
		off = next
	}
	p.finish()
	if len(b.Problems) > 0 {
		return b, &InboxError{Problems: b.Problems}
	}
	return b, nil
}

type inboxParser struct {
	b    *Inbox
	line int
	cur  *Reminder
	ok   bool // cur is an entry to keep
	seen map[int]int
	// seenIDs are the lines of the entries that gave each id, lower case.
	seenIDs map[string]int
	// field is the key of the field a continuation line extends; had
	// lists the keys the current entry gave.
	field string
	had   map[string]bool
	head  string // the current entry's heading, for its problems
}

func (p *inboxParser) problem(line int, text, reason string) {
	p.b.Problems = append(p.b.Problems, InboxProblem{Line: line, Text: text, Reason: reason})
}

func (p *inboxParser) duplicate(line int, text, reason string) {
	p.b.Problems = append(p.b.Problems, InboxProblem{Line: line, Text: text, Reason: reason, Duplicate: true})
}

// take reads one line, s without its line ending; end is the offset just
// past it.
func (p *inboxParser) take(s string, end int) {
	if lvl, _ := HeadingLevel(s); lvl > 0 && lvl <= 2 {
		p.finish()
		if m := inboxHead().FindStringSubmatch(strings.TrimLeft(s, " ")); m != nil && lvl == 2 {
			p.start(s, m)
		}
		return
	}
	if p.cur == nil {
		return
	}
	if strings.TrimSpace(s) == "" {
		p.field = ""
		return
	}
	p.cur.End = end
	if m := inboxField().FindStringSubmatch(s); m != nil {
		p.set(s, strings.ToLower(m[1]), strings.TrimSpace(m[2]))
		return
	}
	if p.field != "" && (s[0] == ' ' || s[0] == '\t') {
		// A long value wrapped by hand onto an indented line.
		p.extend(strings.TrimSpace(s))
		return
	}
	p.field = ""
}

func (p *inboxParser) start(s string, m []string) {
	n, err := strconv.Atoi(m[1])
	if errors.Is(err, strconv.ErrRange) {
		// Wake never writes such a number, so no new entry can take it.
		p.problem(p.line, s, fmt.Sprintf("entry number %s is too large: entries are numbered from 1 up to %d", m[1], math.MaxInt))
		return
	}
	if err != nil || n < 1 {
		p.problem(p.line, s, fmt.Sprintf("entry number %s is not a number from 1 up", m[1]))
		return
	}
	if n > p.b.Last {
		p.b.Last, p.b.LastLine = n, p.line
	}
	p.cur = &Reminder{N: n, Line: p.line}
	p.ok, p.field, p.had, p.head = true, "", map[string]bool{}, s
	if prev, dup := p.seen[n]; dup {
		p.duplicate(p.line, s, fmt.Sprintf("entry number %d is already the entry on line %d (likely a merge of branches that each added a reminder, without wake's merge driver: 'wake init' sets it up); renumber this one by hand to a number no entry uses", n, prev))
		p.ok = false
	} else {
		p.seen[n] = p.line
	}
	at := strings.TrimSpace(m[2])
	switch t, ok := parseInboxTime(at); {
	case at == "":
		p.problem(p.line, s, fmt.Sprintf("entry %d has no time: write it as ## %d · %s", n, n, InboxTimeLayout))
	case !ok:
		p.problem(p.line, s, fmt.Sprintf("entry %d: time %q is not readable (write it as %s)", n, at, InboxTimeLayout))
	default:
		p.cur.At = t
	}
}

func (p *inboxParser) set(s, key, v string) {
	r := p.cur
	switch key {
	case InboxKeyReminder, InboxKeyTopic, InboxKeyNext, InboxKeyTags, InboxKeyConsumed, InboxKeyDone, InboxKeyID,
		InboxKeyHypothesis, InboxKeyMissing:
	default:
		p.field = "" // a field of the user's own: kept in the file, not read
		return
	}
	if p.had[key] {
		p.problem(p.line, s, fmt.Sprintf("entry %d gives %s: twice; the first one counts", r.N, key))
		p.field = ""
		return
	}
	p.had[key], p.field = true, key
	switch key {
	case InboxKeyReminder:
		r.Text = v
	case InboxKeyID:
		r.ID = v
	case InboxKeyTopic:
		r.Topic = v
	case InboxKeyNext:
		r.Next = v
	case InboxKeyHypothesis:
		r.Hypothesis = v
	case InboxKeyMissing:
		r.Missing = v
	case InboxKeyTags:
		r.Tags = SplitTags(v)
	case InboxKeyConsumed, InboxKeyDone:
		what, at := splitClosing(v)
		if what == "" {
			p.problem(p.line, s, fmt.Sprintf("entry %d: %s: says nothing, so it does not close the entry", r.N, key))
			return
		}
		if key == InboxKeyConsumed {
			r.Consumed = what
		} else {
			r.Done = what
		}
		r.ClosedAt = at
	}
}

// extend adds a continuation line to the current field.
func (p *inboxParser) extend(v string) {
	r := p.cur
	switch p.field {
	case InboxKeyReminder:
		r.Text = strings.TrimSpace(r.Text + " " + v)
	case InboxKeyTopic:
		r.Topic = strings.TrimSpace(r.Topic + " " + v)
	case InboxKeyNext:
		r.Next = strings.TrimSpace(r.Next + " " + v)
	case InboxKeyHypothesis:
		r.Hypothesis = strings.TrimSpace(r.Hypothesis + " " + v)
	case InboxKeyMissing:
		r.Missing = strings.TrimSpace(r.Missing + " " + v)
	case InboxKeyTags:
		r.Tags = append(r.Tags, SplitTags(v)...)
	case InboxKeyDone:
		if r.Done != "" && r.ClosedAt.IsZero() {
			r.Done, r.ClosedAt = splitClosing(r.Done + " " + v)
		}
	}
}

func (p *inboxParser) finish() {
	r := p.cur
	p.cur = nil
	if r == nil || !p.ok {
		return
	}
	if r.Text == "" {
		p.problem(r.Line, p.head, fmt.Sprintf("entry %d has no reminder: line, so it is not read as a reminder", r.N))
		return
	}
	if id := strings.ToLower(r.ID); id != "" {
		if prev, dup := p.seenIDs[id]; dup {
			// Kept all the same: known by its number, as a reminder
			// without an id is.
			p.duplicate(r.Line, p.head, fmt.Sprintf("entry %d has the id %s of the entry on line %d, which must name one reminder (likely a copy made by hand, or a merge of branches without wake's merge driver: 'wake init' sets it up); remove this one's id: line, or give it an id no entry uses", r.N, r.ID, prev))
		} else {
			p.seenIDs[id] = r.Line
		}
	}
	p.b.Reminders = append(p.b.Reminders, *r)
}

// SplitTags splits a tags value at commas, trimmed, the empty ones left
// out.
func SplitTags(v string) []string {
	var out []string
	for _, t := range strings.Split(v, ",") {
		if t = strings.TrimSpace(t); t != "" {
			out = append(out, t)
		}
	}
	return out
}

// splitClosing splits "WHAT at TIME" at its last " at " when a readable
// time follows it; otherwise the whole is WHAT, with no time.
func splitClosing(v string) (string, time.Time) {
	v = strings.TrimSpace(v)
	if i := strings.LastIndex(v, " at "); i >= 0 {
		if t, ok := parseInboxTime(strings.TrimSpace(v[i+4:])); ok {
			return strings.TrimSpace(v[:i]), t
		}
	}
	return v, time.Time{}
}

// inboxTimeLayouts are the times a heading or closing line may give; the
// shorter ones for hand-written entries.
var inboxTimeLayouts = []string{time.RFC3339, "2006-01-02T15:04Z07:00", "2006-01-02 15:04:05", "2006-01-02 15:04", "2006-01-02T15:04", "2006-01-02"}

func parseInboxTime(s string) (time.Time, bool) {
	for _, l := range inboxTimeLayouts {
		if t, err := time.Parse(l, s); err == nil {
			return t.UTC(), true
		}
	}
	return time.Time{}, false
}
