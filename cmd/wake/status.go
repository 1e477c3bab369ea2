package main

import (
	"github.com/spf13/cobra"

	"github.com/wakeproto/wake/boot"
	"github.com/wakeproto/wake/report"
)

type statusOptions struct {
	format string
}

func (a *app) statusCmd() *cobra.Command {
	o := &statusOptions{}
	cmd := &cobra.Command{
		Use:     "status",
		Short:   "Show token use per file and tier against the budgets",
		Long:    help("status"),
		Example: "  wake status\n  wake status --format json",
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.statusRun(o)
		},
	}
	addFormat(cmd, &o.format, "text or json", "text", "json")
	return cmd
}

func (a *app) statusRun(o *statusOptions) error {
	m, err := a.open()
	if err != nil {
		return err
	}
	ctx, err := m.Status()
	if err != nil {
		return err
	}
	if o.format == "json" {
		return a.writeJSON(report.StatusJSON(ctx))
	}
	_, err = a.out.Write([]byte(boot.Status(ctx)))
	return err
}
