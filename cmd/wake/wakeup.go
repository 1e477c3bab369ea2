package main

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/wakeproto/wake/wakeup"
)

type wakeupOptions struct {
	task    string
	cwd     string
	files   []string
	modules []string
	target  string
	profile string
	format  string
}

func (a *app) wakeupCmd() *cobra.Command {
	o := &wakeupOptions{}
	cmd := &cobra.Command{
		Use:     "wakeup [--task TEXT] [--cwd DIR] [--files PATH]... [--target T] [--format F]",
		Short:   "Print the wake-up packet: what a client needs to orient, scored against the task",
		Long:    help("wakeup"),
		Example: "  wake wakeup --task \"fix VAT rounding\" --files report/vat.go\n  wake wakeup --target codex --format prompt",
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.wakeupRun(o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.task, "task", "", "the task the packet is for (scores what is relevant)")
	f.StringVar(&o.cwd, "cwd", "", "`DIR` to find the memory root from (default: the working directory)")
	f.StringArrayVar(&o.files, "files", nil, "a `PATH` the task touches; repeat for more")
	f.StringSliceVar(&o.modules, "modules", nil, "`NAMES` of the modules the task touches, comma-separated")
	f.StringVar(&o.target, "target", wakeup.TargetGeneric, "`CLIENT` to shape for: "+strings.Join(wakeup.Targets, ", "))
	f.StringVar(&o.profile, "profile", wakeup.ProfileProject, "packet `PROFILE`: project, or developer (your developer roots)")
	addFormat(cmd, &o.format, "json, markdown or prompt", "json", "markdown", "prompt")
	check := cmd.PreRunE
	cmd.PreRunE = func(c *cobra.Command, args []string) error {
		if err := check(c, args); err != nil {
			return err
		}
		if !slices.Contains(wakeup.Targets, o.target) {
			return usagef("--target %q: want %s", o.target, strings.Join(wakeup.Targets, ", "))
		}
		if o.profile != wakeup.ProfileProject && o.profile != wakeup.ProfileDeveloper {
			return usagef("--profile %q: want project or developer", o.profile)
		}
		return nil
	}
	return cmd
}

func (a *app) wakeupRun(o *wakeupOptions) error {
	dir := a.cwd
	if o.cwd != "" {
		dir = o.cwd
		if !filepath.IsAbs(dir) {
			dir = filepath.Join(a.cwd, dir)
		}
	}
	m, err := a.openFrom(dir)
	if err != nil {
		return err
	}
	q := wakeup.Query{Task: o.task, Cwd: filepath.Clean(dir), Files: o.files, Modules: o.modules, Target: o.target, Profile: o.profile}
	p, err := m.Wakeup(q)
	if err != nil {
		return err
	}
	switch o.format {
	case "markdown":
		_, err = fmt.Fprint(a.out, wakeup.Markdown(p))
	case "prompt":
		text, cut := m.WakeupPrompt(p)
		if cut > 0 {
			fmt.Fprintf(a.errOut, "wake: the prompt left out %d item(s) to fit [wakeup] prompt_budget (%d tokens); --format json has them all\n",
				cut, m.Config().Wakeup.PromptBudget)
		}
		_, err = fmt.Fprint(a.out, text)
	default:
		_, err = a.out.Write(wakeup.JSON(p))
	}
	return err
}
