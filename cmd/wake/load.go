package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/wakeproto/wake/boot"
	"github.com/wakeproto/wake/cold"
	"github.com/wakeproto/wake/handoff"
)

type loadOptions struct {
	format string
	hook   string // "claude": run as Claude Code's SessionStart hook
	skillFlags
}

func (a *app) loadCmd() *cobra.Command {
	o := &loadOptions{}
	cmd := &cobra.Command{
		Use:   "load",
		Short: "Print the boot context for a new session",
		Long: `load prints the boot context: phase 1 (main.md), phase 2 (recent/latest.md,
recent/previous.md) and phase 3 (warm/*.md), each file fitted to its share of
the token budget, then a budget footer. Cold files are never loaded.

A file over its share is shown compressed (whole sections and list items
dropped from the bottom up) and the context opens with a directive to
compress it. The whole context never exceeds budget.memory_max tokens.

It also writes skill.md to skill.path (see 'wake skill'; --no-skill skips
it) and refreshes boot.md once 'wake install claude' has created it.
--hook claude runs it as Claude Code's SessionStart hook: the hook's JSON on
stdin, the root found from its cwd, at most 10,000 characters on stdout.`,
		Example: "  wake load\n  wake load --format json | jq .totals\n  wake load --hook claude < hook.json",
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := formatFlag(o.format, "markdown", "json"); err != nil {
				return err
			}
			if o.hook != "" {
				return a.hookRun(cmd, o)
			}
			return a.loadRun(o)
		},
	}
	cmd.Flags().StringVar(&o.format, "format", "markdown", "output `FORMAT`: markdown or json")
	addHookFlags(cmd, o)
	return cmd
}

func (a *app) loadRun(o *loadOptions) error {
	s, err := a.open()
	if err != nil {
		return err
	}
	ctx, text, _, err := a.startSession(s, bootWrite{skillFlags: o.skillFlags})
	if err != nil {
		return err
	}
	if o.format == "json" {
		data, err := boot.JSON(ctx)
		if err != nil {
			return err
		}
		_, err = a.out.Write(data)
		return err
	}
	_, err = a.out.Write([]byte(text))
	return err
}

// startSession is a session start, shared by `wake load` and its Claude
// Code hook: the boot context, the session's cold accounting opened with
// the context's size, warnings on stderr, and the boot files.
//
// It holds the root's shared lock throughout, so that it reads the root as
// it was before a hand-off or after it, never between its renames, and
// writes the boot files from the state it read while no mutation can have
// changed it. Where the lock cannot be had at all (a read-only root, a
// .state/ that is a symlink) the context is still printed, but nothing is
// written: boot files from a state that may be moving are worse than none.
func (a *app) startSession(s *session, w bootWrite) (*boot.Context, string, boot.HookTarget, error) {
	unlock, err := a.locker.RLock(context.Background(), s.root)
	if errors.Is(err, handoff.ErrLockTimeout) {
		return nil, "", boot.HookTarget{}, hintError{err, "a hand-off or another wake command holds the memory root's lock; run it again when that is done"}
	}
	locked := err == nil
	if locked {
		defer unlock()
	} else {
		a.warn([]string{fmt.Sprintf("the memory root's lock could not be taken (%v); the boot files and caches are left as they are", err)})
	}
	ctx, text, err := a.bootContext(s, locked)
	if err != nil {
		return nil, "", boot.HookTarget{}, err
	}
	a.warn(ctx.Warnings)
	if !locked {
		return ctx, text, boot.HookTarget{Problems: []string{"the boot files were not written: the memory root's lock could not be taken"}}, nil
	}
	a.startColdSession(s, ctx.Totals.Output)
	return ctx, text, a.writeBootFiles(s, ctx, text, w), nil
}

// bootContext builds and measures the boot context and keeps what the build
// learned when save is set (the caller holds the root's lock). `wake load`
// and its Claude Code hook share it, and so does every command that writes
// the boot files.
func (a *app) bootContext(s *session, save bool) (*boot.Context, string, error) {
	idx := cold.OpenIndex(a.fs, s.root, s.cfg.Encoding)
	ctx, err := boot.Build(boot.Options{FS: a.fs, Root: s.root, Config: s.cfg, Counter: s.cache, Now: a.now, ColdIndex: idx})
	if err != nil {
		return nil, "", err
	}
	text := ctx.Text()
	if save {
		a.saveCache(s)
		a.saveColdIndex(s, idx)
	}
	return ctx, text, nil
}

// precount builds the boot context once without the lock, for its token
// counts only: a command that must build it under the exclusive lock then
// finds every count in the cache, and holds no other wake command up while
// a long text is counted. Whatever fails here fails again under the lock,
// where it is reported.
func (a *app) precount(s *session) {
	a.bootContext(s, false)
}

func (a *app) warn(ws []string) {
	for _, w := range ws {
		a.errOut.Write([]byte("wake: warning: " + w + "\n"))
	}
}
