package wake

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/wakeproto/wake/capsule"
	"github.com/wakeproto/wake/store"
)

// PruneCapsules moves the capsules created more than olderThan ago to
// the archive: [Memory.PruneCapsulesWith] with an age only.
func (m *Memory) PruneCapsules(ctx context.Context, olderThan time.Duration, dryRun bool) (capsule.Pruned, error) {
	return m.PruneCapsulesWith(ctx, PruneOptions{OlderThan: olderThan, DryRun: dryRun})
}

// PruneOptions say which capsules [Memory.PruneCapsulesWith] moves: those
// older than OlderThan (0: none by age), and with Merged those of the
// branches merged into the default branch (Into, "" found from git).
type PruneOptions struct {
	OlderThan time.Duration
	Merged    bool
	Into      string
	DryRun    bool
}

// PruneCapsulesWith moves the capsules created more than o.OlderThan ago
// (by the time their names stamp) and, with o.Merged, every capsule of a
// branch `git branch --merged` lists as merged into the default branch
// (see [Memory.mergedBranches]) to cold/capsules/archive/<branch>/, under
// the root's lock with one ledger line (op capsule-prune); it never
// deletes, and it moves only files named as wake names capsules: anything
// else in a capsule directory stays where it is. A name the archive has
// already gets "-pruned-2", "-pruned-3". A dry run says what it would
// move. Nothing to move writes nothing.
func (m *Memory) PruneCapsulesWith(ctx context.Context, o PruneOptions) (capsule.Pruned, error) {
	p, err := m.pruneCapsules(ctx, o)
	p.Merged = mergedOf(p.Moves)
	return p, err
}

func (m *Memory) pruneCapsules(ctx context.Context, o PruneOptions) (capsule.Pruned, error) {
	now := m.o.Now().UTC()
	p := capsule.Pruned{DryRun: o.DryRun}
	if o.OlderThan > 0 {
		p.Before = now.Add(-o.OlderThan)
	}
	var merged map[string]string
	if o.Merged {
		var err error
		if p.Into, merged, err = m.mergedBranches(ctx, o.Into); err != nil {
			return p, fmt.Errorf("finding the branches merged into the default branch: %w", err)
		}
	}
	plan := func() ([]capsule.Move, error) {
		all, err := m.Capsules(ctx, "", false)
		if err != nil {
			return nil, err
		}
		var moves []capsule.Move
		taken := map[string]bool{}
		for _, c := range all {
			gone := merged[c.Branch]
			if gone == "" && (p.Before.IsZero() || !c.Created.Before(p.Before)) {
				continue
			}
			to := capsule.ArchivePathOf(c.ID)
			for k := 2; m.exists(to) || taken[to]; k++ {
				to = capsule.ArchivePathOf(fmt.Sprintf("%s-pruned-%d", c.ID, k))
			}
			taken[to] = true
			moves = append(moves, capsule.Move{ID: c.ID, From: c.Path, To: to, Created: c.Created, Merged: gone})
		}
		return moves, nil
	}
	moves, err := plan()
	if err != nil || o.DryRun || len(moves) == 0 {
		p.Moves = moves
		return p, err
	}
	s := m.Store()
	var failed error
	err = s.Mutate(ctx, func() (store.Entry, error) {
		// Again under the lock: another process may have pruned or
		// written since.
		if moves, err = plan(); err != nil {
			return store.Entry{}, err
		}
		if len(moves) == 0 {
			// Another prune moved them meanwhile: nothing to record.
			return store.Entry{}, errNothingPruned
		}
		var paths []string
		for i, mv := range moves {
			if err := s.MoveLocked(mv.From, mv.To); err != nil {
				if i == 0 {
					return store.Entry{}, err
				}
				// The moves made are recorded all the same.
				failed = fmt.Errorf("after moving %d capsule(s): %w", i, err)
				break
			}
			paths = append(paths, mv.From, mv.To)
			p.Moves = append(p.Moves, mv)
		}
		moves = p.Moves
		return store.Entry{At: now, Op: "capsule-prune", Paths: paths, ChangeSummary: pruneSummary(p, len(moves))}, nil
	})
	switch {
	case errors.Is(err, errNothingPruned):
		err = nil
	case err == nil:
		err = failed
	}
	return p, err
}

// errNothingPruned ends a prune's mutation without a ledger line: under
// the lock, nothing was left to move.
var errNothingPruned = errors.New("nothing to prune")

// pruneSummary is a prune's ledger line: how many capsules moved, and
// why.
func pruneSummary(p capsule.Pruned, n int) string {
	var why []string
	if !p.Before.IsZero() {
		why = append(why, "created before "+p.Before.Format(time.RFC3339))
	}
	if p.Into != "" {
		why = append(why, "of branches merged into "+p.Into)
	}
	return fmt.Sprintf("moved %d capsule(s) %s to %s", n, strings.Join(why, " or "), capsule.ArchiveDir)
}

// mergedOf are the merged branches whose capsules moves moves, in order,
// once each.
func mergedOf(moves []capsule.Move) []string {
	var out []string
	for _, mv := range moves {
		if mv.Merged != "" && !slices.Contains(out, mv.Merged) {
			out = append(out, mv.Merged)
		}
	}
	slices.Sort(out)
	return out
}

// ErrNoDefaultBranch is a prune of merged branches' capsules that found
// no default branch to judge them against.
var ErrNoDefaultBranch = errors.New("no default branch found (neither origin/HEAD, init.defaultBranch, main nor master)")

// defaultBranch is the branch the project merges into: into when given,
// else origin's HEAD, else init.defaultBranch, else main, else master,
// whichever names a branch; ref is what git resolves it by.
func (m *Memory) defaultBranch(ctx context.Context, into string) (name, ref string, err error) {
	exists := func(r string) bool {
		_, err := m.git(ctx, m.root, "rev-parse", "--verify", "-q", r+"^{commit}")
		return err == nil
	}
	if into != "" {
		if !exists(into) {
			return "", "", fmt.Errorf("branch %s: git knows no such branch", into)
		}
		return into, into, nil
	}
	if out, err := m.git(ctx, m.root, "symbolic-ref", "--short", "-q", "refs/remotes/origin/HEAD"); err == nil {
		r := strings.TrimSpace(string(out))
		if local := strings.TrimPrefix(r, "origin/"); local != r && exists("refs/heads/"+local) {
			return local, "refs/heads/" + local, nil
		}
		if r != "" && exists(r) {
			return r, r, nil
		}
	}
	var names []string
	if out, err := m.git(ctx, m.root, "config", "--get", "init.defaultBranch"); err == nil {
		names = append(names, strings.TrimSpace(string(out)))
	}
	for _, n := range append(names, "main", "master") {
		if n != "" && exists("refs/heads/"+n) {
			return n, "refs/heads/" + n, nil
		}
	}
	return "", "", ErrNoDefaultBranch
}

// mergedBranches are the local branches `git branch --merged` lists as
// merged into the default branch, by their capsule directories: not the
// default branch itself, not the current branch (its work goes on), and
// not a branch still at the default branch's own commit, which has
// nothing merged yet (a branch just made), however git counts it.
func (m *Memory) mergedBranches(ctx context.Context, into string) (string, map[string]string, error) {
	name, ref, err := m.defaultBranch(ctx, into)
	if err != nil {
		return "", nil, err
	}
	tip, err := m.git(ctx, m.root, "rev-parse", ref+"^{commit}")
	if err != nil {
		return "", nil, fmt.Errorf("git rev-parse %s: %w", ref, err)
	}
	out, err := m.git(ctx, m.root, "branch", "--merged", ref, "--format=%(refname:short) %(objectname)")
	if err != nil {
		return "", nil, fmt.Errorf("git branch --merged %s: %w", name, err)
	}
	current := m.Branch(ctx)
	merged := map[string]string{}
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		b, obj, ok := strings.Cut(strings.TrimSpace(l), " ")
		if !ok || b == name || b == current || obj == strings.TrimSpace(string(tip)) {
			continue
		}
		merged[capsule.BranchDir(b)] = b
	}
	return name, merged, nil
}
