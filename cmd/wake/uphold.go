package main

import (
	"context"

	"github.com/spf13/cobra"
	"github.com/wakeproto/wake"
	"github.com/wakeproto/wake/store"
)

type upholdOptions struct {
	ref     store.DecisionRef
	because string
}

func (a *app) upholdCmd() *cobra.Command {
	o := &upholdOptions{}
	cmd := &cobra.Command{
		Use:     `uphold N|ID --because "WHY"`,
		Short:   "Uphold a contested decision: the user keeps it",
		Long:    help("uphold"),
		Example: `  wake uphold d-7f3a --because "anchors are not worth a format change"`,
		RunE: func(cmd *cobra.Command, args []string) error {
			ref, err := decisionRef(cmd, args)
			if err != nil {
				return err
			}
			o.ref = ref
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
	return a.runDecision(func(m *wake.Memory) (store.DecisionChange, error) {
		return m.Uphold(ctx, o.ref, o.because)
	}, func(ch store.DecisionChange) {
		a.printChange("Upheld #%s: %s (active again).", ch.Name(), ch.Title)
	})
}
