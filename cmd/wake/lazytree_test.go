package main

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/afero"
)

// TestCommandTable: the table rootCmdFor picks from names every command
// the tree has, by the name cobra finds it by, with no aliases it would
// miss.
func TestCommandTable(t *testing.T) {
	a := &app{}
	var names []string
	for _, c := range a.commands() {
		cmd := c.make()
		if cmd.Name() != c.name || len(cmd.Aliases) > 0 {
			t.Errorf("%s: command %q, aliases %v", c.name, cmd.Name(), cmd.Aliases)
		}
		names = append(names, c.name)
	}
	var tree []string
	for _, c := range a.rootCmd().Commands() {
		if c.Name() != "completion" { // cobra's own, never run on a session's path
			tree = append(tree, c.Name())
		}
	}
	slices.Sort(names)
	if !slices.Equal(names, tree) {
		t.Errorf("table %v, tree %v", names, tree)
	}
}

// TestOneCommandTree: a command run from a tree holding it alone prints
// what it prints from the whole tree, help and usage errors included.
func TestOneCommandTree(t *testing.T) {
	a := &app{}
	var cases [][]string
	for _, c := range a.commands() {
		cases = append(cases, []string{c.name, "--help"}, []string{c.name, "--no-such-flag"}, []string{c.name, "help"})
		for _, s := range c.make().Commands() {
			cases = append(cases, []string{c.name, s.Name(), "--help"}, []string{c.name, s.Name() + "x"})
		}
	}
	cases = append(cases, []string{"--help"}, []string{"help", "load"}, []string{"laod"}, []string{"--root", "x", "load", "--help"}, nil)
	for _, args := range cases {
		run := func(full bool) (string, int) {
			var out, errOut bytes.Buffer
			b := &app{fs: afero.NewMemMapFs(), env: map[string]string{}, in: strings.NewReader(""), out: &out, errOut: &errOut, cwd: "/"}
			cmd := b.rootCmdFor(args)
			if full {
				cmd = b.rootCmd()
			}
			cmd.SetArgs(args)
			code := b.report(cmd.ExecuteContext(context.Background()))
			return out.String() + "\x00" + errOut.String(), code
		}
		one, oneCode := run(false)
		all, allCode := run(true)
		if one != all || oneCode != allCode {
			t.Errorf("wake %q: one command's tree gives (%d)\n%s\nthe whole tree (%d)\n%s", args, oneCode, one, allCode, all)
		}
	}
}
