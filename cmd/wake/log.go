package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/wakeproto/wake"
	"github.com/wakeproto/wake/internal/duration"
	"github.com/wakeproto/wake/report"
)

type logOptions struct {
	since  time.Duration // 0: the whole ledger
	op     string
	format string
	page   int
}

func (a *app) logCmd() *cobra.Command {
	o := &logOptions{}
	var since string
	cmd := &cobra.Command{
		Use:     "log",
		Short:   "Print the audit ledger, newest first",
		Long:    help("log"),
		Example: "  wake log\n  wake log --since 24h --op decide\n  wake log --format json | jq '.entries[0]'",
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if since != "" {
				d, err := duration.Parse(since)
				if err != nil {
					return usagef("--since %v", err)
				}
				o.since = d
			}
			if o.page < 1 {
				return usagef("--page %d: want a page number from 1", o.page)
			}
			if cmd.Flags().Changed("op") && (o.op == "" || strings.ContainsAny(o.op, " \t")) {
				return usagef("--op %q: want one op, such as handoff or decide", o.op)
			}
			return a.logRun(o)
		},
	}
	cmd.Flags().StringVar(&since, "since", "", "only entries from the last `DURATION` (24h, 30d, 2w)")
	cmd.Flags().StringVar(&o.op, "op", "", "only entries of this `OP` (init, handoff, decide, ...)")
	addPage(cmd, &o.page)
	addFormat(cmd, &o.format, "text or json", "text", "json")
	return cmd
}

func (a *app) logRun(o *logOptions) error {
	root, err := a.locate(a.cwd)
	if err != nil {
		return err
	}
	f := wake.LogFilter{Since: o.since, Op: o.op}
	l, err := wake.ReadLedger(root, a.options(), f)
	if err != nil {
		return err
	}
	for _, b := range l.Bad {
		a.warn([]string{fmt.Sprint(b)})
	}
	if o.format == "json" {
		return a.writeJSON(report.LogJSON(l.Entries, l.HeldBack, l.Bad, l.Redacted))
	}
	pg, err := a.pager(root, o.page)
	if err != nil {
		return err
	}
	return pageErr(report.LogText(a.out, l.Entries, l.HeldBack, l.Redacted, f, pg))
}
