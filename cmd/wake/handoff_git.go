package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/wakeproto/wake/tiers"
)

// gitTimeout bounds each git command; a slow git only costs the file list.
const gitTimeout = 10 * time.Second

// gitMaxFiles caps the files listed, so that a work tree full of untracked
// files cannot bloat the summary.
const gitMaxFiles = 200

// gitChanges lists, for "What changed (files)", the files committed since
// since (none when since is zero) and the uncommitted changes of the git work
// tree holding root, each with its status. It never fails: when git is
// missing, fails, or root is not in a work tree, the note says so.
func (a *app) gitChanges(ctx context.Context, root string, since time.Time) tiers.List {
	if _, err := exec.LookPath("git"); err != nil {
		return tiers.List{Note: "git was not found, so no files were listed."}
	}
	out, err := a.git(ctx, root, "rev-parse", "--show-toplevel")
	if err != nil {
		if strings.Contains(err.Error(), "not a git repository") {
			return tiers.List{Note: "Outside git: the memory root is not in a git work tree, so no files were listed."}
		}
		return tiers.List{Note: fmt.Sprintf("git failed (%v), so no files were listed.", err)}
	}
	top := strings.TrimSpace(string(out))
	files := map[string][]string{}
	var notes []string
	if since.IsZero() {
		notes = append(notes, "No earlier hand-off: only uncommitted changes are listed.")
	} else if err := a.gitCommitted(ctx, top, since, files); err != nil {
		notes = append(notes, fmt.Sprintf("git log failed (%v), so committed files are not listed.", err))
	}
	if err := a.gitUncommitted(ctx, top, files); err != nil {
		notes = append(notes, fmt.Sprintf("git status failed (%v), so uncommitted files are not listed.", err))
	}
	l := tiers.List{Items: gitItems(files, wakeOwned(top, root))}
	if len(l.Items) == 0 && len(notes) == 0 {
		notes = append(notes, "No files changed in the git work tree since the last hand-off.")
	}
	if n := len(l.Items); n > gitMaxFiles {
		l.Items = l.Items[:gitMaxFiles]
		notes = append(notes, fmt.Sprintf("And %d more files, not listed.", n-gitMaxFiles))
	}
	l.Note = strings.Join(notes, "\n")
	return l
}

func (a *app) git(ctx context.Context, dir string, args ...string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, gitTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", dir}, args...)...)
	for k, v := range a.env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	// Reading must not take git's index lock, and messages must be
	// recognisable whatever the user's language.
	cmd.Env = append(cmd.Env, "GIT_OPTIONAL_LOCKS=0", "LC_ALL=C")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			return nil, errors.New(strings.SplitN(msg, "\n", 2)[0])
		}
		return nil, err
	}
	return out, nil
}

// gitCommitted adds the files of the commits since since, with the status
// of their newest change; a file added in the window stays "added".
func (a *app) gitCommitted(ctx context.Context, top string, since time.Time, files map[string][]string) error {
	out, err := a.git(ctx, top, "log", "--since="+since.UTC().Format(time.RFC3339), "--name-status", "--format=", "-z")
	if err != nil {
		return err
	}
	seen := map[string]string{}
	toks := splitNUL(out)
	for i := 0; i < len(toks); i++ {
		st := toks[i]
		if st == "" || i+1 >= len(toks) {
			continue
		}
		p, desc := toks[i+1], statusWord(st[0])
		i++
		if (st[0] == 'R' || st[0] == 'C') && i+1 < len(toks) {
			desc = fmt.Sprintf("%s from %s", desc, p)
			p = toks[i+1]
			i++
		}
		// git log runs newest first: the first status met is the newest.
		if _, ok := seen[p]; !ok || st[0] == 'A' {
			seen[p] = desc
		}
	}
	for p, d := range seen {
		files[p] = append(files[p], d+", committed")
	}
	return nil
}

// gitUncommitted adds the work tree's uncommitted changes.
func (a *app) gitUncommitted(ctx context.Context, top string, files map[string][]string) error {
	out, err := a.git(ctx, top, "status", "--porcelain=v1", "-z", "--untracked-files=all")
	if err != nil {
		return err
	}
	toks := splitNUL(out)
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if len(t) < 4 {
			continue
		}
		xy, p := t[:2], t[3:]
		c := xy[0]
		if c == ' ' {
			c = xy[1]
		}
		desc := statusWord(c)
		if (xy[0] == 'R' || xy[0] == 'C') && i+1 < len(toks) {
			desc = fmt.Sprintf("%s from %s", desc, toks[i+1])
			i++
		}
		files[p] = append(files[p], desc+", uncommitted")
	}
	return nil
}

func splitNUL(b []byte) []string {
	s := strings.TrimRight(string(b), "\x00")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\x00")
}

func statusWord(c byte) string {
	switch c {
	case 'A':
		return "added"
	case 'M':
		return "modified"
	case 'D':
		return "deleted"
	case 'R':
		return "renamed"
	case 'C':
		return "copied"
	case 'T':
		return "type changed"
	case 'U':
		return "unmerged"
	case '?':
		return "untracked"
	}
	return "changed (" + string(c) + ")"
}

// wakeOwned returns the prefixes, relative to the work tree, of what wake
// itself rewrites in the memory root: listing them would only echo the
// previous hand-off.
func wakeOwned(top, root string) []string {
	if r, err := filepath.EvalSymlinks(root); err == nil {
		root = r
	}
	if t, err := filepath.EvalSymlinks(top); err == nil {
		top = t
	}
	rel, err := filepath.Rel(top, root)
	if err != nil || strings.HasPrefix(rel, "..") {
		return nil
	}
	rel = filepath.ToSlash(rel)
	var out []string
	for _, p := range []string{tiers.StateDir + "/", tiers.LedgerPath, tiers.BootPath, tiers.RecentDir + "/", tiers.SessionsDir + "/"} {
		out = append(out, path.Join(rel, p)+map[bool]string{true: "/"}[strings.HasSuffix(p, "/")])
	}
	return out
}

func gitItems(files map[string][]string, skip []string) []string {
	var out []string
next:
	for p, ds := range files {
		for _, s := range skip {
			if p == s || strings.HasSuffix(s, "/") && strings.HasPrefix(p, s) {
				continue next
			}
		}
		out = append(out, fmt.Sprintf("%s (%s)", p, strings.Join(ds, "; ")))
	}
	sort.Strings(out)
	return out
}
