package main

import (
	"context"

	"github.com/spf13/cobra"
	"github.com/wakeproto/wake"
	"github.com/wakeproto/wake/store"
)

type contestOptions struct {
	ref                 store.DecisionRef
	objection, proposal string
}

func (a *app) contestCmd() *cobra.Command {
	o := &contestOptions{}
	cmd := &cobra.Command{
		Use:     `contest N|ID --objection "…" --proposal "…"`,
		Short:   "Contest a decision: record an objection and a proposal for the user to settle",
		Long:    help("contest"),
		Example: `  wake contest d-7f3a --objection "TOML has no anchors" --proposal "Keep YAML with a linter"`,
		RunE: func(cmd *cobra.Command, args []string) error {
			ref, err := decisionRef(cmd, args)
			if err != nil {
				return err
			}
			o.ref = ref
			if err := a.requireTexts(text{"--objection", &o.objection, "say what is wrong with the decision"},
				text{"--proposal", &o.proposal, "say what to do instead"}); err != nil {
				return err
			}
			return a.contestRun(cmd.Context(), o)
		},
	}
	cmd.Flags().StringVar(&o.objection, "objection", "", "what is wrong with the decision (required)")
	cmd.Flags().StringVar(&o.proposal, "proposal", "", "the proposed alternative (required)")
	return cmd
}

func (a *app) contestRun(ctx context.Context, o *contestOptions) error {
	return a.runDecision(func(m *wake.Memory) (store.DecisionChange, error) {
		return m.Contest(ctx, o.ref, o.objection, o.proposal)
	}, func(ch store.DecisionChange) {
		ref := ch.Ref()
		a.printChange("Contested #%s: %s (now contested).", ch.Name(), ch.Title)
		a.printChange("The user settles it: wake reverse %s --by \"…\" --because \"…\", or wake uphold %s --because \"…\".", ref, ref)
	})
}
