package main

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/wakeproto/wake"
	"github.com/wakeproto/wake/handoff"
)

type reverseOptions struct {
	n                  int
	by, because, topic string
}

func (a *app) reverseCmd() *cobra.Command {
	o := &reverseOptions{}
	cmd := &cobra.Command{
		Use:   `reverse N --by "NEW DECISION" --because "WHY"`,
		Short: "Reverse decision N: mark it reversed and record what replaces it",
		Long: `reverse sets decision N's STATUS to reversed, adds
"REVERSED_BY: [date] NEW DECISION BECAUSE: WHY" to it, and appends the new
decision as an active entry (Wake Protocol rules 1 and 2: never silently
override; annotate, don't delete). Every other byte of entry N stays as it
was. The new entry has the TOPIC --topic gives, else N's, unless another
active decision already has N's TOPIC: then reversing N settles that
clash, and the new entry takes no TOPIC so as not to start another.

A decision already reversed cannot be reversed again: reverse its
replacement. It also settles a contested decision against it.`,
		Example: `  wake reverse 3 --by "Use TOML for config" --because "YAML indentation broke parsing"`,
		RunE: func(cmd *cobra.Command, args []string) error {
			n, err := decisionNumber(cmd, args)
			if err != nil {
				return err
			}
			o.n = n
			if err := a.requireTexts(text{"--by", &o.by, "say what replaces the decision"},
				text{"--because", &o.because, "say why it is reversed"}, text{"--topic", &o.topic, ""}); err != nil {
				return err
			}
			if err := misread("--by", o.by, o.because); err != nil {
				return err
			}
			return a.reverseRun(cmd.Context(), o)
		},
	}
	cmd.Flags().StringVar(&o.by, "by", "", "the decision that replaces it (required)")
	cmd.Flags().StringVar(&o.because, "because", "", "why it is reversed (required)")
	cmd.Flags().StringVar(&o.topic, "topic", "", "TOPIC `T` of the new decision (default: decision N's)")
	return cmd
}

func (a *app) reverseRun(ctx context.Context, o *reverseOptions) error {
	return a.runDecision(func(m *wake.Memory) (handoff.DecisionChange, error) {
		return m.Reverse(ctx, o.n, handoff.NewDecision{What: o.by, Why: o.because, Topic: o.topic})
	}, func(ch handoff.DecisionChange) {
		a.printChange("Reversed #%d: %s (now reversed).", ch.Number, ch.Title)
		a.printChange("Decided #%d: %s (active), replacing #%d.", ch.Added, ch.AddedTitle, ch.Number)
	})
}
