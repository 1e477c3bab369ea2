package main

import (
	"context"

	"github.com/spf13/cobra"
	"github.com/wakeproto/wake"
	"github.com/wakeproto/wake/handoff"
)

type upholdOptions struct {
	n       int
	because string
}

func (a *app) upholdCmd() *cobra.Command {
	o := &upholdOptions{}
	cmd := &cobra.Command{
		Use:   `uphold N --because "WHY"`,
		Short: "Uphold contested decision N: the user keeps it",
		Long: `uphold records the user's ruling that contested decision N stands: it adds
"UPHELD: [date] WHY" and sets its STATUS back to active (Wake Protocol rule 4:
the user is the tie-breaker). Only a contested decision can be upheld.`,
		Example: `  wake uphold 3 --because "anchors are not worth a format change"`,
		RunE: func(cmd *cobra.Command, args []string) error {
			n, err := decisionNumber(cmd, args)
			if err != nil {
				return err
			}
			o.n = n
			if err := a.requireTexts(text{"--because", &o.because, "say why the decision stands"}); err != nil {
				return err
			}
			return a.upholdRun(cmd.Context(), o)
		},
	}
	cmd.Flags().StringVar(&o.because, "because", "", "why the decision stands (required)")
	return cmd
}

func (a *app) upholdRun(ctx context.Context, o *upholdOptions) error {
	return a.runDecision(func(m *wake.Memory) (handoff.DecisionChange, error) {
		return m.Uphold(ctx, o.n, o.because)
	}, func(ch handoff.DecisionChange) {
		a.printChange("Upheld #%d: %s (active again).", ch.Number, ch.Title)
	})
}
