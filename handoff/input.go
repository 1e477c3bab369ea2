package handoff

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/tiers"
)

// Input is what one hand-off records. Session carries the summary and its
// sections and, in Summary, NextPriority, OpenRisk and EmotionalRegister,
// the HANDOFF block's values; the hand-off sets its time and fills its
// "Decisions made" items from Decisions.
type Input struct {
	Session   tiers.Session
	Decisions []NewDecision
	// Auto marks the hand-off as wake's own, written because the session
	// ended without one: its ledger line says so ([Entry.Auto]).
	Auto bool
	// SessionID is the client's id of the session an automatic hand-off
	// is written for: its ledger line names it ([Entry.Session]), and
	// NoneSince counts that session's hand-offs only.
	SessionID string
	// NoneSince, when set, makes the hand-off write nothing if the ledger
	// holds more than Seen hand-offs of the session ([SessionHandoffs])
	// at or after it: one written meanwhile, since the caller looked
	// (see [HandedOffError]). It is checked under the root's lock, after
	// an interrupted hand-off is finished.
	NoneSince time.Time
	Seen      int
}

// ErrHandedOff is what a hand-off given [Input.NoneSince] returns,
// wrapped in a [*HandedOffError], when one was written since.
var ErrHandedOff = errors.New("a hand-off was already written")

// HandedOffError is a hand-off not written because one was written at
// or after [Input.NoneSince].
type HandedOffError struct {
	At   time.Time // the earlier hand-off's
	Auto bool      // it was an automatic one
}

func (e *HandedOffError) Error() string {
	return fmt.Sprintf("%v at %s", ErrHandedOff, e.At.UTC().Format(time.RFC3339))
}

func (e *HandedOffError) Unwrap() error { return ErrHandedOff }

// SessionHandoffs lists, in order, the hand-offs the ledger records at or
// after since (compared to the second, as the ledger keeps times) that
// count for session: every hand-off but the automatic ones of other
// sessions. A manual hand-off names no session and counts for every one;
// so does an automatic one that names none.
func SessionHandoffs(fsys afero.Fs, root string, since time.Time, session string) ([]Entry, error) {
	entries, _, err := ReadLedgerSince(fsys, root, since.UTC().Truncate(time.Second))
	if err != nil {
		return nil, err
	}
	var out []Entry
	for _, e := range entries {
		if e.Op == "handoff" && (!e.Auto || e.Session == "" || e.Session == session) {
			out = append(out, e)
		}
	}
	return out, nil
}

// Input field names, as `wake handoff --file` spells them in JSON.
const (
	FieldSummary   = "summary"
	FieldNext      = "next"
	FieldRisk      = "risk"
	FieldMood      = "mood"
	FieldHappened  = "happened"
	FieldDecision  = "decision"
	FieldChanged   = "changed"
	FieldThread    = "thread"
	FieldSuccessor = "successor"
)

// The parts of a Markdown hand-off document that have no JSON field.
const (
	FieldSensitivity = "sensitivity" // the front matter's
	FieldPreamble    = "preamble"    // the text between the title and the first section
	FieldSection     = "section"     // a section beyond the template's
)

// FieldError is a hand-off input that cannot be used. Field is one of the
// Field* names.
type FieldError struct {
	Field string
	Msg   string
}

func (e *FieldError) Error() string { return e.Field + ": " + e.Msg }

// Normalize trims the one-line values, drops empty list items and ends
// the lines of the multi-line texts with "\n" alone.
func (in *Input) Normalize() {
	s := &in.Session
	for _, p := range []*string{&s.Summary, &s.NextPriority, &s.OpenRisk, &s.EmotionalRegister} {
		*p = strings.TrimSpace(*p)
	}
	for _, l := range []*tiers.List{&s.Happened, &s.Changed, &s.Threads} {
		l.Items = trimItems(l.Items)
	}
	s.Successor = strings.Trim(s.Successor, "\r\n")
	for _, p := range []*string{&s.Successor, &s.Preamble, &s.Happened.Note, &s.Decisions.Note, &s.Changed.Note, &s.Threads.Note} {
		*p = strings.ReplaceAll(*p, "\r\n", "\n")
	}
	for i := range s.Extra {
		s.Extra[i].Body = strings.ReplaceAll(s.Extra[i].Body, "\r\n", "\n")
	}
}

func trimItems(items []string) []string {
	var out []string
	for _, it := range items {
		if it = strings.TrimSpace(it); it != "" {
			out = append(out, it)
		}
	}
	return out
}

// Validate checks the input after [Input.Normalize]: a session_summary and a
// next_priority are required, the HANDOFF values and every list item are one
// line, each decision has a reason, and no text holds a character that
// [CheckText] refuses.
func (in Input) Validate() error {
	s := in.Session
	for _, f := range []struct {
		name, v  string
		required bool
	}{{FieldSummary, s.Summary, true}, {FieldNext, s.NextPriority, true}, {FieldRisk, s.OpenRisk, false}, {FieldMood, s.EmotionalRegister, false}} {
		switch {
		case f.required && f.v == "":
			return &FieldError{f.name, "is required"}
		case strings.ContainsAny(f.v, "\r\n"):
			return &FieldError{f.name, "must be one line"}
		}
	}
	for _, l := range []struct {
		name  string
		items []string
	}{{FieldHappened, s.Happened.Items}, {FieldChanged, s.Changed.Items}, {FieldThread, s.Threads.Items}} {
		for i, it := range l.items {
			if strings.ContainsAny(it, "\r\n") {
				return &FieldError{l.name, fmt.Sprintf("item %d must be one line", i+1)}
			}
		}
	}
	for i, d := range in.Decisions {
		if err := d.Validate(); err != nil {
			return &FieldError{FieldDecision, fmt.Sprintf("item %d (%q): %v", i+1, d.What, err)}
		}
	}
	for _, t := range in.texts() {
		if err := CheckText(t.v, t.multiline); err != nil {
			msg := err.Error()
			if t.part != "" {
				msg = t.part + ": " + msg
			}
			return &FieldError{t.field, msg}
		}
	}
	return nil
}

// inputText is one text of an input that a hand-off writes.
type inputText struct {
	field, part string // part: which item or piece of the field, if not all of it
	multiline   bool
	v           string
}

// texts lists the texts of the input that a hand-off writes, but for the
// decisions, which [NewDecision.Validate] checks. The title is not written.
func (in Input) texts() []inputText {
	s := in.Session
	out := []inputText{{FieldSummary, "", false, s.Summary}, {FieldNext, "", false, s.NextPriority},
		{FieldRisk, "", false, s.OpenRisk}, {FieldMood, "", false, s.EmotionalRegister},
		{FieldSensitivity, "", false, s.Sensitivity}, {FieldPreamble, "", true, s.Preamble},
		{FieldSuccessor, "", true, s.Successor}, {FieldDecision, "the text after the items", true, s.Decisions.Note}}
	for _, l := range []struct {
		field string
		list  tiers.List
	}{{FieldHappened, s.Happened}, {FieldChanged, s.Changed}, {FieldThread, s.Threads}} {
		for i, it := range l.list.Items {
			out = append(out, inputText{l.field, fmt.Sprintf("item %d", i+1), false, it})
		}
		out = append(out, inputText{l.field, "the text after the items", true, l.list.Note})
	}
	for _, x := range s.Extra {
		out = append(out, inputText{FieldSection, "title", false, x.Title},
			inputText{FieldSection, fmt.Sprintf("%q", x.Title), true, x.Body})
	}
	return out
}

// ParseDecision reads "WHAT because WHY", split at the first " because "
// (any case): a decision is usually short and its reason is where a second
// "because" belongs ("Use TOML because YAML broke because of tabs"). A
// reason may end in "TOPIC: subject", the entry's TOPIC as `wake decide
// --topic` gives it. A decision already in the log is named by its ID or
// number alone ("d-7f3a", "#3").
func ParseDecision(s string) (NewDecision, error) {
	if _, err := ParseDecisionRef(s); err == nil {
		return NewDecision{Ref: strings.TrimSpace(s)}, nil
	}
	i := strings.Index(asciiLower(s), " because ")
	if i < 0 {
		return NewDecision{}, errors.New(`want "WHAT because WHY", or the id of a decision already in the log`)
	}
	d := NewDecision{What: strings.TrimSpace(s[:i]), Why: strings.TrimSpace(s[i+len(" because "):])}
	if j := strings.LastIndex(d.Why, " "+tiers.KeyTopic+":"); j >= 0 {
		d.Why, d.Topic = strings.TrimSpace(d.Why[:j]), strings.TrimSpace(d.Why[j+len(tiers.KeyTopic)+2:])
	}
	return d, d.Validate()
}

// asciiLower lowers ASCII letters only, so byte offsets stay those of s.
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// decisionItems renders decisions as the summary lists them.
func decisionItems(ds []NewDecision) []string {
	var out []string
	for _, d := range ds {
		out = append(out, strings.TrimSpace(d.What)+" because "+strings.TrimSpace(d.Why))
	}
	return out
}
