package main

import (
	"path/filepath"

	"github.com/spf13/cobra"
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
			return a.installRun(cmd.Context(), o)
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
			return a.uninstallRun(cmd.Context(), o)
		},
	}
	cmd.Flags().StringVar(&o.project, "project", "", "the project `DIR` (default: the working directory)")
	return cmd
}

func clientArg(cmd *cobra.Command, args []string) error {
	if len(args) != 1 || args[0] != "claude" {
		return hintError{usagef("%s takes one argument, the client: claude", cmd.CommandPath()), "run '" + cmd.CommandPath() + " claude'"}
	}
	return nil
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

// A file wake could not write (a symlink on the way, from the project or
// at the file itself) is refused here, before anything is changed.
