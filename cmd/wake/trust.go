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
		Use:     "trust",
		Short:   "Let this memory root's wake.toml choose where wake writes outside it",
		Long:    help("trust"),
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
