package main

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"
)

type capsulePinOptions struct {
	branch, format string
}

// pinJSON is `wake capsule pin|unpin --format json`: the branch and the
// capsule pinned to it ("" for none).
type pinJSON struct {
	Branch  string `json:"branch"`
	Capsule string `json:"capsule"`
	Path    string `json:"path,omitempty"`
}

func (a *app) capsulePinCmd() *cobra.Command {
	o := &capsulePinOptions{}
	cmd := &cobra.Command{
		Use:     "pin [ID|PATH] [--branch B] [--format json]",
		Short:   "Give the branch's subagents this capsule instead of the newest",
		Long:    help("pin"),
		Example: "  wake capsule pin main/20261122T223000Z\n  wake capsule pin .wake/cold/capsules/main/20261122T223000Z.md --branch feature/x\n  wake capsule pin",
		Args:    maxArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			m, err := a.open()
			if err != nil {
				return err
			}
			if len(args) == 0 {
				p, err := m.PinnedCapsule(cmd.Context(), o.branch)
				if err != nil {
					return err
				}
				return a.pinOut(o, p.Branch, p.ID, "")
			}
			ref := args[0]
			if strings.HasSuffix(ref, ".md") {
				ref = a.absPath(ref)
			}
			f, p, err := m.PinCapsule(cmd.Context(), ref, o.branch)
			if err != nil {
				return err
			}
			return a.pinOut(o, p.Branch, f.ID, filepath.Join(m.Root(), filepath.FromSlash(f.Path)))
		},
	}
	cmd.Flags().StringVar(&o.branch, "branch", "", "the git branch `B` whose subagents get it (default: the current one)")
	addFormat(cmd, &o.format, "text or json", "text", "json")
	return cmd
}

func (a *app) capsuleUnpinCmd() *cobra.Command {
	o := &capsulePinOptions{}
	cmd := &cobra.Command{
		Use:     "unpin [--branch B] [--format json]",
		Short:   "Give the branch's subagents its newest capsule again",
		Long:    help("unpin"),
		Example: "  wake capsule unpin\n  wake capsule unpin --branch feature/x",
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			m, err := a.open()
			if err != nil {
				return err
			}
			p, err := m.UnpinCapsule(cmd.Context(), o.branch)
			if err != nil {
				return err
			}
			if o.format == "json" {
				return a.pinOut(o, p.Branch, "", "")
			}
			if p.ID == "" {
				_, err = fmt.Fprintf(a.out, "branch %s had no capsule pinned\n", p.Branch)
			} else {
				_, err = fmt.Fprintf(a.out, "branch %s: unpinned %s; its subagents get its newest capsule\n", p.Branch, p.ID)
			}
			return err
		},
	}
	cmd.Flags().StringVar(&o.branch, "branch", "", "the git branch `B` (default: the current one)")
	addFormat(cmd, &o.format, "text or json", "text", "json")
	return cmd
}

// pinOut prints the pin of a branch after pin (or for a bare pin, which
// only shows it).
func (a *app) pinOut(o *capsulePinOptions, branch, id, path string) error {
	if o.format == "json" {
		data, err := json.MarshalIndent(pinJSON{Branch: branch, Capsule: id, Path: path}, "", "  ")
		return a.writeJSON(append(data, '\n'), err)
	}
	var err error
	switch {
	case id == "":
		_, err = fmt.Fprintf(a.out, "branch %s: no capsule pinned; its subagents get its newest\n", branch)
	case path == "":
		_, err = fmt.Fprintf(a.out, "branch %s: %s pinned\n", branch, id)
	default:
		_, err = fmt.Fprintf(a.out, "branch %s: %s pinned (%s)\n", branch, id, path)
	}
	return err
}
