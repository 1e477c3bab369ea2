package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/wakeproto/wake"
	"github.com/wakeproto/wake/budget"
	"github.com/wakeproto/wake/cold"
	"github.com/wakeproto/wake/report"
)

type coldOptions struct {
	arg    string // as given: a folder or a document inside cold/; "" lists cold/
	page   int
	format string
}

func (a *app) coldCmd() *cobra.Command {
	o := &coldOptions{}
	cmd := &cobra.Command{
		Use:     "cold [FOLDER|PATH]",
		Short:   "List a folder of the cold tier, or print one cold document within the session's caps",
		Long:    help("cold"),
		Example: "  wake cold\n  wake cold cold/2022/01/\n  wake cold cold/sessions/2026-11-20T09-00-00Z.md",
		Args:    maxArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				// Refused before anything is read, whichever it names.
				if _, err := cold.FolderPath(args[0]); err != nil {
					return hintError{usageError{err}, "run 'wake cold' to list the cold folders and documents"}
				}
				o.arg = args[0]
			}
			if o.page < 1 {
				return usagef("--page %d: want a page number from 1", o.page)
			}
			return a.coldRun(cmd.Context(), o)
		},
	}
	addPage(cmd, &o.page)
	addFormat(cmd, &o.format, "text or json (a folder's listing whole; a document as text only)", "text", "json")
	return cmd
}

func (a *app) coldRun(ctx context.Context, o *coldOptions) error {
	m, err := a.open()
	if err != nil {
		return err
	}
	if o.arg == "" || m.IsColdFolder(o.arg) {
		return a.coldList(m, o)
	}
	if o.format == "json" {
		return usagef("--format json: %s is not a folder of cold/; json lists a folder, a document prints as text", o.arg)
	}
	p, err := m.Pull(ctx, o.arg)
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

func (a *app) coldList(m *wake.Memory, o *coldOptions) error {
	f, cs, err := m.ColdFolder(o.arg)
	if errors.Is(err, wake.ErrNoFolder) {
		return hintError{err, "run 'wake cold' to list cold/ and its folders"}
	}
	if err != nil {
		return err
	}
	if o.format == "json" {
		return a.writeJSON(report.ColdJSON(f, cs.Pulled, m.Config().Budget.Cold))
	}
	pg, err := a.pager(m.Root(), o.page)
	if err != nil {
		return err
	}
	return pageErr(report.ColdText(a.out, m.Root(), f, cs.Pulled, m.Config().Budget.Cold, pg))
}
