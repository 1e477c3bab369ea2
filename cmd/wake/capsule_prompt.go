package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/wakeproto/wake"
	"github.com/wakeproto/wake/report"
	"github.com/wakeproto/wake/store"
)

type capsulePromptOptions struct {
	session, file, format, planSlug string
	stub                            bool
}

func (a *app) capsulePromptCmd() *cobra.Command {
	o := &capsulePromptOptions{}
	cmd := &cobra.Command{
		Use:     "prompt [--session S] [--file PATH] [--stub] [--plan-slug SLUG] [--format json]",
		Short:   "Print the instructions that ask the agent to write a capsule itself",
		Long:    help("prompt"),
		Example: "  wake capsule prompt --session \"$SESSION_ID\" --stub\n  wake capsule prompt --format json | jq -r .prompt",
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := store.CheckText(o.session, false); err != nil {
				return usagef("--session: %v", err)
			}
			if err := store.CheckText(o.planSlug, false); err != nil {
				return usagef("--plan-slug: %v", err)
			}
			return a.capsulePromptRun(cmd.Context(), o)
		},
	}
	cmd.Flags().StringVar(&o.session, "session", "", "the session `S` the capsule continues (its source_session)")
	cmd.Flags().StringVar(&o.file, "file", "", "write the capsule at `PATH`, a .md file under the memory root's cold/ (default cold/capsules/<branch>/<stamp>.md)")
	cmd.Flags().StringVar(&o.planSlug, "plan-slug", "", "look for the branch's plan and progress notebooks under `SLUG` instead of the branch's name ([capsule] plans)")
	cmd.Flags().BoolVar(&o.stub, "stub", false, "first write the capsule's skeleton there (never over an existing file)")
	addFormat(cmd, &o.format, "text or json", "text", "json")
	return cmd
}

func (a *app) capsulePromptRun(ctx context.Context, o *capsulePromptOptions) error {
	m, err := a.open()
	if err != nil {
		return err
	}
	p, err := m.CapsulePrompt(ctx, wake.CapsulePromptOptions{Session: o.session, File: a.absPath(o.file), Stub: o.stub, PlanSlug: o.planSlug})
	if pe := (*wake.CapsulePathError)(nil); errors.As(err, &pe) && o.file != "" {
		return hintError{usagef("--file %s: %s", o.file, pe.Reason), pe.Hint()}
	}
	if err != nil {
		return err
	}
	if o.format == "json" {
		return a.writeJSON(report.CapsulePromptJSON(p))
	}
	if p.Stubbed {
		fmt.Fprintf(a.errOut, "wake: wrote the capsule's skeleton: %s\n", p.Shown)
	}
	_, err = io.WriteString(a.out, p.Text)
	return err
}

// absPath is a path flag's value made absolute against the working
// directory; "" stays "".
func (a *app) absPath(p string) string {
	if p == "" || filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(a.cwd, p)
}
