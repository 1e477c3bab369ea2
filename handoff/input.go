package handoff

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/wakeproto/wake/store"
	"github.com/wakeproto/wake/tiers"
)

// Input is what one hand-off records, as a front end gives it. Session
// carries the summary and its sections and, in Summary, NextPriority,
// OpenRisk and EmotionalRegister, the HANDOFF block's values; the hand-off
// sets its time and fills its "Decisions made" items from Decisions, each
// a new decision or one already in the log named by its ID.
type Input struct {
	Session   tiers.Session
	Decisions []store.NewDecision
	// Auto marks the hand-off as wake's own, written because the session
	// ended without one: its ledger line says so.
	Auto bool
	// SessionID is the client's id of the session the hand-off
	// is written for: its ledger line names it, and NoneSince counts that
	// session's hand-offs only.
	SessionID string
	// NoneSince, when set, makes the hand-off write nothing if the ledger
	// holds more than Seen hand-offs of the session ([store.SessionHandoffs])
	// at or after it: one written meanwhile, since the caller looked (see
	// [store.HandedOffError]).
	NoneSince time.Time
	Seen      int
}

// write is the input as the store records it.
func (in Input) write() store.SessionWrite {
	return store.SessionWrite{Session: in.Session, Decisions: in.Decisions, Auto: in.Auto,
		SessionID: in.SessionID, NoneSince: in.NoneSince, Seen: in.Seen}
}

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
// [store.CheckText] refuses.
func (in Input) Validate() error {
	s := in.Session
	for _, f := range []struct {
		name, v  string
		required bool
	}{{store.FieldSummary, s.Summary, true}, {store.FieldNext, s.NextPriority, true}, {store.FieldRisk, s.OpenRisk, false}, {store.FieldMood, s.EmotionalRegister, false}} {
		switch {
		case f.required && f.v == "":
			return &store.FieldError{Field: f.name, Msg: "is required"}
		case strings.ContainsAny(f.v, "\r\n"):
			return &store.FieldError{Field: f.name, Msg: "must be one line"}
		}
	}
	for _, l := range []struct {
		name  string
		items []string
	}{{store.FieldHappened, s.Happened.Items}, {store.FieldChanged, s.Changed.Items}, {store.FieldThread, s.Threads.Items}} {
		for i, it := range l.items {
			if strings.ContainsAny(it, "\r\n") {
				return &store.FieldError{Field: l.name, Msg: fmt.Sprintf("item %d must be one line", i+1)}
			}
		}
	}
	for i, d := range in.Decisions {
		if err := d.Validate(); err != nil {
			return &store.FieldError{Field: store.FieldDecision, Msg: fmt.Sprintf("item %d (%q): %v", i+1, d.What, err)}
		}
	}
	for _, t := range in.texts() {
		if err := store.CheckText(t.v, t.multiline); err != nil {
			msg := err.Error()
			if t.part != "" {
				msg = t.part + ": " + msg
			}
			return &store.FieldError{Field: t.field, Msg: msg}
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
// decisions, which [store.NewDecision.Validate] checks. The title is not written.
func (in Input) texts() []inputText {
	s := in.Session
	out := []inputText{{store.FieldSummary, "", false, s.Summary}, {store.FieldNext, "", false, s.NextPriority},
		{store.FieldRisk, "", false, s.OpenRisk}, {store.FieldMood, "", false, s.EmotionalRegister},
		{store.FieldSensitivity, "", false, s.Sensitivity}, {store.FieldPreamble, "", true, s.Preamble},
		{store.FieldSuccessor, "", true, s.Successor}, {store.FieldDecision, "the text after the items", true, s.Decisions.Note}}
	for _, l := range []struct {
		field string
		list  tiers.List
	}{{store.FieldHappened, s.Happened}, {store.FieldChanged, s.Changed}, {store.FieldThread, s.Threads}} {
		for i, it := range l.list.Items {
			out = append(out, inputText{l.field, fmt.Sprintf("item %d", i+1), false, it})
		}
		out = append(out, inputText{l.field, "the text after the items", true, l.list.Note})
	}
	for _, x := range s.Extra {
		out = append(out, inputText{store.FieldSection, "title", false, x.Title},
			inputText{store.FieldSection, fmt.Sprintf("%q", x.Title), true, x.Body})
	}
	return out
}

// ParseDecision reads "WHAT because WHY", split at the first " because "
// (any case): a decision is usually short and its reason is where a second
// "because" belongs ("Use TOML because YAML broke because of tabs"). A
// reason may end in "TOPIC: subject", the entry's TOPIC as `wake decide
// --topic` gives it. A decision already in the log is named by its ID or
// number alone ("d-7f3a", "#3").
func ParseDecision(s string) (store.NewDecision, error) {
	if _, err := store.ParseDecisionRef(s); err == nil {
		return store.NewDecision{Ref: strings.TrimSpace(s)}, nil
	}
	i := strings.Index(asciiLower(s), " because ")
	if i < 0 {
		return store.NewDecision{}, errors.New(`want "WHAT because WHY", or the id of a decision already in the log`)
	}
	d := store.NewDecision{What: strings.TrimSpace(s[:i]), Why: strings.TrimSpace(s[i+len(" because "):])}
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

func inputErrorf(format string, args ...any) error {
	return store.NewInputError(fmt.Sprintf(format, args...), "")
}

func inputHint(msg, hint string) error { return store.NewInputError(msg, hint) }
