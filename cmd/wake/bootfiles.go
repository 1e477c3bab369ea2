package main

import (
	"github.com/spf13/cobra"

	"github.com/wakeproto/wake"
)

// addSkillFlags adds the flags of the commands that write skill.md.
func addSkillFlags(cmd *cobra.Command, f *wake.BootFiles) {
	cmd.Flags().BoolVar(&f.NoSkill, "no-skill", false, "do not write skill.md")
	cmd.Flags().BoolVar(&f.ForceSkill, "force-skill", false, "make the file at skill.path this root's: replace one wake did not write, or wrote for another memory root")
}
