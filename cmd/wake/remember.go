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
	topic, next, because, done, format string
	hypothesis, missing                string
	tags                               []string
	list, all                          bool
}

func (a *app) rememberCmd() *cobra.Command {
	o := &rememberOptions{}
	cmd := &cobra.Command{
		Use:   `remember "TEXT" [--topic T] [--hypothesis H] [--missing E] [--next STEP] [--tag X]... | --list [--all] | --done N --because "WHY"`,
		Short: "Leave a reminder for later in the inbox (warm/inbox.md), list or close them",
		Long:  help("remember"),
		Example: `  wake remember "Outline the onboarding UX spike" --topic ux --next "Review the mockups" --tag ux,spike
  wake remember --list
  wake remember --done 3 --because "shipped in #12"`,
		RunE: func(cmd *cobra.Command, args []string) error {
			switch err := o.check(cmd, args); {
			case err != nil:
				return err
			case o.list:
				return a.rememberList(cmd.Context(), o)
			case cmd.Flags().Changed("done"):
				return a.rememberDone(cmd.Context(), o)
			}
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
	cmd.Flags().BoolVar(&o.list, "list", false, "list the open reminders")
	cmd.Flags().BoolVar(&o.all, "all", false, "with --list: the closed ones too, with how they were closed")
	cmd.Flags().StringVar(&o.done, "done", "", "close the open reminder number `N` by hand (with --because)")
	cmd.Flags().StringVar(&o.because, "because", "", "with --done: why it is done")
	addFormat(cmd, &o.format, "text or json", "text", "json")
	return cmd
}

// check refuses arguments and flags that do not go together: the three
// forms are adding (TEXT), listing (--list) and closing (--done N).
func (o *rememberOptions) check(cmd *cobra.Command, args []string) error {
	set := func(names ...string) []string {
		var out []string
		for _, n := range names {
			if cmd.Flags().Changed(n) {
				out = append(out, "--"+n)
			}
		}
		return out
	}
	adding := set("topic", "next", "tag", "hypothesis", "missing")
	if o.all && !o.list {
		return usagef("--all goes with --list only")
	}
	if cmd.Flags().Changed("because") && !cmd.Flags().Changed("done") {
		return usagef("--because goes with --done N only")
	}
	switch {
	case o.list && cmd.Flags().Changed("done"):
		return usagef("--list and --done do not go together: list, or close one")
	case o.list || cmd.Flags().Changed("done"):
		form := "--list"
		if !o.list {
			form = "--done"
		}
		if len(args) > 0 {
			return hintError{usagef("%s takes no reminder text, got %q", form, args[0]), `add a reminder without it: wake remember "TEXT"`}
		}
		if len(adding) > 0 {
			return usagef("%s does not go with %s, which describe a new reminder", form, strings.Join(adding, ", "))
		}
	case len(args) != 1:
		return hintError{usagef("remember takes the reminder as one argument, got %d", len(args)), `quote it: wake remember "Outline the onboarding spike"; or list them: wake remember --list`}
	}
	if cmd.Flags().Changed("done") && strings.TrimSpace(o.because) == "" {
		return usagef("--because is required with --done and must not be empty: say why the reminder is done")
	}
	return nil
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

func (a *app) rememberDone(ctx context.Context, o *rememberOptions) error {
	n, err := strconv.Atoi(strings.TrimPrefix(strings.TrimSpace(o.done), "#"))
	if err != nil || n < 1 {
		return hintError{usagef("--done %q: want a reminder's number, a whole number from 1", o.done), "wake remember --list shows the open reminders with their numbers"}
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
