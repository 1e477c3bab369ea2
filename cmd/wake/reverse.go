package main

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/wakeproto/wake"
	"github.com/wakeproto/wake/store"
)

type reverseOptions struct {
	ref                store.DecisionRef
	by, because, topic string
}

func (a *app) reverseCmd() *cobra.Command {
	o := &reverseOptions{}
	cmd := &cobra.Command{
		Use:   `reverse N|ID --by "NEW DECISION" --because "WHY"`,
		Short: "Reverse a decision: mark it reversed and record what replaces it",
		Long:  help("reverse"),
		Example: `  wake reverse d-7f3a --by "Use TOML for config" --because "YAML indentation broke parsing"
  wake reverse 3 --by "Use TOML for config" --because "YAML indentation broke parsing"`,
		RunE: func(cmd *cobra.Command, args []string) error {
			ref, err := decisionRef(cmd, args)
			if err != nil {
				return err
			}
			o.ref = ref
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
	cmd.Flags().StringVar(&o.topic, "topic", "", "TOPIC `T` of the new decision (default: the reversed decision's)")
	return cmd
}

func (a *app) reverseRun(ctx context.Context, o *reverseOptions) error {
	return a.runDecision(func(m *wake.Memory) (store.DecisionChange, error) {
		return m.Reverse(ctx, o.ref, store.NewDecision{What: o.by, Why: o.because, Topic: o.topic})
	}, func(ch store.DecisionChange) {
		a.printChange("Reversed #%s: %s (now reversed).", ch.Name(), ch.Title)
		a.printChange("Decided #%s: %s (active), replacing #%s.", ch.AddedName(), ch.AddedTitle, ch.Name())
	})
}
