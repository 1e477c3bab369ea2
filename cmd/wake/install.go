package main

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/wakeproto/wake/clients"
	"github.com/wakeproto/wake/clients/claude"
)

type installOptions struct {
	project   string
	uninstall bool
	skillFlags
}

func (a *app) installCmd() *cobra.Command {
	o := &installOptions{}
	cmd := &cobra.Command{
		Use:   "install claude",
		Short: "Wire wake into Claude Code: a SessionStart hook and a CLAUDE.md import",
		Long: `install claude adds to the project (default: the working directory):

  .claude/settings.json  a SessionStart hook (matcher startup|resume|clear|compact)
                         running 'wake load --hook claude'
  CLAUDE.md              the line @.wake/boot.md (wake.toml [claude] boot = "full")
or
  ~/.claude/CLAUDE.md    the line @~/.claude/agentchat.skill.md (boot = "skill")

and writes the boot files once, so the very next session has them. Every
existing setting, hook and line is kept; a second run changes nothing.
'wake uninstall claude' removes exactly what install added.

The hook runs the bare command 'wake', so wake must be on the PATH Claude
Code starts with; install warns when it is not on yours.`,
		Example: "  wake install claude\n  wake install claude --project ~/work/billing",
		Args:    clientArg,
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.installRun(cmd.Context(), o, clientNamed(args[0]))
		},
	}
	cmd.Flags().StringVar(&o.project, "project", "", "the project `DIR` Claude Code runs in (default: the working directory)")
	addSkillFlags(cmd, &o.skillFlags)
	return cmd
}

func (a *app) uninstallCmd() *cobra.Command {
	o := &installOptions{uninstall: true}
	cmd := &cobra.Command{
		Use:   "uninstall claude",
		Short: "Remove what 'wake install claude' added",
		Long: `uninstall claude removes what 'wake install claude' added to the project,
as install recorded it in the memory root (.state/claude-install.json):
wake's SessionStart hook in .claude/settings.json and the import lines it
added to CLAUDE.md or ~/.claude/CLAUDE.md, each only where it is still as
install wrote it. A file or directory install created is deleted when
nothing else is left in it. Nothing else is touched.

With no record of the install (it was made by hand, or by an older wake),
uninstall removes wake's hook alone (the SessionStart group with matcher
startup|resume|clear|compact running 'wake load --hook claude') and names
the import lines it left, as it cannot tell whether it wrote them. The memory
root and the boot files stay.`,
		Example: "  wake uninstall claude\n  wake uninstall claude --project ~/work/billing",
		Args:    clientArg,
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.installRun(cmd.Context(), o, clientNamed(args[0]))
		},
	}
	cmd.Flags().StringVar(&o.project, "project", "", "the project `DIR` (default: the working directory)")
	return cmd
}

// installable lists the clients wake can be wired into.
func installable() []clients.Client { return []clients.Client{claude.Client{}} }

// clientNamed is the client named name; nil when there is none.
func clientNamed(name string) clients.Client {
	for _, c := range installable() {
		if c.About().Name == name {
			return c
		}
	}
	return nil
}

func clientArg(cmd *cobra.Command, args []string) error {
	if len(args) == 1 && clientNamed(args[0]) != nil {
		return nil
	}
	var names []string
	for _, c := range installable() {
		names = append(names, c.About().Name)
	}
	return hintError{usagef("%s takes one argument, the client: %s", cmd.CommandPath(), strings.Join(names, " or ")), "run '" + cmd.CommandPath() + " " + names[0] + "'"}
}

// projectDir resolves --project to an existing directory.
func (a *app) projectDir(flag string) (string, error) {
	dir := a.cwd
	if flag != "" {
		dir = flag
		if !filepath.IsAbs(dir) {
			dir = filepath.Join(a.cwd, dir)
		}
	}
	fi, err := a.fs.Stat(dir)
	if err != nil || !fi.IsDir() {
		return "", usagef("--project %s: not a directory", flag)
	}
	return filepath.Clean(dir), nil
}

// installRun is `wake install CLIENT` and `wake uninstall CLIENT`.
func (a *app) installRun(ctx context.Context, o *installOptions, c clients.Client) error {
	project, err := a.projectDir(o.project)
	if err != nil {
		return err
	}
	opts := clients.Options{Wake: a.options(), Project: project, Root: a.rootFlag, Cwd: a.cwd, BootFiles: o.skillFlags.bootFiles(true)}
	run := clients.Install
	if o.uninstall {
		run = clients.Uninstall
	}
	r, err := run(ctx, c, opts)
	if err != nil {
		return err
	}
	fmt.Fprintf(a.out, "wake %s %s: %s\n", r.Op, r.Client, r.Project)
	for _, l := range r.Lines() {
		fmt.Fprintf(a.out, "  %s\n", l)
	}
	if r.Summary != "" {
		fmt.Fprintln(a.out, r.Summary)
	}
	for _, n := range r.Warnings {
		a.notice(n)
	}
	for _, n := range r.Notes {
		fmt.Fprintln(a.out, n)
	}
	return nil
}
