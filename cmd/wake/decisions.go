package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/wakeproto/wake"
	"github.com/wakeproto/wake/report"
	"github.com/wakeproto/wake/tiers"
)

type decisionsOptions struct {
	all    bool
	format string
}

func (a *app) decisionsCmd() *cobra.Command {
	o := &decisionsOptions{}
	cmd := &cobra.Command{
		Use:     "decisions [--all] [--format json]",
		Short:   "List the decision log with numbers, IDs, status and topic",
		Long:    help("decisions"),
		Example: "  wake decisions\n  wake decisions --all --format json",
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.decisionsRun(o)
		},
	}
	cmd.Flags().BoolVar(&o.all, "all", false, "list reversed decisions too")
	addFormat(cmd, &o.format, "text or json", "text", "json")
	return cmd
}

func (a *app) decisionsRun(o *decisionsOptions) error {
	root, err := a.locate(a.cwd)
	if err != nil {
		return err
	}
	d, err := wake.ReadDecisions(root, a.options())
	if err != nil {
		return err
	}
	if d.Held == "" {
		for _, m := range d.Log.Malformed {
			a.warn([]string{fmt.Sprintf("%s:%d: %s: %s", tiers.DecisionsPath, m.Line, m.Reason, m.Text)})
		}
	}
	if o.format == "json" {
		return a.writeJSON(report.DecisionsJSON(d.Log, d.Planned, d.Held, o.all, d.Redacted))
	}
	report.DecisionsText(a.out, d.Log, d.Planned, d.Held, o.all, d.Redacted)
	return nil
}
