package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/wakeproto/wake"
	"github.com/wakeproto/wake/policy"
	"github.com/wakeproto/wake/store"
	"github.com/wakeproto/wake/tiers"
)

// The helpers the decision-log commands (decide, decisions, reverse,
// contest, uphold) share.

// decisionRef takes the one positional argument of reverse, contest and
// uphold: the decision's number N or its ID.
func decisionRef(cmd *cobra.Command, args []string) (store.DecisionRef, error) {
	if len(args) != 1 {
		return store.DecisionRef{}, hintError{usagef("%s takes one argument, the decision's number N or its id; got %d", cmd.CommandPath(), len(args)), listHint}
	}
	ref, err := store.ParseDecisionRef(args[0])
	if err != nil {
		return ref, hintError{usageError{err}, listHint}
	}
	return ref, nil
}

const listHint = "'wake decisions --all' lists every decision with its number and id"

// text is a flag's or argument's value with the name to blame, and what
// to say when it is required but empty; "" for an optional text.
type text struct {
	name  string
	value *string
	what  string
}

// requireTexts checks that each text is given (when required), one line
// and free of the characters wake does not write; invalid UTF-8 is
// replaced, with a warning.
func (a *app) requireTexts(ts ...text) error {
	var c store.TextCheck
	defer func() { a.warn(c.Warnings) }()
	for _, t := range ts {
		if t.what != "" && strings.TrimSpace(*t.value) == "" {
			return usagef("%s is required and must not be empty: %s", t.name, t.what)
		}
		if strings.ContainsAny(*t.value, "\r\n") {
			return usagef("%s must be one line", t.name)
		}
		if err := c.Text(t.name, t.value, false); err != nil {
			return err
		}
	}
	return nil
}

// misread rejects a decision text holding "BECAUSE:", which would split
// it in the log, and a reason holding a field key such as "STATUS:", which
// on the DECISION line starts a field of its own.
func misread(name, what, because string) error {
	if strings.Contains(what, "BECAUSE:") {
		return usagef(`%s must not contain "BECAUSE:": in the log it separates the decision from its reason; give the reason with --because`, name)
	}
	if k := tiers.InlineKey(because); k != "" {
		return usagef(`--because must not contain %q: in the log it would start a field of its own after the reason`, k)
	}
	return nil
}

// runDecision is what decide, reverse, contest and uphold share: open the
// root (finishing any write a crash interrupted), make the change, which
// takes the lock and logs its ledger line, and say what changed.
func (a *app) runDecision(change func(*wake.Memory) (store.DecisionChange, error), say func(ch store.DecisionChange)) error {
	m, err := a.open()
	if err != nil {
		return err
	}
	ch, err := change(m)
	if errors.Is(err, store.ErrNoSuchDecision) {
		// A number the log lacks is the user's mistake.
		return hintError{usageError{err}, listHint}
	}
	if errors.Is(err, store.ErrAmbiguousID) {
		// Naming one of several entries is the user's to settle; the
		// error's hint says how.
		return usageError{err}
	}
	if err != nil {
		return err
	}
	say(ch)
	return nil
}

// printChange says what a command changed. Its texts are the caller's
// (a decision, a reminder), which may hold a pasted credential: the line
// leaves wake scrubbed, as the listings of the same texts do.
func (a *app) printChange(format string, args ...any) {
	line, _ := policy.Scrub(fmt.Sprintf(format, args...))
	fmt.Fprintln(a.out, line)
}
