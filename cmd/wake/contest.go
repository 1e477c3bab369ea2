package main

import (
	"context"

	"github.com/spf13/cobra"
	"github.com/wakeproto/wake"
	"github.com/wakeproto/wake/handoff"
)

type contestOptions struct {
	n                   int
	objection, proposal string
}

func (a *app) contestCmd() *cobra.Command {
	o := &contestOptions{}
	cmd := &cobra.Command{
		Use:   `contest N --objection "…" --proposal "…"`,
		Short: "Contest decision N: record an objection and a proposal for the user to settle",
		Long: `contest sets decision N's STATUS to contested and adds
"OBJECTION: [date] …" and "PROPOSED: …" lines (Wake Protocol rules 1 and 4:
state the objection and the alternative, then ask the user). It does not
change course: 'wake check' fails until the user settles it with
'wake reverse N …' or 'wake uphold N --because …'. Only an active decision
can be contested.`,
		Example: `  wake contest 3 --objection "TOML has no anchors" --proposal "Keep YAML with a linter"`,
		RunE: func(cmd *cobra.Command, args []string) error {
			n, err := decisionNumber(cmd, args)
			if err != nil {
				return err
			}
			o.n = n
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
	return a.runDecision(func(m *wake.Memory) (handoff.DecisionChange, error) {
		return m.Contest(ctx, o.n, o.objection, o.proposal)
	}, func(ch handoff.DecisionChange) {
		a.printChange("Contested #%d: %s (now contested).", ch.Number, ch.Title)
		a.printChange("The user settles it: wake reverse %d --by \"…\" --because \"…\", or wake uphold %d --because \"…\".", ch.Number, ch.Number)
	})
}
