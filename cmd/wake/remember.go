package main

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/wakeproto/wake/report"
	"github.com/wakeproto/wake/store"
	"github.com/wakeproto/wake/tiers"
)

type rememberOptions struct {
	topic, next, because, format string
	hypothesis, missing          string
	tags                         []string
	all                          bool
}

// rememberCmd is `wake remember "TEXT"`, and the parent of its list and
// done, as capsule is of its own: verbs are subcommands, not flags.
func (a *app) rememberCmd() *cobra.Command {
	o := &rememberOptions{}
	cmd := &cobra.Command{
		Use:   `remember "TEXT" [--topic T] [--hypothesis H] [--missing E] [--next STEP] [--tag X]...`,
		Short: "Leave a reminder for later in the inbox (warm/inbox.md), list or close them",
		Long:  help("remember"),
		Example: `  wake remember "Outline the onboarding UX spike" --topic ux --next "Review the mockups" --tag ux,spike
  wake remember list
  wake remember done 3 --because "shipped in #12"
  wake remember -- list`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return hintError{usagef("remember takes the reminder as one argument, got %d", len(args)),
					`quote it: wake remember "Outline the onboarding spike"; or list them: wake remember list`}
			}
			if s := nearVerb(args[0]); s != "" && cmd.ArgsLenAtDash() < 0 {
				return hintError{usagef("%q looks like a mistyped subcommand, not a reminder", args[0]),
					fmt.Sprintf("did you mean 'wake remember %s'? To remember %q itself, put -- before it: wake remember -- %s", s, args[0], args[0])}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			what := args[0]
			if err := a.requireTexts(text{"the reminder (TEXT)", &what, "say what to remember"}, text{"--topic", &o.topic, ""}, text{"--next", &o.next, ""},
				text{"--hypothesis", &o.hypothesis, ""}, text{"--missing", &o.missing, ""}); err != nil {
				return err
			}
			for i := range o.tags {
				if err := a.requireTexts(text{"--tag", &o.tags[i], ""}); err != nil {
					return err
				}
			}
			return a.rememberAdd(cmd.Context(), o, what)
		},
	}
	cmd.Flags().StringVar(&o.topic, "topic", "", "the subject `T` of the reminder")
	cmd.Flags().StringVar(&o.next, "next", "", "the suggested next `STEP`")
	cmd.Flags().StringVar(&o.hypothesis, "hypothesis", "", "an exploratory thread's current hypothesis `H`")
	cmd.Flags().StringVar(&o.missing, "missing", "", "the evidence `E` still missing for the hypothesis")
	cmd.Flags().StringSliceVar(&o.tags, "tag", nil, "a tag `X`; repeat it or give a comma list")
	addFormat(cmd, &o.format, "text or json", "text", "json")
	cmd.SetFlagErrorFunc(rememberFlagError)
	cmd.AddCommand(a.rememberListCmd(), a.rememberDoneCmd())
	return cmd
}

func (a *app) rememberListCmd() *cobra.Command {
	o := &rememberOptions{}
	cmd := &cobra.Command{
		Use:     "list [--all] [--format json]",
		Short:   "List the open reminders, newest first; --all the closed ones too",
		Long:    help("remember-list"),
		Example: "  wake remember list\n  wake remember list --all --format json",
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return hintError{usagef("wake remember list takes no arguments, got %q", args[0]), asReminder("list", args)}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error { return a.rememberList(cmd.Context(), o) },
	}
	cmd.Flags().BoolVar(&o.all, "all", false, "the closed reminders too, with how they were closed")
	addFormat(cmd, &o.format, "text or json", "text", "json")
	cmd.SetFlagErrorFunc(rememberFlagError)
	return cmd
}

func (a *app) rememberDoneCmd() *cobra.Command {
	o := &rememberOptions{}
	cmd := &cobra.Command{
		Use:     `done N --because "WHY" [--format json]`,
		Short:   "Close the open reminder number N by hand, saying why",
		Long:    help("remember-done"),
		Example: `  wake remember done 3 --because "shipped in #12"`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return hintError{usagef("wake remember done takes one argument, the reminder's number N; got %d", len(args)), asReminder("done", args)}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if strings.TrimSpace(o.because) == "" {
				return usagef("--because is required and must not be empty: say why the reminder is done")
			}
			return a.rememberDone(cmd.Context(), o, args[0])
		},
	}
	cmd.Flags().StringVar(&o.because, "because", "", "why it is done")
	addFormat(cmd, &o.format, "text or json", "text", "json")
	cmd.SetFlagErrorFunc(rememberFlagError)
	return cmd
}

// nearVerb is the subcommand a one-word reminder is a letter away from
// ("lst"): most likely a typo, which would otherwise file a reminder.
func nearVerb(arg string) string {
	for _, v := range []string{"list", "done"} {
		if d := editDistance(strings.ToLower(arg), v); d == 1 {
			return v
		}
	}
	return ""
}

// asReminder is the hint for a reminder whose text begins with a
// subcommand's name: the shell cannot tell `wake remember list` from
// `wake remember "list"`, so -- or one quoted argument tells wake.
func asReminder(verb string, args []string) string {
	if len(args) == 0 {
		return fmt.Sprintf("to remember the text %q itself, put -- before it: wake remember -- %s", verb, verb)
	}
	return fmt.Sprintf("to remember a text that begins with %q, quote all of it: wake remember %q", verb, verb+" "+strings.Join(args, " "))
}

// rememberFlagError names the subcommand for the flags the old forms
// took (--list, --done) and points a new reminder's flags given to list
// or done at the reminder.
func rememberFlagError(cmd *cobra.Command, err error) error {
	name, _ := unknownFlag(err)
	switch {
	case name == "list" || name == "all" && cmd.Name() == "remember":
		return hintError{usageError{err}, "listing is a subcommand: wake remember list [--all]"}
	case name == "done" || name == "because" && cmd.Name() == "remember":
		return hintError{usageError{err}, `closing is a subcommand: wake remember done N --because "WHY"`}
	case (name == "topic" || name == "next" || name == "tag" || name == "hypothesis" || name == "missing") && cmd.Name() != "remember":
		return hintError{usageError{err}, fmt.Sprintf("--%s describes a new reminder; %s", name, asReminder(cmd.Name(), nil))}
	}
	return flagError(cmd, err)
}

func (a *app) rememberAdd(ctx context.Context, o *rememberOptions, text string) error {
	m, err := a.open()
	if err != nil {
		return err
	}
	r, err := m.Remember(ctx, store.NewReminder{Text: text, Topic: o.topic, Next: o.next, Hypothesis: o.hypothesis, Missing: o.missing, Tags: o.tags})
	if err != nil {
		return err
	}
	if o.format == "json" {
		return a.writeJSON(report.ReminderChangeJSON(r))
	}
	a.printChange("Remembered #%d: %s", r.N, tiers.OneLine(r.Text))
	return nil
}

func (a *app) rememberDone(ctx context.Context, o *rememberOptions, arg string) error {
	n, err := strconv.Atoi(strings.TrimPrefix(strings.TrimSpace(arg), "#"))
	if err != nil || n < 1 {
		return hintError{usagef("done %q: want a reminder's number, a whole number from 1", arg), "wake remember list shows the open reminders with their numbers"}
	}
	if err := a.requireTexts(text{"--because", &o.because, "say why the reminder is done"}); err != nil {
		return err
	}
	m, err := a.open()
	if err != nil {
		return err
	}
	r, err := m.CloseReminder(ctx, n, o.because)
	if err != nil {
		return err
	}
	if o.format == "json" {
		return a.writeJSON(report.ReminderChangeJSON(r))
	}
	a.printChange("Closed reminder #%d: %s (%s).", r.N, tiers.OneLine(r.Text), tiers.OneLine(r.Closure()))
	return nil
}

func (a *app) rememberList(ctx context.Context, o *rememberOptions) error {
	m, err := a.open()
	if err != nil {
		return err
	}
	in, err := m.Inbox(ctx)
	if err != nil {
		return err
	}
	for _, p := range in.Problems {
		w := fmt.Sprintf("%s:%d: %s", tiers.InboxPath, p.Line, p.Reason)
		if p.Text != "" {
			w += ": " + tiers.OneLine(p.Text)
		}
		a.warn([]string{w})
	}
	if o.format == "json" {
		return a.writeJSON(report.RemindersJSON(in, o.all))
	}
	report.RemindersText(a.out, in, o.all)
	return nil
}
