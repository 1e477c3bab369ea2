package store

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/tiers"
)

// SessionWrite is what [WriteSession] records of one session, checked by
// the hand-off (package handoff) before it comes here. Session carries the
// summary and its sections and, in Summary, NextPriority, OpenRisk and
// EmotionalRegister, the HANDOFF block's values; the write sets its time
// and fills its "Decisions made" items from Decisions.
type SessionWrite struct {
	Session   tiers.Session
	Decisions []NewDecision
	// Auto marks the hand-off as wake's own, written because the session
	// ended without one: its ledger line says so ([Entry.Auto]).
	Auto bool
	// SessionID is the client's id of the session the hand-off
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

// ErrHandedOff is what a hand-off given [SessionWrite.NoneSince] returns,
// wrapped in a [*HandedOffError], when one was written since.
var ErrHandedOff = errors.New("a hand-off was already written")

// HandedOffError is a hand-off not written because one was written at
// or after [SessionWrite.NoneSince].
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
// count for session: its own, and those that name no session (written by
// a wake or a client that did not say, which count for every one). A
// hand-off of another session, manual or automatic, does not count: with
// several sessions on one root, one's hand-off must not silence another's
// Stop and SessionEnd hooks (DESIGN section 12).
func SessionHandoffs(fsys afero.Fs, root string, since time.Time, session string) ([]Entry, error) {
	entries, _, err := ReadLedgerSince(fsys, root, since.UTC().Truncate(time.Second))
	if err != nil {
		return nil, err
	}
	var out []Entry
	for _, e := range entries {
		if e.Op == "handoff" && (e.Session == "" || session == "" || e.Session == session) {
			out = append(out, e)
		}
	}
	return out, nil
}

// The fields of a session record, as `wake handoff --file` spells them
// in JSON.
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

// decisionItems renders decisions as the summary lists them.
func decisionItems(ds []NewDecision) []string {
	var out []string
	for _, d := range ds {
		out = append(out, strings.TrimSpace(d.What)+" because "+strings.TrimSpace(d.Why))
	}
	return out
}
