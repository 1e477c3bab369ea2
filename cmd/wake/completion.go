package main

import "github.com/spf13/cobra"

// addCompletion adds cobra's completion command to the whole tree now
// rather than when it runs, so that a missing or unknown shell is a usage
// error (cobra's own prints the help and exits 0).
func addCompletion(root *cobra.Command) {
	root.CompletionOptions.DisableDefaultCmd = false
	root.InitDefaultCompletionCmd()
	root.CompletionOptions.DisableDefaultCmd = true
	for _, c := range root.Commands() {
		if c.Name() != "completion" {
			continue
		}
		c.Args = cobra.ArbitraryArgs
		c.RunE = func(cmd *cobra.Command, args []string) error {
			err := usagef("completion needs a shell: bash, zsh, fish or powershell")
			if len(args) > 0 {
				err = usagef("unknown shell %q: want bash, zsh, fish or powershell", args[0])
			}
			return hintError{err, "run 'wake completion --help' for usage"}
		}
	}
}
