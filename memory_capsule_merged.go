package wake

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/wakeproto/wake/capsule"
)

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
