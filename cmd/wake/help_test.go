package main

import (
	"io/fs"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// TestHelpFiles: every command has a long help, every help file belongs
// to a command, and no help line is wider than a terminal.
func TestHelpFiles(t *testing.T) {
	t.Parallel()
	a := &app{}
	var cmds []*cobra.Command
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		cmds = append(cmds, c)
		for _, s := range c.Commands() {
			walk(s)
		}
	}
	walk(a.rootCmd())
	for _, c := range cmds {
		if c.Name() != "help" && strings.TrimSpace(c.Long) == "" {
			t.Errorf("%s has no long help", c.CommandPath())
		}
	}
	files, err := fs.Glob(helpFiles, "help/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("help files: %v %v", files, err)
	}
	for _, f := range files {
		name := strings.TrimSuffix(strings.TrimPrefix(f, "help/"), ".txt")
		if !slices.ContainsFunc(cmds, func(c *cobra.Command) bool { return c.Long == help(name) }) {
			t.Errorf("%s: no command shows it", f)
		}
		for i, l := range strings.Split(help(name), "\n") {
			if n := len([]rune(l)); n > 80 {
				t.Errorf("%s:%d: %d characters wide", f, i+1, n)
			}
		}
	}
}
