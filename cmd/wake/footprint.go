package main

import (
	"github.com/spf13/cobra"

	"github.com/wakeproto/wake"
	"github.com/wakeproto/wake/report"
)

type footprintOptions struct {
	remove bool
	format string
}

// footprintCmd is `wake footprint`: the files wake wrote outside its
// memory roots, and taking them back.
func (a *app) footprintCmd() *cobra.Command {
	o := &footprintOptions{}
	cmd := &cobra.Command{
		Use:     "footprint [--remove] [--format json]",
		Short:   "List the files wake wrote outside its memory roots, or take them back",
		Long:    help("footprint"),
		Example: "  wake footprint\n  wake footprint --remove",
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			dir, files, err := wake.Footprint(cmd.Context(), a.options(), o.remove)
			if err != nil {
				return err
			}
			if o.format == "json" {
				return a.writeJSON(report.FootprintJSON(dir, files))
			}
			report.FootprintText(a.out, dir, files, o.remove)
			return nil
		},
	}
	cmd.Flags().BoolVar(&o.remove, "remove", false, "delete the files still as wake last wrote them, and forget them")
	addFormat(cmd, &o.format, "text or json", "text", "json")
	return cmd
}
