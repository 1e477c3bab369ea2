package main

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/spf13/afero"
	"github.com/spf13/cobra"

	"github.com/wakeproto/wake"
	"github.com/wakeproto/wake/gitwork"
	"github.com/wakeproto/wake/merge"
	"github.com/wakeproto/wake/store"
	"github.com/wakeproto/wake/tiers"
)

// mergeDriverOptions are the four files git gives a merge driver: the
// common ancestor (%O), ours (%A, where the result goes), theirs (%B) and
// the path in the repository (%P).
type mergeDriverOptions struct {
	base, ours, theirs, path string
}

func (a *app) mergeDriverCmd() *cobra.Command {
	o := &mergeDriverOptions{}
	return &cobra.Command{
		Use:     "merge-driver BASE OURS THEIRS PATH",
		Short:   "The git merge driver for .wake/ (git runs it; 'wake init' configures it)",
		Long:    help("merge-driver"),
		Example: "  git config merge.wake.driver 'wake merge-driver %O %A %B %P'",
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) != 4 {
				return usagef("merge-driver takes the four files git names, %%O %%A %%B %%P; got %d argument(s)", len(args))
			}
			// git names the three files relative to where it runs the
			// driver: wake's working directory.
			o.base, o.ours, o.theirs, o.path = a.absPath(args[0]), a.absPath(args[1]), a.absPath(args[2]), args[3]
			return a.mergeDriverRun(cmd.Context(), o)
		},
	}
}

func (a *app) mergeDriverRun(ctx context.Context, o *mergeDriverOptions) error {
	var data [3][]byte
	for i, name := range []string{o.base, o.ours, o.theirs} {
		b, err := afero.ReadFile(a.fs, name)
		if err != nil {
			return fmt.Errorf("merging %s: %w", o.path, err)
		}
		data[i] = b
	}
	g := gitwork.Git{Env: a.env}
	rebase := false
	switch merge.KindOf(o.path) {
	case merge.Ledger, merge.Decisions, merge.Inbox:
		// A rebase replays this clone's commits onto the other branch's:
		// then %A is theirs and %B this clone's, the other way round.
		rebase = a.rebasing(ctx)
	}
	res, err := merge.File(merge.Options{
		Path: o.path, Now: a.now, Rebase: rebase,
		Prose: func(base, ours, theirs []byte) ([]byte, bool, error) { return g.MergeFile(ctx, base, ours, theirs) },
	}, data[0], data[1], data[2])
	if err != nil {
		return fmt.Errorf("merging %s: %w", o.path, err)
	}
	if err := store.WriteFile(a.fs, o.ours, res.Data, 0o644); err != nil {
		return fmt.Errorf("merging %s: %w", o.path, err)
	}
	a.noteMerged(ctx, o, res, data[1], data[2], rebase)
	for _, n := range res.Notes {
		fmt.Fprintf(a.errOut, "wake: merge: %s: %s\n", o.path, n)
	}
	if res.Conflict {
		fmt.Fprintf(a.errOut, "wake: merge: %s: both branches changed the same lines of your text; settle the conflict markers, then commit\n", o.path)
		return exitStatus(exitError)
	}
	return nil
}

// noteMerged leaves the memory root holding the merged file a note, so
// that the next wake command settles the merge (views rebuilt, one merge
// ledger line, the sessions that arrived named): git runs the driver from
// the repository's top, with the file's path relative to it. Best effort:
// without the note the merge stands, and only its settling waits.
func (a *app) noteMerged(ctx context.Context, o *mergeDriverOptions, res merge.Result, ours, theirs []byte, rebase bool) {
	abs := filepath.Join(a.cwd, filepath.FromSlash(o.path))
	root, err := tiers.FindRoot(a.fs, "", "", filepath.Dir(abs))
	if err != nil {
		return
	}
	rel, err := filepath.Rel(root, abs)
	if err != nil || !filepath.IsLocal(rel) {
		return
	}
	var arrived []store.Arrived
	var writers []string
	if merge.KindOf(o.path) == merge.Ledger {
		if rebase {
			ours, theirs = theirs, ours
		}
		arrived, writers = store.ArrivedHandoffs(ours, theirs), store.ArrivedWriters(ours, theirs)
	}
	s := &store.Store{FS: a.fs, Root: root, Now: a.now, Locker: a.locker}
	if s.Locker == nil {
		s.Locker = store.FileLocker{Timeout: wake.LockTimeout}
	}
	var reids []store.Reidentified
	for _, r := range res.Reidentified {
		reids = append(reids, store.Reidentified{Was: r.Was, Now: r.Now, What: r.What})
	}
	if err := s.NoteMergedFrom(ctx, filepath.ToSlash(rel), res.Data, arrived, writers, reids...); err != nil {
		fmt.Fprintf(a.errOut, "wake: merge: %s: the merge stands, but the note for its settling was not written: %v\n", o.path, err)
	}
}

// rebasing reports whether the repository the driver runs in is in the
// middle of a rebase: git keeps rebase-merge/ or rebase-apply/ in its
// directory meanwhile.
func (a *app) rebasing(ctx context.Context) bool {
	out, err := gitwork.Git{Env: a.env}.Run(ctx, a.cwd, "rev-parse", "--git-path", "rebase-merge", "--git-path", "rebase-apply")
	if err != nil {
		return false
	}
	for _, p := range strings.Fields(string(out)) {
		if !filepath.IsAbs(p) {
			p = filepath.Join(a.cwd, p)
		}
		if fi, err := a.fs.Stat(p); err == nil && fi.IsDir() {
			return true
		}
	}
	return false
}
