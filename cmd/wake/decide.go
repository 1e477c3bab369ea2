package main

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/wakeproto/wake"
	"github.com/wakeproto/wake/store"
	"github.com/wakeproto/wake/tiers"
)

type decideOptions struct {
	what, because, topic string
	force                bool
}

func (a *app) decideCmd() *cobra.Command {
	o := &decideOptions{}
	cmd := &cobra.Command{
		Use:     `decide "WHAT" --because "WHY" [--topic T]`,
		Short:   "Append a decision to the log (warm/decisions.md)",
		Long:    help("decide"),
		Example: `  wake decide "Use TOML for config" --because "YAML indentation broke parsing" --topic config`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return hintError{usagef("decide takes the decision as one argument, got %d", len(args)), `quote it: wake decide "Use TOML for config" --because "..."`}
			}
			o.what = args[0]
			if err := a.requireTexts(text{"the decision (WHAT)", &o.what, "say what was decided"},
				text{"--because", &o.because, "say why it was decided"}, text{"--topic", &o.topic, ""}); err != nil {
				return err
			}
			if err := misread("the decision (WHAT)", o.what, o.because); err != nil {
				return err
			}
			return a.decideRun(cmd.Context(), o)
		},
	}
	cmd.Flags().StringVar(&o.because, "because", "", "why it was decided (required)")
	cmd.Flags().StringVar(&o.topic, "topic", "", "the subject `T`, so decisions on it can be found and compared")
	cmd.Flags().BoolVar(&o.force, "force", false, "record it even when it contradicts a decision in force (contested)")
	return cmd
}

func (a *app) decideRun(ctx context.Context, o *decideOptions) error {
	return a.runDecision(func(m *wake.Memory) (store.DecisionChange, error) {
		return m.Decide(ctx, store.NewDecision{What: o.what, Why: o.because, Topic: o.topic, Force: o.force})
	}, func(ch store.DecisionChange) {
		if ch.Status == tiers.StatusContested {
			a.printChange("Decided #%s: %s (contested: it contradicts a decision in force; the user settles it with 'wake uphold %s' or 'wake reverse').", ch.Name(), ch.Title, ch.Ref())
			return
		}
		a.printChange("Decided #%s: %s (active).", ch.Name(), ch.Title)
	})
}
