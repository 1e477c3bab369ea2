package store

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/wakeproto/wake/tiers"
)

// Ledger operations of the inbox.
const (
	OpRemember     = "remember"
	OpRememberDone = "remember-done"
)

// listHint is what a user told of an unknown or closed reminder can do.
const listHint = "see them with: wake remember list --all"

// NewReminder is a reminder to append to the inbox.
type NewReminder struct {
	// ID, when set, is written on an id line after the heading; Remember
	// gives one ([tiers.ReminderID]).
	ID    string `json:"-"`
	Text  string // what to remember (required)
	Topic string // optional
	Next  string // the suggested next step, optional
	Tags  []string
	// Hypothesis is an exploratory thread's current hypothesis, Missing
	// the evidence still missing for it; both optional.
	Hypothesis, Missing string
}

// normalized trims the texts and leaves out empty tags.
func (r NewReminder) normalized() NewReminder {
	r.Text, r.Topic, r.Next = strings.TrimSpace(r.Text), strings.TrimSpace(r.Topic), strings.TrimSpace(r.Next)
	r.Hypothesis, r.Missing = strings.TrimSpace(r.Hypothesis), strings.TrimSpace(r.Missing)
	var tags []string
	for _, t := range r.Tags {
		if t = strings.TrimSpace(t); t != "" {
			tags = append(tags, t)
		}
	}
	r.Tags = tags
	return r
}

// Validate checks that the text is present and every field is one line
// and holds no character that [CheckText] refuses; a tag holds no comma,
// which separates tags.
func (r NewReminder) Validate() error {
	switch {
	case strings.TrimSpace(r.Text) == "":
		return inputHint("the reminder text is empty", `say what to remember: wake remember "Outline the onboarding spike"`)
	case strings.ContainsAny(r.Text+r.Topic+r.Next+r.Hypothesis+r.Missing+strings.Join(r.Tags, ""), "\r\n"):
		return inputErrorf("reminder, topic, next step, hypothesis, missing evidence and tags must each be one line")
	}
	for _, f := range []struct{ name, v string }{{"the reminder text", r.Text}, {"the topic", r.Topic}, {"the next step", r.Next},
		{"the hypothesis", r.Hypothesis}, {"the missing evidence", r.Missing}} {
		if err := CheckText(f.v, false); err != nil {
			return inputHint(fmt.Sprintf("%s: %v", f.name, err), TextHint)
		}
	}
	for _, t := range r.Tags {
		if err := CheckText(t, false); err != nil {
			return inputHint(fmt.Sprintf("tag %q: %v", t, err), TextHint)
		}
		if strings.Contains(t, ",") {
			return inputErrorf("tag %q holds a comma, which separates tags: give it as two tags or without the comma", t)
		}
	}
	return nil
}

// Render formats the entry numbered n, added at, as wake writes it, lines
// ending in "\n": the heading, then its fields.
func (r NewReminder) Render(n int, at time.Time) string {
	r = r.normalized()
	var b strings.Builder
	fmt.Fprintf(&b, "## %d · %s\n", n, at.UTC().Format(tiers.InboxTimeLayout))
	if r.ID != "" {
		fmt.Fprintf(&b, "- %s: %s\n", tiers.InboxKeyID, r.ID)
	}
	fmt.Fprintf(&b, "- %s: %s\n", tiers.InboxKeyReminder, r.Text)
	if r.Topic != "" {
		fmt.Fprintf(&b, "- %s: %s\n", tiers.InboxKeyTopic, r.Topic)
	}
	if r.Hypothesis != "" {
		fmt.Fprintf(&b, "- %s: %s\n", tiers.InboxKeyHypothesis, r.Hypothesis)
	}
	if r.Missing != "" {
		fmt.Fprintf(&b, "- %s: %s\n", tiers.InboxKeyMissing, r.Missing)
	}
	if r.Next != "" {
		fmt.Fprintf(&b, "- %s: %s\n", tiers.InboxKeyNext, r.Next)
	}
	if len(r.Tags) > 0 {
		fmt.Fprintf(&b, "- %s: %s\n", tiers.InboxKeyTags, strings.Join(r.Tags, ", "))
	}
	return b.String()
}

// inboxFile is the inbox as read under the lock.
type inboxFile struct {
	text    string
	exists  bool
	inbox   tiers.Inbox
	problem error // the *tiers.InboxError of malformed entries, if any
	level   string
	// archived are the closed reminders wake compact moved to the inbox
	// archive: their numbers stay taken. Read only when asked for (see
	// [Store.readInboxLocked]); empty otherwise.
	archived tiers.Inbox
}

// readInboxLocked reads the inbox, and its archive when archive is set
// (see [Store.archiveFor] otherwise). A missing one is empty. One that is
// not text, or that a merge left marked, is an error naming it: wake does
// not write to it.
func (s *Store) readInboxLocked(archive bool) (inboxFile, error) {
	data, err := tiers.ReadOwn(s.FS, s.Root, tiers.InboxPath)
	switch {
	case errors.Is(err, os.ErrNotExist):
		f := inboxFile{inbox: tiers.Inbox{EOL: "\n"}}
		var err error
		if archive {
			f.archived, err = readInboxArchive(s)
		}
		return f, err
	case err != nil:
		return inboxFile{}, fmt.Errorf("reading %s: %w", tiers.InboxPath, err)
	}
	if lines := tiers.ConflictMarkers(data); lines != nil {
		return inboxFile{}, &MarkedError{Path: tiers.InboxPath, Lines: lines}
	}
	b, err := tiers.ParseInbox(data)
	var ie *tiers.InboxError
	if err != nil && !errors.As(err, &ie) {
		return inboxFile{}, err
	}
	f := inboxFile{text: string(data), exists: true, inbox: b, problem: err}
	if archive {
		if f.archived, err = readInboxArchive(s); err != nil {
			return inboxFile{}, err
		}
	}
	meta, _, ferr := tiers.ParseFrontMatter(data)
	switch {
	case ferr != nil:
		f.level = tiers.Secret // keys unknown: the strictest
	case meta.Level() == tiers.Confidential, meta.Level() == tiers.Secret:
		f.level = meta.Level()
	}
	return f, nil
}

// writeInboxLocked writes text as the inbox, then the ledger line e when
// e is not nil. A failure before the ledger line is on disk puts the inbox
// back as it was, so that a failed command leaves no change the ledger
// does not tell; one after it is an [InboxWrittenError]. The caller holds
// the lock.
func (s *Store) writeInboxLocked(f inboxFile, text string, e *Entry) error {
	if e != nil {
		if e.At.IsZero() {
			e.At = s.Now()
		}
		// As the ledger stores it, so that recovery finds the line it wrote.
		e.At = e.At.UTC().Truncate(time.Second)
		if err := s.stageInbox([]byte(text), *e); err != nil {
			return err
		}
	}
	if err := s.Write(tiers.InboxPath, []byte(text)); err != nil {
		return s.dropStaged(e, err, s.undoInbox(f, err))
	}
	if e == nil {
		return nil
	}
	from, serr := ledgerSize(s.FS, s.Root)
	err := s.appendLedger(*e)
	if err == nil {
		// A record left behind is dropped by the next command, which
		// finds the line there.
		s.dropInboxRecord()
		return nil
	}
	if serr == nil {
		// The line may be there, its sync failed: then the change stands.
		if w, rerr := ledgerWrites(s.FS, s.Root, from); rerr == nil && w[tiers.InboxPath] > 0 {
			s.dropInboxRecord()
			return &InboxWrittenError{Err: err}
		}
	}
	return s.dropStaged(e, err, s.undoInbox(f, err))
}

// dropStaged removes the record of an inbox write that did not happen,
// and returns undone, what undoing it returned: when that is cause
// itself, the inbox is as it was (or was never written). When the inbox
// could not be put back the record stays, so that the next command
// appends the line of the new inbox still there, or drops the record
// once the old one is back. A record left behind otherwise costs
// nothing: the next command finds the inbox not the new one.
func (s *Store) dropStaged(e *Entry, cause, undone error) error {
	if e != nil && undone == cause {
		s.dropInboxRecord()
	}
	return undone
}

// undoInbox puts the inbox back as f read it, after err, when it is not
// so any more: the write may have failed after its rename.
func (s *Store) undoInbox(f inboxFile, err error) error {
	cur, rerr := tiers.ReadOwn(s.FS, s.Root, tiers.InboxPath)
	switch {
	case !f.exists && errors.Is(rerr, os.ErrNotExist), f.exists && rerr == nil && string(cur) == f.text:
		return err
	case !f.exists:
		// The file is wake's own, created by this command a moment ago.
		if rerr := s.FS.Remove(s.Path(tiers.InboxPath)); rerr != nil {
			return fmt.Errorf("%w; and %s, written before, could not be removed again: %v", err, tiers.InboxPath, rerr)
		}
		return err
	}
	if rerr := s.Write(tiers.InboxPath, []byte(f.text)); rerr != nil {
		return fmt.Errorf("%w; and %s, changed before, could not be put back: %v", err, tiers.InboxPath, rerr)
	}
	return err
}

// InboxWrittenError is a failure after the inbox was changed and its
// ledger line written (the ledger's sync failed): the change stands.
type InboxWrittenError struct {
	Err error
}

func (e *InboxWrittenError) Error() string {
	return fmt.Sprintf("%s was changed and its ledger line written, but: %v", tiers.InboxPath, e.Err)
}

func (e *InboxWrittenError) Unwrap() error { return e.Err }

// inboxEntry is a ledger line of the inbox.
func (f inboxFile) entry(s *Store, op, summary string) Entry {
	return Entry{At: s.Now().UTC().Truncate(time.Second), Op: op, Paths: []string{tiers.InboxPath}, ChangeSummary: summary, Sensitivity: f.level}
}

// Remember appends r to the inbox as a new open entry, numbered one past
// the highest number the file uses, under the root's lock, with a
// "remember" ledger line. The inbox is created when missing, and keeps
// its line ending. It returns the entry as it now reads.
func (s *Store) Remember(ctx context.Context, r NewReminder) (tiers.Reminder, error) {
	r = r.normalized()
	if err := r.Validate(); err != nil {
		return tiers.Reminder{}, err
	}
	var got tiers.Reminder
	err := s.lockedInbox(ctx, func() error {
		f, err := s.readInboxLocked(false)
		if err != nil {
			return err
		}
		archived, err := s.archivedLast()
		if err != nil {
			return err
		}
		// Numbers go on from the last ever given, an archived one's too.
		if f.inbox.Last == math.MaxInt || archived == math.MaxInt {
			return &InboxFullError{Line: f.inbox.LastLine}
		}
		n := max(f.inbox.Last, archived) + 1
		at := s.Now().UTC().Truncate(time.Second)
		writer, err := s.WriterID()
		if err != nil {
			return err
		}
		r.ID = tiers.ReminderID(writer, n, at.Format(tiers.InboxTimeLayout), r.Text)
		eol := f.inbox.EOL
		text := f.text
		if !f.exists || strings.TrimSpace(text) == "" {
			text += strings.ReplaceAll(tiers.InboxFront+tiers.InboxTitle+"\n\n"+tiers.InboxIntro+"\n", "\n", eol)
		}
		text = appendEntry(text, strings.ReplaceAll(r.Render(n, at), "\n", eol), eol)
		b, _ := tiers.ParseInbox([]byte(text))
		rm, ok := b.Reminder(n)
		if !ok || rm.ID != r.ID || rm.Text != r.Text || rm.Topic != r.Topic || rm.Next != r.Next || rm.Hypothesis != r.Hypothesis || rm.Missing != r.Missing || !slices.Equal(rm.Tags, r.Tags) || len(b.Reminders) != len(f.inbox.Reminders)+1 {
			return fmt.Errorf("%s: the new entry would not read back as written; nothing was written", tiers.InboxPath)
		}
		e := f.entry(s, OpRemember, fmt.Sprintf("remembered #%d: %s", n, oneLine(r.Text)))
		got = rm
		return s.writeInboxLocked(f, text, &e)
	})
	return got, err
}

// InboxFullError refuses a new entry when the inbox already uses the
// largest number an entry can have (hand-written: wake counts up from 1),
// naming that entry's line.
type InboxFullError struct {
	Line int // the line of the entry numbered math.MaxInt
}

func (e *InboxFullError) Error() string {
	return fmt.Sprintf("%s:%d: entry number %d is the largest an entry can have, so no entry can follow it; nothing was written", tiers.InboxPath, e.Line, math.MaxInt)
}

// Hint says how to make room.
func (e *InboxFullError) Hint() string {
	return fmt.Sprintf("renumber that entry by hand to one past the inbox's other numbers (line %d of %s)", e.Line, tiers.InboxPath)
}

// CloseReminder closes the open reminder n by hand: it adds "- done: WHY
// at TIME" to its entry, under the root's lock, with a "remember-done"
// ledger line. An unknown n, and one already closed, are the user's
// mistakes (an [InputError] saying so, how and when).
func (s *Store) CloseReminder(ctx context.Context, n int, why string) (tiers.Reminder, error) {
	why = strings.TrimSpace(why)
	if err := oneLineTexts("reason (because)", why); err != nil {
		return tiers.Reminder{}, inputHint(err.Error(), `say why it is done: wake remember done N --because "shipped in #12"`)
	}
	var got tiers.Reminder
	err := s.lockedInbox(ctx, func() error {
		f, err := s.readInboxLocked(false)
		if err == nil {
			err = s.archiveFor(&f, []int{n})
		}
		if err != nil {
			return err
		}
		at := s.Now().UTC().Truncate(time.Second)
		text, err := closeReminders(f, []int{n}, tiers.InboxKeyDone, why, at)
		if err != nil {
			return err
		}
		b, _ := tiers.ParseInbox([]byte(text))
		got, _ = b.Reminder(n)
		e := f.entry(s, OpRememberDone, fmt.Sprintf("closed reminder #%d: %s", n, oneLine(why)))
		return s.writeInboxLocked(f, text, &e)
	})
	return got, err
}

// archiveFor reads the inbox archive into f when one of ns is not in the
// inbox: only then may it be an archived reminder, so closing reminders of
// the inbox costs the inbox, not the archive's length.
func (s *Store) archiveFor(f *inboxFile, ns []int) error {
	for _, n := range ns {
		if _, ok := f.inbox.Reminder(n); !ok {
			var err error
			f.archived, err = readInboxArchive(s)
			return err
		}
	}
	return nil
}

// closeReminders adds "- KEY: VALUE at TIME" to each entry of ns and
// returns the new text, checked to read back with those entries closed
// so and every other entry as it was.
func closeReminders(f inboxFile, ns []int, key, value string, at time.Time) (string, error) {
	var rs []tiers.Reminder
	seen := map[int]bool{}
	for _, n := range ns {
		if seen[n] {
			continue
		}
		seen[n] = true
		r, ok := f.inbox.Reminder(n)
		if a, archived := f.archived.Reminder(n); !ok && archived {
			return "", &ReminderClosedError{Reminder: a, Archived: true}
		}
		switch {
		case !ok && f.inbox.Last == 0:
			return "", inputHint(fmt.Sprintf("there is no reminder %d: %s has none", n, tiers.InboxPath), `add one with: wake remember "TEXT"`)
		case !ok:
			return "", inputHint(fmt.Sprintf("there is no reminder %d in %s%s", n, tiers.InboxPath, malformedNote(f, n)), listHint)
		case !r.Open():
			return "", &ReminderClosedError{Reminder: r}
		}
		rs = append(rs, r)
	}
	// From the last entry up, so that each offset still holds.
	slices.SortFunc(rs, func(a, b tiers.Reminder) int { return b.End - a.End })
	eol := f.inbox.EOL
	line := fmt.Sprintf("- %s: %s at %s", key, value, at.UTC().Format(tiers.InboxTimeLayout)) + eol
	text := f.text
	for _, r := range rs {
		ins := line
		if r.End == len(text) && !strings.HasSuffix(text, "\n") {
			ins = eol + line
		}
		text = text[:r.End] + ins + text[r.End:]
	}
	b, _ := tiers.ParseInbox([]byte(text))
	if len(b.Reminders) != len(f.inbox.Reminders) {
		return "", fmt.Errorf("%s: the closed entries would not read back; nothing was written", tiers.InboxPath)
	}
	for i, r := range b.Reminders {
		old := f.inbox.Reminders[i]
		want := old.Open()
		if seen[r.N] {
			want = false
			if (key == tiers.InboxKeyDone && r.Done != value) || (key == tiers.InboxKeyConsumed && r.Consumed != value) {
				return "", fmt.Errorf("%s: reminder %d would not read back closed; nothing was written", tiers.InboxPath, r.N)
			}
		}
		if r.N != old.N || r.Open() != want {
			return "", fmt.Errorf("%s: reminder %d would not read back as it was; nothing was written", tiers.InboxPath, r.N)
		}
	}
	return text, nil
}

// ReminderClosedError refuses to close a reminder already closed, saying
// how and when it was: the user's mistake, an [InputError].
type ReminderClosedError struct {
	Reminder tiers.Reminder
	Archived bool // wake compact moved it to the inbox archive
}

func (e *ReminderClosedError) Error() string {
	where := ""
	if e.Archived {
		where = ", archived in " + InboxArchive + " by wake compact"
	}
	return fmt.Sprintf("reminder %d is already closed%s: %s", e.Reminder.N, where, e.Reminder.Closure())
}

// Hint says where to see the reminders.
func (e *ReminderClosedError) Hint() string { return listHint }

// Unwrap makes it an [InputError].
func (e *ReminderClosedError) Unwrap() error { return inputHint(e.Error(), listHint) }

// malformedNote says, for a number the inbox uses only in an entry it
// cannot read, what is wrong with that entry.
func malformedNote(f inboxFile, n int) string {
	var ie *tiers.InboxError
	if !errors.As(f.problem, &ie) {
		return ""
	}
	num := fmt.Sprintf("entry %d ", n)
	for _, p := range ie.Problems {
		if strings.HasPrefix(p.Reason, num) {
			return fmt.Sprintf(" that wake can read (line %d: %s)", p.Line, p.Reason)
		}
	}
	return ""
}

// lockedInbox runs fn under the root's lock.
func (s *Store) lockedInbox(ctx context.Context, fn func() error) error {
	unlock, err := s.lockForWrite(ctx)
	if err != nil {
		return err
	}
	defer unlock()
	// Under the exclusive lock no other writer runs: any temporary file
	// of wake's was left by a crash.
	if err := s.removeTemps(); err != nil {
		return err
	}
	return fn()
}
