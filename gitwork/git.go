// Package gitwork runs git for wake: the files a session changed in the
// work tree that holds the memory root, the branch and the commits, read
// only; git's three-way merge of text for the merge driver; and the one
// write, the driver's entry in a clone's local configuration. wake uses git itself, never a reimplementation of it, and every
// command it runs is bounded in time, takes no index lock and lets no
// repository configuration run a program.
package gitwork

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/store"
	"github.com/wakeproto/wake/tiers"
)

// Timeout bounds each git command; a slow git only costs the file list.
const Timeout = 10 * time.Second

// MaxFiles caps the files listed, so that a work tree full of untracked
// files cannot bloat the summary.
const MaxFiles = 200

// Git runs git with Env (the environment wake was given) added to the
// variables every run sets.
type Git struct {
	Env map[string]string
	// Unseen says that the directories it is given are on no disk git
	// could read: a memory on an in-memory filesystem. Run then starts no
	// git, whose answer is known, and fails as git does outside a work
	// tree (see [ErrUnseen]).
	Unseen bool
}

// ErrUnseen is Run's failure for an [Git.Unseen] directory: git's own
// words outside a work tree, which callers already tell apart (a hand-off
// then notes its root is outside git).
var ErrUnseen = errors.New("fatal: not a git repository (the directory is not on disk)")

// Found reports whether git is on PATH.
func Found() bool {
	_, err := exec.LookPath("git")
	return err == nil
}

// Run runs git in dir and returns its output. A failure is git's first
// line of error, made printable: it may quote a file name, and it goes
// into a session summary.
func (g Git) Run(ctx context.Context, dir string, args ...string) ([]byte, error) {
	if g.Unseen {
		return nil, ErrUnseen
	}
	ctx, cancel := context.WithTimeout(ctx, Timeout)
	defer cancel()
	// A memory root comes with its repository, and git takes the root
	// itself for a bare repository when it holds HEAD, objects/ and refs/,
	// whose config could then run a command (core.fsmonitor): only the
	// work tree's own repository is used, and no fsmonitor at all.
	safe := []string{"-c", "safe.bareRepository=explicit", "-c", "core.fsmonitor=false", "-C", dir}
	cmd := exec.CommandContext(ctx, "git", append(safe, args...)...)
	for k, v := range g.Env {
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
			return nil, errors.New(tiers.Printable(strings.ToValidUTF8(strings.SplitN(msg, "\n", 2)[0], "\uFFFD")))
		}
		return nil, err
	}
	return out, nil
}

// ChangesOptions say whose changes [Git.Changes] lists.
type ChangesOptions struct {
	Root string // the memory root
	// Dir is where the session works: the changes of the git work tree
	// holding it are listed. "" means Root's: they differ in a linked
	// worktree that shares the main checkout's memory.
	Dir string
	// TreeRoot is the memory root as the listed work tree holds it, when
	// that is not Root: a linked worktree's own copy of a committed .wake/
	// while the session uses the main checkout's. Its files are the
	// memory's all the same: held back by Withheld, left out by Owned.
	TreeRoot string
	Since    time.Time // the commits after it are listed too; zero: none
	// FS, when set, is looked through for a .git above the directory
	// before git is started (see [Git.Outside]).
	FS afero.Fs
	// Withheld reports whether the document at rel (slash-separated,
	// relative to Root) is held back by the sensitivity policy: even its
	// path is then left out.
	Withheld func(rel string) bool
	// Owned lists, relative to the work tree's top, what is wake's own
	// and not the session's work ("dir/" for a directory).
	Owned func(top string) []string
	// Own, when set, reports whether the file at rel (slash-separated,
	// relative to the work tree's top, top) is the session's own work, as its
	// transcript tells: the others (a command's, or another session's on
	// the same tree) are counted in the note, not listed.
	Own func(top, rel string) bool
}

// Changes lists, for "What changed (files)", the files committed since
// o.Since and the uncommitted changes of the git work tree holding
// o.Root, each with its status, and the names it had to quote. It never
// fails: when git is missing, fails, or the root is in no work tree, the
// list's note says so; outside reports the two cases where any other
// git command in that directory is known to fail too: no git, or a
// directory in no work tree.
func (g Git) Changes(ctx context.Context, o ChangesOptions) (l tiers.List, quoted []string, outside bool) {
	if !Found() {
		return tiers.List{Note: "git was not found, so no files were listed."}, nil, true
	}
	dir, where := o.Root, "the memory root is"
	if o.Dir != "" {
		dir, where = o.Dir, "the session's directory is"
	}
	outsideNote := tiers.List{Note: "Outside git: " + where + " not in a git work tree, so no files were listed."}
	if o.FS != nil && g.Outside(o.FS, dir) {
		return outsideNote, nil, true
	}
	out, err := g.Run(ctx, dir, "rev-parse", "--show-toplevel")
	if err != nil {
		if strings.Contains(err.Error(), "not a git repository") {
			return outsideNote, nil, true
		}
		return tiers.List{Note: fmt.Sprintf("git failed (%v), so no files were listed.", err)}, nil, false
	}
	top := strings.TrimSpace(string(out))
	files := map[string][]change{}
	var notes []string
	if o.Since.IsZero() {
		notes = append(notes, "No earlier hand-off: only uncommitted changes are listed.")
	} else if err := g.committed(ctx, top, o.Since, files); err != nil && !noCommitsYet(err) {
		// (A branch with no commit yet has no committed file to list.)
		notes = append(notes, fmt.Sprintf("git log failed (%v), so committed files are not listed.", err))
	}
	if err := g.uncommitted(ctx, top, files); err != nil {
		notes = append(notes, fmt.Sprintf("git status failed (%v), so uncommitted files are not listed.", err))
	}
	treeRoot := o.Root
	if o.TreeRoot != "" {
		treeRoot = o.TreeRoot
	}
	if n := holdBack(top, treeRoot, files, o.Withheld); n > 0 {
		notes = append(notes, fmt.Sprintf("%d changed file(s) in the memory root held back by the sensitivity policy, not listed.", n))
	}
	if o.Own != nil {
		others := 0
		for p, cs := range files {
			if !o.Own(top, p) && !slices.ContainsFunc(cs, func(c change) bool { return c.from != "" && o.Own(top, c.from) }) {
				delete(files, p)
				others++
			}
		}
		if others > 0 {
			notes = append(notes, fmt.Sprintf("%d more changed file(s) in the work tree that this session's edit tools did not touch (a command's, or another session's), not listed: `git status` shows them.", others))
		}
	}
	var owned []string
	if o.Owned != nil {
		owned = o.Owned(top)
	}
	l.Items, quoted = items(files, owned)
	if len(l.Items) == 0 && len(notes) == 0 {
		notes = append(notes, "No files changed in the git work tree since the last hand-off.")
	}
	if n := len(l.Items); n > MaxFiles {
		l.Items = l.Items[:MaxFiles]
		notes = append(notes, fmt.Sprintf("And %d more files, not listed.", n-MaxFiles))
	}
	l.Note = strings.Join(notes, "\n")
	return l, quoted, false
}

// committed adds the files of the commits since since, with the status
// of their newest change.
func (g Git) committed(ctx context.Context, top string, since time.Time, files map[string][]change) error {
	out, err := g.Run(ctx, top, "log", "--since="+since.UTC().Format(time.RFC3339), "--name-status", "--format=", "-z")
	if err != nil {
		return err
	}
	for p, c := range parseLog(out) {
		files[p] = append(files[p], c)
	}
	return nil
}

// uncommitted adds the work tree's uncommitted changes.
func (g Git) uncommitted(ctx context.Context, top string, files map[string][]change) error {
	out, err := g.Run(ctx, top, "status", "--porcelain=v1", "-z", "--untracked-files=all")
	if err != nil {
		return err
	}
	for p, c := range parseStatus(out) {
		files[p] = append(files[p], c)
	}
	return nil
}

// holdBack removes from files the documents of the memory root that the
// sensitivity policy holds back (secret or confidential: even a path can
// say too much), and returns how many it removed. The list is written
// into the session summary, which every later session reads.
func holdBack(top, root string, files map[string][]change, withheld func(string) bool) int {
	rel, ok := RootFromTop(top, root)
	if !ok || withheld == nil {
		return 0
	}
	n := 0
	for name := range files {
		inRoot, ok := name, true
		if rel != "." {
			inRoot, ok = strings.CutPrefix(name, rel+"/")
		}
		if ok && withheld(inRoot) {
			delete(files, name)
			n++
		}
	}
	return n
}

// change is one change git reports for a file.
type change struct {
	status byte   // git's status letter
	from   string // the source of a rename or copy
	where  string // "committed" or "uncommitted"
}

// parseLog reads `git log --name-status --format= -z`: NUL-separated
// status and path, two paths for a rename or copy. Each file gets the
// status of its newest change, but a file added in the window stays
// "added".
func parseLog(out []byte) map[string]change {
	seen := map[string]change{}
	toks := SplitNUL(out)
	for i := 0; i < len(toks); i++ {
		st := toks[i]
		if st == "" || i+1 >= len(toks) {
			continue
		}
		c := change{status: st[0], where: "committed"}
		p := toks[i+1]
		i++
		if (st[0] == 'R' || st[0] == 'C') && i+1 < len(toks) {
			c.from, p = p, toks[i+1]
			i++
		}
		// git log runs newest first: the first status met is the newest.
		if _, ok := seen[p]; !ok || st[0] == 'A' {
			seen[p] = c
		}
	}
	return seen
}

// parseStatus reads `git status --porcelain=v1 -z`: "XY PATH" entries,
// NUL-separated, a rename or copy followed by its source.
func parseStatus(out []byte) map[string]change {
	files := map[string]change{}
	toks := SplitNUL(out)
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if len(t) < 4 {
			continue
		}
		xy, p := t[:2], t[3:]
		c := change{status: xy[0], where: "uncommitted"}
		if c.status == ' ' {
			c.status = xy[1]
		}
		if (xy[0] == 'R' || xy[0] == 'C') && i+1 < len(toks) {
			c.from = toks[i+1]
			i++
		}
		files[p] = c
	}
	return files
}

// SplitNUL splits NUL-separated output (git's -z), without the
// empty string a final NUL would leave.
func SplitNUL(b []byte) []string {
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
	if c > ' ' && c < 0x7f {
		return "changed (" + string(c) + ")"
	}
	return "changed"
}

// shownName is a file name as the summary lists it: as it is, or quoted
// Go-style when it holds a control character (a newline would open a
// section; a tab, which git quotes too, reads as spaces) or invalid UTF-8,
// or starts with a quote, so that a quoted name always reads as one. quoted
// reports the first case, which deserves a warning.
func shownName(name string) (shown string, quoted bool) {
	if store.CheckText(name, false) != nil || strings.Contains(name, "\t") {
		return strconv.Quote(name), true
	}
	if strings.HasPrefix(name, `"`) {
		return strconv.Quote(name), false
	}
	return name, false
}

// RootFromTop is the memory root's path relative to the work tree's top,
// slash-separated ("." when it is the top); false when the root is not
// inside it.
func RootFromTop(top, root string) (string, bool) {
	if r, err := filepath.EvalSymlinks(root); err == nil {
		root = r
	}
	if t, err := filepath.EvalSymlinks(top); err == nil {
		top = t
	}
	rel, err := filepath.Rel(top, root)
	if err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// items renders the files not under skip as the summary lists them,
// sorted, and returns the names it had to quote.
func items(files map[string][]change, skip []string) (items, quoted []string) {
	name := func(n string) string {
		shown, q := shownName(n)
		if q {
			quoted = append(quoted, shown)
		}
		return shown
	}
next:
	for p, cs := range files {
		for _, s := range skip {
			if p == s || strings.HasSuffix(s, "/") && strings.HasPrefix(p, s) {
				continue next
			}
		}
		ds := make([]string, len(cs))
		for i, c := range cs {
			ds[i] = statusWord(c.status)
			if c.from != "" {
				ds[i] += " from " + name(c.from)
			}
			ds[i] += ", " + c.where
		}
		items = append(items, fmt.Sprintf("%s (%s)", name(p), strings.Join(ds, "; ")))
	}
	sort.Strings(items)
	sort.Strings(quoted)
	return items, slices.Compact(quoted)
}

// noCommitsYet reports whether git failed only because the branch has no
// commit yet: a new repository, which has nothing committed to list.
func noCommitsYet(err error) bool {
	return strings.Contains(err.Error(), "does not have any commits yet")
}
