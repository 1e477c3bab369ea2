package main

import (
	"strings"
	"testing"
)

// TestCompletion: 'wake completion SHELL' prints a script for each shell
// cobra supports, and the script's callback completes wake's commands.
func TestCompletion(t *testing.T) {
	t.Parallel()
	for shell, mark := range map[string]string{
		"bash":       "__start_wake",
		"zsh":        "#compdef wake",
		"fish":       "complete -c wake",
		"powershell": "Register-ArgumentCompleter",
	} {
		code, out, errOut := runApp(t, t.TempDir(), "completion", shell)
		if code != 0 || !strings.Contains(out, mark) || errOut != "" {
			t.Errorf("wake completion %s: exit %d, stdout %d bytes without %q\n%s", shell, code, len(out), mark, errOut)
		}
	}
	code, out, _ := runApp(t, t.TempDir(), "__complete", "lo")
	if code != 0 || !strings.Contains(out, "load\t") || !strings.Contains(out, "log\t") {
		t.Errorf("wake __complete lo: exit %d\n%s", code, out)
	}
	for _, args := range [][]string{{"completion", "tcsh"}, {"completion"}} {
		code, out, errOut := runApp(t, t.TempDir(), args...)
		if code != exitUsage || out != "" || !strings.Contains(errOut, "bash, zsh, fish or powershell") {
			t.Errorf("wake %s: exit %d, want %d\n%s%s", strings.Join(args, " "), code, exitUsage, out, errOut)
		}
	}
}

// TestNoCompletionOnTheSessionPath: the tree a command runs in alone (a
// session start, a hook) holds no completion command, built or run, and
// does not read the build information for --version.
func TestNoCompletionOnTheSessionPath(t *testing.T) {
	t.Parallel()
	a := &app{}
	root := a.rootCmdFor([]string{"load"})
	root.SetArgs([]string{"load", "--help"})
	root.SetOut(new(strings.Builder))
	if err := root.Execute(); err != nil {
		t.Fatal(err)
	}
	if root.Version != "" {
		t.Errorf("the one-command tree of 'wake load' read the version: %q", root.Version)
	}
	for _, c := range root.Commands() {
		if c.Name() == "completion" {
			t.Errorf("the one-command tree of 'wake load' built the completion command")
		}
	}
}
