package main

import (
	"context"
	"errors"

	"github.com/spf13/cobra"

	"github.com/wakeproto/wake"
	"github.com/wakeproto/wake/report"
)

type trustOptions struct {
	revoke bool
	list   bool
	format string
}

func (a *app) trustCmd() *cobra.Command {
	o := &trustOptions{}
	cmd := &cobra.Command{
		Use:   "trust",
		Short: "Let this memory root's wake.toml choose where wake writes outside it",
		Long: `A memory root usually comes with its repository, so whoever wrote the
repository wrote its wake.toml. Two of its settings reach outside the root:

  [skill] path    the file wake writes skill.md to (default ~/.claude/agentchat.skill.md)
  [claude] boot   "skill" makes 'wake install claude' import skill.md into your
                  global ~/.claude/CLAUDE.md

wake honours them from wake.toml only once you trust that very file: trust
records the root (its real path) and a SHA-256 of wake.toml in
~/.config/wake/trust.json ($XDG_CONFIG_HOME/wake). A changed wake.toml is
untrusted again until you run trust again. Until then the values of your own
~/.config/wake/config.toml apply (keys [skill] path and [claude] boot),
else the defaults, and wake says which settings it ignored. Settings that
only narrow what wake does (skill.path = "", boot = "full") need no trust.

--revoke forgets the root; --list shows every trusted root and whether its
wake.toml is still the file that was trusted.`,
		Example: "  wake trust\n  wake trust --list\n  wake trust --revoke --root ~/work/billing/.wake",
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if o.list && o.revoke {
				return usagef("--list and --revoke cannot be used together")
			}
			if o.list {
				return a.trustList(o)
			}
			return a.trustRun(cmd.Context(), o)
		},
	}
	cmd.Flags().BoolVar(&o.revoke, "revoke", false, "forget this root: its wake.toml is untrusted again")
	cmd.Flags().BoolVar(&o.list, "list", false, "list the trusted roots")
	addFormat(cmd, &o.format, "text or json (of --list)", "text", "json")
	return cmd
}

func (a *app) trustRun(ctx context.Context, o *trustOptions) error {
	root, err := a.locate(a.cwd)
	if err != nil {
		return err
	}
	ch, err := wake.SetTrust(ctx, root, a.options(), o.revoke)
	var ce *wake.ConfigError
	if errors.As(err, &ce) {
		return hintError{err, "fix wake.toml first: a file wake cannot read is not trusted"}
	}
	if err != nil {
		return err
	}
	report.TrustText(a.out, ch, o.revoke)
	return nil
}

func (a *app) trustList(o *trustOptions) error {
	roots, dir, err := wake.TrustedRoots(a.options())
	if err != nil {
		return err
	}
	if o.format == "json" {
		return a.writeJSON(report.TrustListJSON(roots))
	}
	report.TrustListText(a.out, roots, dir)
	return nil
}
