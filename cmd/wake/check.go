package main

import (
	"context"
	"io"

	"github.com/spf13/cobra"

	"github.com/wakeproto/wake/report"
)

type checkOptions struct {
	format string
}

func (a *app) checkCmd() *cobra.Command {
	o := &checkOptions{}
	cmd := &cobra.Command{
		Use:     "check [--format json]",
		Short:   "Run the four coherence checks; the exit status says the outcome",
		Long:    help("check"),
		Example: "  wake check\n  wake check --format json | jq .announcement",
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.checkRun(o)
		},
	}
	addFormat(cmd, &o.format, "text or json", "text", "json")
	return cmd
}

func (a *app) checkRun(o *checkOptions) error {
	m, err := a.open()
	if err != nil {
		return err
	}
	r, err := m.Check(context.Background())
	if err != nil {
		return err
	}
	if o.format == "json" {
		err = a.writeJSON(report.CheckJSON(m.Root(), r))
	} else {
		_, err = io.WriteString(a.out, report.CheckText(r))
	}
	if _, status := report.CheckOutcome(r); err == nil && status != exitOK {
		return exitStatus(status)
	}
	return err
}
