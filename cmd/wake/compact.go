package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/wakeproto/wake/store"
)

type compactOptions struct {
	dryRun bool
	format string
}

func (a *app) compactCmd() *cobra.Command {
	o := &compactOptions{}
	cmd := &cobra.Command{
		Use:     "compact [--dry-run]",
		Short:   "Archive reversed decisions, finished items and closed reminders to cold/archive/",
		Long:    help("compact"),
		Example: "  wake compact --dry-run\n  wake compact\n  wake compact --format json",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return a.compactRun(cmd.Context(), o)
		},
	}
	cmd.Flags().BoolVar(&o.dryRun, "dry-run", false, "say what would be moved; write nothing")
	addFormat(cmd, &o.format, "text or json", "text", "json")
	return cmd
}

// compactJSON is what --format json prints.
type compactJSON struct {
	DryRun bool                  `json:"dry_run"`
	Moved  int                   `json:"moved"`
	Files  []store.CompactedFile `json:"files"`
}

func (a *app) compactRun(ctx context.Context, o *compactOptions) error {
	m, err := a.open()
	if err != nil {
		return err
	}
	c, err := m.Compact(ctx, o.dryRun)
	if err != nil {
		return err
	}
	if o.format == "json" {
		files := c.Files
		if files == nil {
			files = []store.CompactedFile{}
		}
		data, err := json.MarshalIndent(compactJSON{DryRun: o.dryRun, Moved: c.Total(), Files: files}, "", "  ")
		return a.writeJSON(append(data, '\n'), err)
	}
	if c.Empty() {
		fmt.Fprintln(a.out, "Nothing to compact.")
		return nil
	}
	verb := "Moved"
	if o.dryRun {
		verb = "Would move"
	}
	for _, f := range c.Files {
		line := fmt.Sprintf("%s %d from %s to %s", verb, f.Entries, f.Path, f.Archive)
		if len(f.IDs) > 0 {
			line += ": " + strings.Join(f.IDs, ", ")
		}
		fmt.Fprintln(a.out, line+".")
	}
	return nil
}
