package main

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/wakeproto/wake"
	"github.com/wakeproto/wake/clients"
	"github.com/wakeproto/wake/clients/claude"
	"github.com/wakeproto/wake/clients/codex"
	"github.com/wakeproto/wake/clients/opencode"
	"github.com/wakeproto/wake/report"
	"github.com/wakeproto/wake/store"
	"github.com/wakeproto/wake/tiers"
)

type installOptions struct {
	project     string
	uninstall   bool
	boot        wake.BootFiles
	format      string // of the listing, with no client
	mcp         bool
	local       bool
	projectOnly bool
}

func (a *app) installCmd() *cobra.Command {
	o := &installOptions{}
	cmd := &cobra.Command{
		Use:     "install [CLIENT]",
		Short:   "Wire wake into an agent client (claude, codex, opencode), or list them",
		Long:    help("install"),
		Example: "  wake install\n  wake install claude\n  wake install codex --project ~/work/billing\n  wake install opencode",
		Args:    optionalClientArg,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				for _, f := range []string{"mcp", "local", "project-only"} {
					if cmd.Flags().Changed(f) {
						return usagef("--%s applies to 'wake install CLIENT'", f)
					}
				}
				return a.clientsRun(o)
			}
			if cmd.Flags().Changed("format") {
				return usagef("--format applies to 'wake install' with no client, which lists them")
			}
			if o.local && args[0] != "claude" {
				return hintError{usagef("--local applies to claude only: %s has no per-user settings file of the project", args[0]), "run 'wake install " + args[0] + "' without it"}
			}
			return a.installRun(cmd.Context(), o, clientNamed(args[0]))
		},
	}
	cmd.Flags().StringVar(&o.project, "project", "", "the project `DIR` the client runs in (default: the working directory)")
	cmd.Flags().BoolVar(&o.mcp, "mcp", false, "also register 'wake mcp' as an MCP server in the client's config")
	cmd.Flags().BoolVar(&o.projectOnly, "project-only", false, "Claude Code: wire the project alone, without the relay in ~/.claude/settings.json that gives sessions started in its subdirectories the memory")
	cmd.Flags().BoolVar(&o.local, "local", false, "claude: put the hooks in .claude/settings.local.json, your own, not the shared .claude/settings.json")
	addFormat(cmd, &o.format, "text or json (the list of clients)", "text", "json")
	addSkillFlags(cmd, &o.boot)
	return cmd
}

func (a *app) uninstallCmd() *cobra.Command {
	o := &installOptions{uninstall: true}
	cmd := &cobra.Command{
		Use:     "uninstall CLIENT",
		Short:   "Remove what 'wake install CLIENT' added",
		Long:    help("uninstall"),
		Example: "  wake uninstall claude\n  wake uninstall codex\n  wake uninstall claude --project ~/work/billing\n  wake uninstall opencode",
		Args:    clientArg,
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.installRun(cmd.Context(), o, clientNamed(args[0]))
		},
	}
	cmd.Flags().StringVar(&o.project, "project", "", "the project `DIR` (default: the working directory)")
	return cmd
}

// installable lists the clients wake can be wired into.
func installable() []clients.Client {
	return []clients.Client{claude.Client{}, codex.Client{}, opencode.Client{}}
}

// clientNamed is the client named name; nil when there is none.
func clientNamed(name string) clients.Client {
	for _, c := range installable() {
		if c.About().Name == name {
			return c
		}
	}
	return nil
}

func optionalClientArg(cmd *cobra.Command, args []string) error {
	if len(args) == 0 {
		return nil
	}
	return clientArg(cmd, args)
}

// clientsRun is `wake install` with no client: each client, whether it is
// on PATH, and what is wired into the project.
func (a *app) clientsRun(o *installOptions) error {
	project, err := a.projectDir(o.project)
	if err != nil {
		return err
	}
	states, err := clients.Survey(installable(), clients.Options{Wake: a.options(), Project: project, Root: a.rootFlag, Cwd: a.cwd})
	root := ""
	switch {
	case err == nil:
		root, _ = a.locate(project)
	case !errors.Is(err, tiers.ErrNoRoot):
		return err
	}
	r := report.NewClients(project, root, states)
	if o.format == "json" {
		return a.writeJSON(report.ClientsJSON(r))
	}
	report.ClientsText(a.out, r)
	return nil
}

// clientArg requires one argument naming a known client, and says which
// of the two was wrong: the count, or the name.
func clientArg(cmd *cobra.Command, args []string) error {
	if len(args) == 1 && clientNamed(args[0]) != nil {
		return nil
	}
	var names []string
	for _, c := range installable() {
		names = append(names, c.About().Name)
	}
	known := strings.Join(names, ", ")
	if len(args) != 1 {
		return hintError{usagef("%s takes one argument, the client (%s); got %d", cmd.CommandPath(), known, len(args)),
			"run '" + cmd.CommandPath() + " " + names[0] + "'"}
	}
	err := usagef("%s: unknown client %q; wake knows %s", cmd.CommandPath(), args[0], known)
	if s := closest(args[0], names); s != "" {
		return hintError{err, fmt.Sprintf("did you mean '%s %s'?", cmd.CommandPath(), s)}
	}
	return hintError{err, "run 'wake install' to list the clients and what is wired"}
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
	opts := clients.Options{Wake: a.options(), Project: project, Root: a.rootFlag, Cwd: a.cwd, BootFiles: o.boot, MCP: o.mcp, ProjectOnly: o.projectOnly, Local: o.local}
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
	if o.uninstall {
		a.footprintNote(ctx)
	}
	return nil
}

// footprintNote tells, after an uninstall, of the files wake wrote in the
// user's own directories, which every project shares and an uninstall of
// one therefore leaves: 'wake footprint --remove' takes them back.
func (a *app) footprintNote(ctx context.Context) {
	_, files, err := wake.Footprint(ctx, a.options(), false)
	if err != nil {
		return
	}
	var left []string
	for _, f := range files {
		if f.State == store.FootprintUnchanged {
			left = append(left, f.Path)
		}
	}
	if len(left) == 0 {
		return
	}
	fmt.Fprintf(a.out, "Left, as every project shares them: %s (wake wrote them outside its memory roots); 'wake footprint --remove' takes them back.\n", strings.Join(left, ", "))
}
