package main

import (
	"errors"
	"fmt"
	"path/filepath"

	"github.com/spf13/cobra"
	"github.com/wakeproto/wake"
)

type skillOptions struct {
	out   string
	force bool
}

func (a *app) skillCmd() *cobra.Command {
	o := &skillOptions{}
	cmd := &cobra.Command{
		Use:   "skill",
		Short: "Print skill.md, the compact boot file",
		Long: `skill prints skill.md (the Boot Context Spec): "# Memory — <agent>", then
Who I Am (wake.toml agent and team, main.md Identity and Purpose), Active Work
(the HANDOFF next_priority and open_risk, the open tasks and blockers of
warm/active_tasks.md), How We Work (main.md Standing Directives and the active
decisions), Last Session (recent/latest.md) and History (one line per older
session, newest first).

It is counted exactly and kept within its [skill] budgets: budget, the
whole file (4,000 tokens by default); protocols, How We Work (300); recent,
Last Session (1,000); History gets what the others leave of the whole.
How We Work and Last Session are first cut to their own budgets, from the
bottom (fenced code, tool output and transcripts first). The whole is then
compressed from the bottom up: first fenced code, tool output and
transcripts, then History from its oldest line, Last Session from its last
bullet, How We Work from its last line. Who I Am (identity, 200) and Active
Work (active, 500) are never cut: over their budgets they earn a warning,
and when they alone exceed the whole the file is still written whole, with
a warning. Secret documents never appear; confidential ones by their
summary.

wake load and wake handoff write it to skill.path themselves.`,
		Example: "  wake skill\n  wake skill --out /tmp/skill.md",
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.skillRun(o)
		},
	}
	cmd.Flags().StringVar(&o.out, "out", "-", "write it to `PATH` instead of standard output (-)")
	cmd.Flags().BoolVar(&o.force, "force-skill", false, "replace a file at --out that wake did not write")
	return cmd
}

func (a *app) skillRun(o *skillOptions) error {
	m, err := a.open()
	if err != nil {
		return err
	}
	if o.out == "-" || o.out == "" {
		data, err := m.Skill()
		if err != nil {
			return err
		}
		_, err = a.out.Write(data)
		return err
	}
	path := o.out
	if !filepath.IsAbs(path) {
		path = filepath.Join(a.cwd, path)
	}
	err = m.WriteSkillTo(path, o.force)
	if errors.Is(err, wake.ErrNotWakeFile) {
		return hintError{fmt.Errorf("--out %s: %w", o.out, err), "pass --force-skill to replace it, or choose another path"}
	}
	return err
}
