package main

import (
	"github.com/spf13/cobra"

	"github.com/wakeproto/wake"
)

// skillFlags are the flags of the commands that write skill.md.
type skillFlags struct {
	noSkill    bool
	forceSkill bool
}

func addSkillFlags(cmd *cobra.Command, f *skillFlags) {
	cmd.Flags().BoolVar(&f.noSkill, "no-skill", false, "do not write skill.md")
	cmd.Flags().BoolVar(&f.forceSkill, "force-skill", false, "replace a file at skill.path that wake did not write")
}

// bootFiles says which boot files to write; always writes boot.md in full
// mode even when it does not exist yet (the hook, install).
func (f skillFlags) bootFiles(always bool) wake.BootFiles {
	return wake.BootFiles{NoSkill: f.noSkill, ForceSkill: f.forceSkill, BootAlways: always}
}
