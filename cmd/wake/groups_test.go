package main

import (
	"strings"
	"testing"
)

// TestCommandGroups: every command is in one of help's groups, and the
// commands clients and git run are listed apart from those a person types.
func TestCommandGroups(t *testing.T) {
	t.Parallel()
	a := &app{}
	names := map[string]bool{}
	for _, c := range a.commands() {
		names[c.name] = true
		if commandGroup[c.name] == "" {
			t.Errorf("%s is in no group (commandGroup in groups.go)", c.name)
		}
	}
	for name := range commandGroup {
		if !names[name] {
			t.Errorf("commandGroup names %s, which is no command", name)
		}
	}
	code, out, _ := runApp(t, t.TempDir(), "--help")
	if code != 0 {
		t.Fatalf("wake --help: exit %d", code)
	}
	_, machine, ok := strings.Cut(out, "For clients and git (not typed by hand):\n")
	machine, _, _ = strings.Cut(machine, "\n\n")
	if !ok || strings.Contains(out, "Additional Commands") {
		t.Fatalf("wake --help:\n%s", out)
	}
	for _, name := range []string{"hook", "mcp", "merge-driver", "wakeup"} {
		if !strings.Contains(machine, "\n  "+name+" ") && !strings.HasPrefix(machine, "  "+name+" ") {
			t.Errorf("%s is not among the commands clients run:\n%s", name, machine)
		}
	}
	if strings.Contains(strings.SplitN(out, "For clients", 2)[0], "  hook ") {
		t.Errorf("hook is listed with the commands a person types:\n%s", out)
	}
}
