package main

import (
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/wakeproto/wake"
	"github.com/wakeproto/wake/report"
	"github.com/wakeproto/wake/skeleton"
	"github.com/wakeproto/wake/tiers"
)

type initOptions struct {
	dir     string
	agent   string
	project string
}

func (a *app) initCmd() *cobra.Command {
	o := &initOptions{}
	cmd := &cobra.Command{
		Use:     "init [DIR]",
		Short:   "First wake: lay out a memory root (never overwrites)",
		Long:    help("init"),
		Example: "  wake init\n  wake init --agent Ava --project billing ~/work/billing/.wake",
		Args:    maxArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				o.dir = args[0]
			}
			if err := a.requireTexts(text{"--agent", &o.agent, ""}, text{"--project", &o.project, ""}); err != nil {
				return err
			}
			if err := tiers.CheckAgent(o.agent); err != nil {
				return usagef("--agent %v", err)
			}
			return a.initRun(cmd, o)
		},
	}
	cmd.Flags().StringVar(&o.agent, "agent", "", "agent `NAME` for main.md and wake.toml")
	cmd.Flags().StringVar(&o.project, "project", "", "project `NAME` (default: the directory holding the root)")
	return cmd
}

func (a *app) initRun(cmd *cobra.Command, o *initOptions) error {
	dir := o.dir
	for _, d := range []string{dir, a.rootFlag, a.env["WAKE_ROOT"], tiers.DefaultDirName} {
		if d != "" {
			dir = d
			break
		}
	}
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(a.cwd, dir)
	}
	if o.dir == "" && a.rootFlag == "" && a.env["WAKE_ROOT"] == "" {
		// The default ./.wake may be a link a cloned repository holds.
		if err := tiers.CheckRootLink(a.fs, dir); err != nil {
			return err
		}
	}
	res, err := wake.Init(cmd.Context(), dir, skeleton.Params{Agent: o.agent, Project: o.project}, a.options())
	if err != nil {
		return err
	}
	report.InitText(a.out, dir, res)
	return a.initMerge(cmd, dir)
}

// initMerge sets the root up for git's merges when it is in a git work
// tree (see [wake.SetupMerge]). The driver runs this very binary, by its
// absolute path: git runs drivers from editors and agents whose PATH may
// not hold wake, and a clone configured with one wake should not merge
// with another found first on PATH. A later 'wake init' updates the path
// when the binary moves; other commands say when it is gone.
func (a *app) initMerge(cmd *cobra.Command, dir string) error {
	exe := a.exe
	if exe == "" {
		var err error
		if exe, err = os.Executable(); err != nil {
			exe = "wake"
		}
	}
	m, err := wake.SetupMerge(cmd.Context(), dir, exe, a.options())
	if err != nil {
		return err
	}
	report.MergeSetupText(a.out, m)
	return nil
}
