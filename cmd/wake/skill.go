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
		Use:     "skill",
		Short:   "Print skill.md, the compact boot file",
		Long:    help("skill"),
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
