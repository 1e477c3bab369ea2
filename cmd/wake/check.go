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
		Use:   "check [--format json]",
		Short: "Run the four coherence checks; the exit status says the outcome",
		Long: `check runs the Wake Protocol's coherence checks on the memory root and prints
each with pass or fail and its messages, then the announcement:

  1 identity              main.md exists and states the purpose: in its
                          Purpose section, under its title, or in its
                          front-matter summary
  2 continuity            recent/latest.md holds a session and the HANDOFF block
                          a session_summary; a HANDOFF older than
                          checks.stale_after is a warning
  3 task awareness        an open task in warm/active_tasks.md or a
                          HANDOFF next_priority
  4 decision consistency  no two active decisions with one TOPIC or
                          contradicting each other, no reversal without
                          REVERSED_BY, nothing contested, nothing wake wrote
                          deleted or edited by hand

Exit status: 0 all passed, 3 a check failed, 4 HALT (identity failed).`,
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
