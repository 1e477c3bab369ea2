package gitwork

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/wakeproto/wake/tiers"
)

// Branch is a branch in flight, for skill.md's Active Work (seed 001:
// "Branches in flight (name, status, what's in them)").
type Branch struct {
	Name    string
	Current bool
	// Base is the default branch it is compared with; Ahead and Behind
	// count its commits not in Base and Base's not in it (-1 when not
	// counted).
	Base          string
	Ahead, Behind int
	// Upstream is its upstream's track, as git says it ("ahead 2",
	// "gone"); "" when in step or without one.
	Upstream string
	// Last is its newest commit: its day and subject, what is in it.
	LastDate time.Time
	Last     string
}

// MaxBranches caps the branches listed: the most recently committed to.
const MaxBranches = 5

// Branches lists the local branches of dir's repository not merged into
// its default branch (origin's HEAD, else main, else master), newest
// commit first, at most MaxBranches, with how far each is ahead of and
// behind the default branch. Without a default branch, every branch but
// the current one's base is listed without counts. Errors (no git, not a
// work tree) give none.
func (g Git) Branches(ctx context.Context, dir string) []Branch {
	out, err := g.Run(ctx, dir, "for-each-ref", "--format=%(refname)%00%(symref:short)", "refs/heads", "refs/remotes/origin/HEAD")
	if err != nil {
		return nil
	}
	heads := map[string]bool{}
	base := ""
	for _, l := range strings.Split(string(out), "\n") {
		ref, sym, _ := strings.Cut(l, "\x00")
		switch {
		case ref == "refs/remotes/origin/HEAD":
			base = sym
		case strings.HasPrefix(ref, "refs/heads/"):
			heads[strings.TrimPrefix(ref, "refs/heads/")] = true
		}
	}
	base = strings.TrimPrefix(base, "origin/")
	for _, b := range []string{"main", "master"} {
		if heads[base] {
			break
		}
		base = b
	}
	if !heads[base] {
		base = ""
	}
	args := []string{"for-each-ref", "--sort=-committerdate", "--format=%(HEAD)%00%(refname:short)%00%(upstream:track,nobracket)%00%(committerdate:iso-strict)%00%(subject)"}
	if base != "" {
		args = append(args, "--no-merged="+base)
	}
	if out, err = g.Run(ctx, dir, append(args, "refs/heads")...); err != nil {
		return nil
	}
	var bs []Branch
	for _, l := range strings.Split(strings.TrimRight(string(out), "\n"), "\n") {
		f := strings.Split(l, "\x00")
		if len(f) != 5 || f[1] == base {
			continue
		}
		b := Branch{Name: tiers.ShortLine(f[1]), Current: f[0] == "*", Base: base, Ahead: -1, Behind: -1,
			Upstream: tiers.ShortLine(f[2]), Last: tiers.ShortLine(f[4])}
		b.LastDate, _ = time.Parse(time.RFC3339, f[3])
		if base != "" {
			b.Ahead, b.Behind = g.aheadBehind(ctx, dir, base, f[1])
		}
		bs = append(bs, b)
		if len(bs) == MaxBranches {
			break
		}
	}
	return bs
}

// aheadBehind counts branch's commits not in base, and base's not in
// branch; -1, -1 when git cannot say.
func (g Git) aheadBehind(ctx context.Context, dir, base, branch string) (int, int) {
	out, err := g.Run(ctx, dir, "rev-list", "--left-right", "--count", "refs/heads/"+base+"...refs/heads/"+branch, "--")
	if err != nil {
		return -1, -1
	}
	f := strings.Fields(string(out))
	if len(f) != 2 {
		return -1, -1
	}
	behind, err1 := strconv.Atoi(f[0])
	ahead, err2 := strconv.Atoi(f[1])
	if err1 != nil || err2 != nil {
		return -1, -1
	}
	return ahead, behind
}

// Status is the branch's status as one line: how far from its base, its
// upstream's track.
func (b Branch) Status() string {
	var parts []string
	if b.Ahead >= 0 {
		parts = append(parts, strconv.Itoa(b.Ahead)+" ahead of "+b.Base+", "+strconv.Itoa(b.Behind)+" behind")
	}
	if b.Upstream != "" {
		parts = append(parts, "upstream "+b.Upstream)
	}
	if len(parts) == 0 {
		return "unmerged"
	}
	return strings.Join(parts, "; ")
}
