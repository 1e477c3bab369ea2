package main

import (
	"context"
	"fmt"

	"github.com/wakeproto/wake"

	"github.com/spf13/cobra"

	"github.com/wakeproto/wake/budget"
	"github.com/wakeproto/wake/cold"
	"github.com/wakeproto/wake/report"
)

type coldOptions struct {
	path string // root-relative, inside cold/; "" lists the tier
	page int
}

func (a *app) coldCmd() *cobra.Command {
	o := &coldOptions{}
	cmd := &cobra.Command{
		Use:     "cold [PATH]",
		Short:   "List the cold tier, or print one cold document within the session's caps",
		Long:    help("cold"),
		Example: "  wake cold\n  wake cold cold/sessions/2026-11-20T09-00-00Z.md",
		Args:    maxArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				rel, err := cold.ColdPath(args[0])
				if err != nil {
					return hintError{usageError{err}, "run 'wake cold' to list the cold documents and their paths"}
				}
				o.path = rel
			}
			if o.page < 1 {
				return usagef("--page %d: want a page number from 1", o.page)
			}
			return a.coldRun(cmd.Context(), o)
		},
	}
	addPage(cmd, &o.page)
	return cmd
}

func (a *app) coldRun(ctx context.Context, o *coldOptions) error {
	m, err := a.open()
	if err != nil {
		return err
	}
	if o.path == "" {
		return a.coldList(m, o.page)
	}
	p, err := m.Pull(ctx, o.path)
	if err != nil {
		return err
	}
	if _, err := a.out.Write([]byte(p.Text)); err != nil {
		return err
	}
	fmt.Fprintf(a.errOut, "wake: %s: %s tokens pulled; %s left this session (%s)\n",
		p.Path, budget.Thousands(p.Tokens), budget.Thousands(p.Left), p.Cap)
	return nil
}

func (a *app) coldList(m *wake.Memory, page int) error {
	toc, cs, err := m.ColdTOC()
	if err != nil {
		return err
	}
	pg, err := a.pager(m.Root(), page)
	if err != nil {
		return err
	}
	return pageErr(report.ColdText(a.out, m.Root(), toc, cs.Pulled, m.Config().Budget.Cold, pg))
}
