package main

import "github.com/spf13/cobra"

// The groups 'wake --help' lists the commands in: what a person types
// every day, what they type once to set a project up, and what clients
// and git run (a person never types those, and should not have to read
// past them to find the others).
const (
	groupEveryday = "everyday"
	groupSetup    = "setup"
	groupMachine  = "machine"
)

// commandGroups are the groups in the order help lists them.
func commandGroups() []*cobra.Group {
	return []*cobra.Group{
		{ID: groupEveryday, Title: "Everyday:"},
		{ID: groupSetup, Title: "Set-up:"},
		{ID: groupMachine, Title: "For clients and git (not typed by hand):"},
	}
}

// commandGroup is the group of each command of [app.commands] by name. A
// command missing here is listed under "Additional Commands", and
// TestCommandGroups fails.
var commandGroup = map[string]string{
	"load": groupEveryday, "status": groupEveryday, "check": groupEveryday,
	"handoff": groupEveryday, "cold": groupEveryday, "log": groupEveryday,
	"decide": groupEveryday, "decisions": groupEveryday, "reverse": groupEveryday,
	"contest": groupEveryday, "uphold": groupEveryday, "remember": groupEveryday,
	"capsule": groupEveryday, "compact": groupEveryday,

	"init": groupSetup, "install": groupSetup, "uninstall": groupSetup,
	"trust": groupSetup, "footprint": groupSetup, "skill": groupSetup, "man": groupSetup,

	"hook": groupMachine, "mcp": groupMachine, "merge-driver": groupMachine,
	"wakeup": groupMachine,
}

// addGroups declares the groups on root and puts cobra's own help and
// completion commands in the set-up group.
func addGroups(root *cobra.Command) {
	root.AddGroup(commandGroups()...)
	root.SetHelpCommandGroupID(groupSetup)
	root.SetCompletionCommandGroupID(groupSetup)
}
