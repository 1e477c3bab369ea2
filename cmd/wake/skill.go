package main

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/wakeproto/wake"
	"github.com/wakeproto/wake/boot"
	"github.com/wakeproto/wake/report"
)

type skillOptions struct {
	out    string
	force  bool
	files  bool
	write  bool
	format string
}

func (a *app) skillCmd() *cobra.Command {
	o := &skillOptions{}
	cmd := &cobra.Command{
		Use:     "skill",
		Short:   "Print skill.md, the compact boot file, or say whose each skill.md file is",
		Long:    help("skill"),
		Example: "  wake skill\n  wake skill --files\n  wake skill --write --force-skill\n  wake skill --out /tmp/skill.md",
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := o.check(); err != nil {
				return err
			}
			return a.skillRun(cmd.Context(), o)
		},
	}
	cmd.Flags().StringVar(&o.out, "out", "-", "write it to `PATH` instead of standard output (-)")
	cmd.Flags().BoolVar(&o.files, "files", false, "list this root's skill.md files and whose each is, writing nothing")
	cmd.Flags().BoolVar(&o.write, "write", false, "write this root's skill.md files as 'wake load' does, then list them")
	cmd.Flags().BoolVar(&o.force, "force-skill", false, "with --write, make the file at skill.path this root's; with --out, replace a file wake did not write")
	addFormat(cmd, &o.format, "text or json (skill.md's text and the files, whose each is)", "text", "json")
	return cmd
}

// check refuses flags that cannot go together.
func (o *skillOptions) check() error {
	out := o.out != "-" && o.out != ""
	switch {
	case o.files && o.write:
		return usagef("--files and --write cannot be used together")
	case out && (o.files || o.write):
		return usagef("--out cannot be used with --files or --write")
	case out && o.format == "json":
		return usagef("--out writes skill.md itself: --format json cannot be used with it")
	case o.force && !out && !o.write:
		return usagef("--force-skill needs --write (take over the file at skill.path) or --out")
	}
	return nil
}

func (a *app) skillRun(ctx context.Context, o *skillOptions) error {
	m, err := a.open()
	if err != nil {
		return err
	}
	switch {
	case o.out != "-" && o.out != "":
		return a.skillOut(m, o)
	case o.write:
		files, problems, err := m.WriteSkills(ctx, o.force)
		if err != nil {
			return err
		}
		return a.skillFiles(m, o, files, problems)
	case o.files:
		files, err := m.SkillFiles()
		if err != nil {
			return err
		}
		return a.skillFiles(m, o, files, nil)
	}
	data, err := m.Skill()
	if err != nil {
		return err
	}
	if o.format == "json" {
		files, err := m.SkillFiles()
		if err != nil {
			return err
		}
		return a.writeJSON(report.SkillJSON(m.Root(), data, files, nil))
	}
	_, err = a.out.Write(data)
	return err
}

// skillFiles shows the root's skill.md files and whose each is.
func (a *app) skillFiles(m *wake.Memory, o *skillOptions, files []boot.SkillFile, problems []string) error {
	if o.format == "json" {
		return a.writeJSON(report.SkillJSON(m.Root(), nil, files, problems))
	}
	report.SkillFilesText(a.out, m.Root(), files, problems)
	return nil
}

// skillOut writes skill.md to --out.
func (a *app) skillOut(m *wake.Memory, o *skillOptions) error {
	path := o.out
	if !filepath.IsAbs(path) {
		path = filepath.Join(a.cwd, path)
	}
	err := m.WriteSkillTo(path, o.force)
	if errors.Is(err, wake.ErrNotWakeFile) || errors.Is(err, wake.ErrOtherRoot) {
		return hintError{fmt.Errorf("--out %s: %w", o.out, err), "pass --force-skill to replace it, or choose another path"}
	}
	return err
}
