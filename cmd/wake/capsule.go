package main

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/wakeproto/wake"
	"github.com/wakeproto/wake/internal/duration"
	"github.com/wakeproto/wake/report"
	"github.com/wakeproto/wake/store"
	"github.com/wakeproto/wake/transcript"
)

type capsuleOptions struct {
	objective, session, transcript, transcriptFormat, format string
	dryRun, consume                                          bool
}

// capsuleCmd is `wake capsule`: it writes a capsule, and is the parent of
// the capsule's other commands.
func (a *app) capsuleCmd() *cobra.Command {
	o := &capsuleOptions{}
	cmd := &cobra.Command{
		Use:   "capsule [--objective O] [--session S] [--transcript PATH [--transcript-format F]] [--consume] [--dry-run] [--format json]",
		Short: "Write a context capsule for a subagent: a small snapshot of the memory",
		Long:  help("capsule"),
		Example: "  wake capsule\n  wake capsule --objective \"Review PR #42\" --dry-run\n" +
			"  wake capsule --transcript ~/.claude/projects/p/s.jsonl --format json",
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			for _, f := range []struct{ name, v string }{{"--objective", o.objective}, {"--session", o.session}} {
				if err := store.CheckText(f.v, false); err != nil {
					return usagef("%s: %v", f.name, err)
				}
			}
			if o.transcriptFormat != "" && o.transcript == "" {
				return hintError{usagef("--transcript-format is given without --transcript"), "name the transcript: --transcript PATH"}
			}
			if _, err := transcript.ParseFormat(o.transcriptFormat); err != nil {
				return usagef("--transcript-format: %v", err)
			}
			if o.consume && o.dryRun {
				return hintError{usagef("--consume and --dry-run are given together"), "a dry run writes nothing, so it consumes nothing: drop one"}
			}
			return a.capsuleRun(cmd.Context(), o)
		},
	}
	cmd.Flags().StringVar(&o.objective, "objective", "", "the capsule's primary objective `O` (default: the HANDOFF's next_priority)")
	cmd.Flags().StringVar(&o.session, "session", "", "the session `S` the capsule continues (default: the last hand-off's)")
	cmd.Flags().StringVar(&o.transcript, "transcript", "", "take at most five highlights from the client transcript at `PATH`")
	cmd.Flags().StringVar(&o.transcriptFormat, "transcript-format", "", "the transcript's format `F`: claude, codex or wake (default: sniffed)")
	cmd.Flags().BoolVar(&o.consume, "consume", false, "mark the open reminders the capsule shows consumed, as handing it to a subagent does")
	cmd.Flags().BoolVar(&o.dryRun, "dry-run", false, "print the capsule without writing it")
	addFormat(cmd, &o.format, "text or json", "text", "json")
	cmd.AddCommand(a.capsuleListCmd(), a.capsulePruneCmd())
	cmd.AddCommand(a.capsulePromptCmd())
	cmd.AddCommand(a.capsuleVerifyCmd())
	cmd.AddCommand(a.capsulePinCmd(), a.capsuleUnpinCmd())
	a.addCapsuleHook(cmd)
	return cmd
}

func (a *app) capsuleRun(ctx context.Context, o *capsuleOptions) error {
	m, err := a.open()
	if err != nil {
		return err
	}
	tr := o.transcript
	if tr != "" && !filepath.IsAbs(tr) {
		tr = filepath.Join(a.cwd, tr)
	}
	w, err := m.Capsule(ctx, wake.CapsuleOptions{Objective: o.objective, Session: o.session, Transcript: tr,
		TranscriptFormat: o.transcriptFormat, DryRun: o.dryRun, Consume: o.consume})
	if err != nil {
		return err
	}
	for _, warn := range w.Warnings {
		a.notice(wake.Notice{Kind: "warning", Msg: warn})
	}
	if o.format == "json" {
		return a.writeJSON(report.CapsuleJSON(w))
	}
	report.CapsuleText(a.errOut, w)
	if o.dryRun {
		_, err = a.out.Write(w.Data)
		return err
	}
	_, err = fmt.Fprintln(a.out, filepath.Join(m.Root(), filepath.FromSlash(w.Path)))
	return err
}

type capsuleListOptions struct {
	branch, format string
	archived       bool
}

func (a *app) capsuleListCmd() *cobra.Command {
	o := &capsuleListOptions{}
	cmd := &cobra.Command{
		Use:     "list [--branch B] [--archived] [--format json]",
		Short:   "List the stored capsules, oldest first",
		Long:    help("list"),
		Example: "  wake capsule list\n  wake capsule list --branch main --format json",
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			m, err := a.open()
			if err != nil {
				return err
			}
			ls, err := m.Capsules(cmd.Context(), o.branch, o.archived)
			if err != nil {
				return err
			}
			if o.format == "json" {
				return a.writeJSON(report.CapsuleListJSON(ls))
			}
			report.CapsuleListText(a.out, ls)
			return nil
		},
	}
	cmd.Flags().StringVar(&o.branch, "branch", "", "only the capsules of the git branch `B`")
	cmd.Flags().BoolVar(&o.archived, "archived", false, "the archived (pruned) capsules too")
	addFormat(cmd, &o.format, "text or json", "text", "json")
	return cmd
}

type capsulePruneOptions struct {
	olderThan, into, format string
	dryRun, merged          bool
}

func (a *app) capsulePruneCmd() *cobra.Command {
	o := &capsulePruneOptions{}
	cmd := &cobra.Command{
		Use:     "prune [--older-than AGE] [--merged [--into BRANCH]] [--dry-run] [--format json]",
		Short:   "Move old capsules, and those of merged branches, to cold/capsules/archive/, never deleting",
		Long:    help("prune"),
		Example: "  wake capsule prune --older-than 30d --dry-run\n  wake capsule prune --older-than 2w\n  wake capsule prune --merged --older-than 90d",
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if o.olderThan == "" && !o.merged {
				return hintError{usagef("prune needs --older-than or --merged"), "say how old a capsule must be to move (--older-than 30d), or move those of merged branches (--merged)"}
			}
			if o.into != "" && !o.merged {
				return usagef("--into goes with --merged only")
			}
			var age time.Duration
			if o.olderThan != "" {
				var err error
				if age, err = duration.Parse(o.olderThan); err != nil {
					return usagef("--older-than %v", err)
				}
			}
			m, err := a.open()
			if err != nil {
				return err
			}
			p, err := m.PruneCapsulesWith(cmd.Context(), wake.PruneOptions{OlderThan: age, Merged: o.merged, Into: o.into, DryRun: o.dryRun})
			if err != nil {
				return err
			}
			if o.format == "json" {
				return a.writeJSON(report.CapsulePruneJSON(p))
			}
			report.CapsulePruneText(a.out, p)
			return nil
		},
	}
	cmd.Flags().StringVar(&o.olderThan, "older-than", "", "move the capsules created more than `AGE` ago (30d, 2w, 36h)")
	cmd.Flags().BoolVar(&o.merged, "merged", false, "move the capsules of the branches git lists as merged into the default branch")
	cmd.Flags().StringVar(&o.into, "into", "", "with --merged: the default `BRANCH` (default: origin/HEAD, init.defaultBranch, main or master)")
	cmd.Flags().BoolVar(&o.dryRun, "dry-run", false, "say what would move without moving anything")
	addFormat(cmd, &o.format, "text or json", "text", "json")
	return cmd
}
