package main

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/wakeproto/wake/store"
)

type manOptions struct{ dir string }

func (a *app) manCmd() *cobra.Command {
	o := &manOptions{}
	cmd := &cobra.Command{
		Use:     "man --dir DIR",
		Short:   "Write wake's manual pages (wake.1, wake-load.1, ...) into a directory",
		Long:    help("man"),
		Example: "  wake man --dir ~/.local/share/man/man1\n  man wake-load",
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if o.dir == "" {
				return hintError{usagef("--dir is required"), "run 'wake man --help' for usage"}
			}
			return a.manRun(o)
		},
	}
	cmd.Flags().StringVar(&o.dir, "dir", "", "write the pages into `DIR` (created if missing)")
	return cmd
}

// manRun writes one page a command of the whole tree, cobra's help and
// completion commands included, as 'wake --help' lists them.
func (a *app) manRun(o *manOptions) error {
	dir := o.dir
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(a.cwd, dir)
	}
	root := (&app{}).rootCmd()
	root.InitDefaultHelpCmd()
	root.InitDefaultCompletionCmd()
	n := 0
	var walk func(c *cobra.Command) error
	walk = func(c *cobra.Command) error {
		if c.Hidden || (!c.IsAvailableCommand() && c.Name() != "help" && c != root) {
			return nil
		}
		name := manName(c) + ".1"
		if err := store.WriteFile(a.fs, filepath.Join(dir, name), []byte(manPage(c)), 0o644); err != nil {
			return fmt.Errorf("writing %s: %w", name, err)
		}
		n++
		for _, s := range c.Commands() {
			if err := walk(s); err != nil {
				return err
			}
		}
		return nil
	}
	if err := walk(root); err != nil {
		return err
	}
	fmt.Fprintf(a.out, "wrote %d manual pages to %s\n", n, dir)
	return nil
}

// manName is a command's page name: its path with dashes, "wake-capsule-list".
func manName(c *cobra.Command) string {
	return strings.ReplaceAll(c.CommandPath(), " ", "-")
}

// manPage renders c as a man(7) page. The help texts are laid out for an
// 80-column terminal already, tables and examples included: the page keeps
// that layout (no-fill) rather than let roff reflow it.
func manPage(c *cobra.Command) string {
	var b strings.Builder
	title := strings.ToUpper(manName(c))
	fmt.Fprintf(&b, ".TH %q \"1\" \"\" \"wake\" \"wake manual\"\n", title)
	fmt.Fprintf(&b, ".SH NAME\n%s \\- %s\n", manName(c), roffEscape(c.Short))
	fmt.Fprintf(&b, ".SH SYNOPSIS\n.nf\n%s\n.fi\n", roffEscape(c.UseLine()))
	if long := c.Long; long != "" {
		fmt.Fprintf(&b, ".SH DESCRIPTION\n.nf\n%s\n.fi\n", roffEscape(long))
	}
	if c.Example != "" {
		fmt.Fprintf(&b, ".SH EXAMPLES\n.nf\n%s\n.fi\n", roffEscape(c.Example))
	}
	manFlags(&b, "OPTIONS", c.NonInheritedFlags())
	manFlags(&b, "OPTIONS INHERITED FROM PARENT COMMANDS", c.InheritedFlags())
	var see []string
	if c.HasParent() {
		see = append(see, manName(c.Parent())+"(1)")
	}
	for _, s := range c.Commands() {
		if s.IsAvailableCommand() {
			see = append(see, manName(s)+"(1)")
		}
	}
	if len(see) > 0 {
		fmt.Fprintf(&b, ".SH SEE ALSO\n%s\n", roffEscape(strings.Join(see, ", ")))
	}
	return b.String()
}

func manFlags(b *strings.Builder, section string, flags *pflag.FlagSet) {
	if !flags.HasAvailableFlags() {
		return
	}
	fmt.Fprintf(b, ".SH %s\n.nf\n%s.fi\n", section, roffEscape(flags.FlagUsagesWrapped(78)))
}

// roffEscape makes text print as itself: backslashes escaped, and a line
// that starts with a control character ('.' or ') guarded.
func roffEscape(s string) string {
	s = strings.ReplaceAll(s, `\`, `\e`)
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, ".") || strings.HasPrefix(l, "'") {
			lines[i] = `\&` + l
		}
	}
	return strings.Join(lines, "\n")
}
