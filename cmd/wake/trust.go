package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"

	"github.com/spf13/afero"
	"github.com/spf13/cobra"

	"github.com/wakeproto/wake"
	"github.com/wakeproto/wake/tiers"
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
			if err := formatFlag(o.format, "text", "json"); err != nil {
				return err
			}
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
	cmd.Flags().StringVar(&o.format, "format", "text", "output `FORMAT` of --list: text or json")
	return cmd
}

// userDir is the user's own wake directory, or an error saying how to
// name one.
func (a *app) userDir() (string, error) {
	dir := tiers.UserDir(a.env)
	if dir == "" {
		return "", hintError{errors.New("neither $XDG_CONFIG_HOME nor $HOME is set"), "set HOME: trusted roots are recorded in ~/.config/wake/trust.json"}
	}
	return dir, nil
}

func (a *app) trustRun(ctx context.Context, o *trustOptions) error {
	root, err := a.findRoot()
	if err != nil {
		return err
	}
	ch, err := wake.SetTrust(ctx, root, a.options(), o.revoke)
	var ce *wake.ConfigError
	switch {
	case errors.Is(err, wake.ErrNoUserDir):
		return hintError{err, "set HOME: trusted roots are recorded in ~/.config/wake/trust.json"}
	case errors.As(err, &ce):
		return hintError{err, "fix wake.toml first: a file wake cannot read is not trusted"}
	case err != nil:
		return err
	}
	tr, changed, store := ch.Trust, ch.Changed, ch.Store
	switch {
	case o.revoke && !changed:
		fmt.Fprintf(a.out, "%s was not trusted; nothing changed.\n", tr.Root)
	case o.revoke:
		fmt.Fprintf(a.out, "Revoked: %s is no longer trusted (%s).\n", tr.Root, store)
	case !changed:
		fmt.Fprintf(a.out, "Already trusted: %s with %s.\n", tr.Root, trustedFile(tr))
	default:
		fmt.Fprintf(a.out, "Trusted %s: %s is recorded in %s.\n", tr.Root, trustedFile(tr), store)
	}
	if !o.revoke {
		a.describeTrusted(tr)
	}
	return nil
}

// describeTrusted says what the trusted wake.toml now decides.
func (a *app) describeTrusted(tr tiers.Trust) {
	keys := make([]string, 0, len(tr.Settings))
	for k := range tr.Settings {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	if len(keys) == 0 {
		fmt.Fprintln(a.out, "It sets none of skill.path and claude.boot today; should it later, trust it again.")
		return
	}
	fmt.Fprintln(a.out, "It now decides:")
	for _, k := range keys {
		fmt.Fprintf(a.out, "  %s = %q\n", k, tr.Settings[k])
	}
	fmt.Fprintln(a.out, "Any change to wake.toml makes it untrusted again until you run 'wake trust' again.")
}

// trustListItem is one line of 'wake trust --list --format json'.
type trustListItem struct {
	Root      string `json:"root"`
	SHA256    string `json:"wake_toml_sha256"`
	TrustedAt string `json:"trusted_at"`
	// State is "trusted" (wake.toml is the file trusted), "changed" (it
	// changed since) or "missing" (the root or its wake.toml is gone).
	State string `json:"state"`
}

func (a *app) trustList(o *trustOptions) error {
	dir, err := a.userDir()
	if err != nil {
		return err
	}
	store, err := tiers.ReadTrust(a.fs, dir)
	if err != nil {
		return err
	}
	items := []trustListItem{}
	for _, r := range store.Roots {
		it := trustListItem{Root: r.Root, SHA256: r.SHA256, TrustedAt: r.At.UTC().Format("2006-01-02T15:04:05Z"), State: "missing"}
		it.State = trustState(a.fs, r)
		items = append(items, it)
	}
	if o.format == "json" {
		data, err := json.MarshalIndent(items, "", "  ")
		if err != nil {
			return err
		}
		_, err = a.out.Write(append(data, '\n'))
		return err
	}
	if len(items) == 0 {
		fmt.Fprintf(a.out, "No memory root is trusted (%s).\n", filepath.Join(dir, tiers.TrustFile))
		return nil
	}
	for _, it := range items {
		what := "no wake.toml"
		if it.SHA256 != "" {
			what = "wake.toml sha256 " + it.SHA256[:min(12, len(it.SHA256))]
		}
		fmt.Fprintf(a.out, "%-8s %s  (%s, trusted %s)\n", it.State, it.Root, what, it.TrustedAt)
	}
	return nil
}

// trustedFile names what a trust record holds of a root.
func trustedFile(tr tiers.Trust) string {
	if tr.SHA256 == "" {
		return "the root, which has no wake.toml,"
	}
	return fmt.Sprintf("its wake.toml (sha256 %s)", tr.SHA256[:12])
}

// trustState is what became of a trusted root: "trusted" when its
// wake.toml is the file trusted (or it still has none, when it was
// trusted without one), "changed" when that differs, "missing" when the
// root is gone. wake.toml is read as wake's own file (no link, capped).
func trustState(fsys afero.Fs, r tiers.TrustedRoot) string {
	if fi, err := fsys.Stat(r.Root); err != nil || !fi.IsDir() {
		return "missing"
	}
	data, err := tiers.ReadOwn(fsys, r.Root, tiers.ConfigPath)
	switch {
	case errors.Is(err, fs.ErrNotExist) && r.SHA256 == "":
		return "trusted"
	case err != nil:
		return "changed"
	case tiers.ConfigHash(data) == r.SHA256:
		return "trusted"
	}
	return "changed"
}
