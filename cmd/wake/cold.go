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
}

func (a *app) coldCmd() *cobra.Command {
	o := &coldOptions{}
	cmd := &cobra.Command{
		Use:   "cold [PATH]",
		Short: "List the cold tier, or print one cold document within the session's caps",
		Long: `With no PATH, cold prints the whole table of contents of cold/: every
document by directory with its summary and token count, nothing folded.

With a PATH inside cold/ ("cold/2025/a.md" or "2025/a.md"), it prints that
document and records its tokens against the session (a session starts at
'wake load' and ends at 'wake handoff'). budget.cold caps what one session
pulls, and the last load plus the pulls never pass budget.memory_max: a
document that would pass either is shown as an extractive summary cut to
what is left, never whole, and the output says so.

Documents marked sensitivity: secret are never printed; confidential ones
print their summary only. When a line of what is printed contradicts an
active decision or a decision of the last session, a note after it says
so: recent state wins over cold (the protocol's rule 3).

Exit status: 2 when PATH is not a path inside cold/ (absolute, or leaving
cold/ like ../main.md); 1 when the document cannot be printed: missing,
binary, secret, a symlink leading out of the memory root, or not even its
summary fits what is left this session.`,
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
			return a.coldRun(cmd.Context(), o)
		},
	}
	return cmd
}

func (a *app) coldRun(ctx context.Context, o *coldOptions) error {
	m, err := a.open()
	if err != nil {
		return err
	}
	if o.path == "" {
		return a.coldList(m)
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

func (a *app) coldList(m *wake.Memory) error {
	toc, cs, err := m.ColdTOC()
	if err != nil {
		return err
	}
	report.ColdText(a.out, m.Root(), toc, cs.Pulled, m.Config().Budget.Cold)
	return nil
}
