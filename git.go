package wake

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/wakeproto/wake/handoff"
	"github.com/wakeproto/wake/policy"
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
func (m *Memory) gitChanges(ctx context.Context, since time.Time) tiers.List {
	root := m.root
	if _, err := exec.LookPath("git"); err != nil {
		return tiers.List{Note: "git was not found, so no files were listed."}
	}
	out, err := m.git(ctx, root, "rev-parse", "--show-toplevel")
	if err != nil {
		if strings.Contains(err.Error(), "not a git repository") {
			return tiers.List{Note: "Outside git: the memory root is not in a git work tree, so no files were listed."}
		}
		return tiers.List{Note: fmt.Sprintf("git failed (%v), so no files were listed.", err)}
	}
	top := strings.TrimSpace(string(out))
	files := map[string][]gitChange{}
	var notes []string
	if since.IsZero() {
		notes = append(notes, "No earlier hand-off: only uncommitted changes are listed.")
	} else if err := m.gitCommitted(ctx, top, since, files); err != nil {
		notes = append(notes, fmt.Sprintf("git log failed (%v), so committed files are not listed.", err))
	}
	if err := m.gitUncommitted(ctx, top, files); err != nil {
		notes = append(notes, fmt.Sprintf("git status failed (%v), so uncommitted files are not listed.", err))
	}
	if n := m.holdBackChanges(top, root, files); n > 0 {
		notes = append(notes, fmt.Sprintf("%d changed file(s) in the memory root held back by the sensitivity policy, not listed.", n))
	}
	items, quoted := gitItems(files, m.wakeOwned(top))
	m.warnQuoted(quoted)
	l := tiers.List{Items: items}
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

// gitMaxWarnings caps the warnings about quoted file names.
const gitMaxWarnings = 10

// warnQuoted names, quoted, the files whose names wake could not list as
// they are.
func (m *Memory) warnQuoted(quoted []string) {
	for i, q := range quoted {
		if i == gitMaxWarnings {
			m.warn(fmt.Sprintf("and %d more such git file names, listed quoted", len(quoted)-i))
			return
		}
		m.warn(fmt.Sprintf("git file name %s holds a control character or invalid UTF-8; What changed (files) lists it quoted", q))
	}
}

func (m *Memory) git(ctx context.Context, dir string, args ...string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, gitTimeout)
	defer cancel()
	// A memory root comes with its repository, and git takes the root
	// itself for a bare repository when it holds HEAD, objects/ and refs/,
	// whose config could then run a command (core.fsmonitor): only the
	// work tree's own repository is used, and no fsmonitor at all.
	safe := []string{"-c", "safe.bareRepository=explicit", "-c", "core.fsmonitor=false", "-C", dir}
	cmd := exec.CommandContext(ctx, "git", append(safe, args...)...)
	for k, v := range m.o.Env {
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
			// The message may quote a file name: it goes into the summary.
			return nil, errors.New(tiers.Printable(strings.ToValidUTF8(strings.SplitN(msg, "\n", 2)[0], "\uFFFD")))
		}
		return nil, err
	}
	return out, nil
}

// gitChange is one change git reports for a file.
type gitChange struct {
	status byte   // git's status letter
	from   string // the source of a rename or copy
	where  string // "committed" or "uncommitted"
}

// gitCommitted adds the files of the commits since since, with the status
// of their newest change.
func (m *Memory) gitCommitted(ctx context.Context, top string, since time.Time, files map[string][]gitChange) error {
	out, err := m.git(ctx, top, "log", "--since="+since.UTC().Format(time.RFC3339), "--name-status", "--format=", "-z")
	if err != nil {
		return err
	}
	for p, c := range parseGitLog(out) {
		files[p] = append(files[p], c)
	}
	return nil
}

// parseGitLog reads `git log --name-status --format= -z`: NUL-separated
// status and path, two paths for a rename or copy. Each file gets the
// status of its newest change, but a file added in the window stays
// "added".
func parseGitLog(out []byte) map[string]gitChange {
	seen := map[string]gitChange{}
	toks := splitNUL(out)
	for i := 0; i < len(toks); i++ {
		st := toks[i]
		if st == "" || i+1 >= len(toks) {
			continue
		}
		c := gitChange{status: st[0], where: "committed"}
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

// gitUncommitted adds the work tree's uncommitted changes.
func (m *Memory) gitUncommitted(ctx context.Context, top string, files map[string][]gitChange) error {
	out, err := m.git(ctx, top, "status", "--porcelain=v1", "-z", "--untracked-files=all")
	if err != nil {
		return err
	}
	for p, c := range parseGitStatus(out) {
		files[p] = append(files[p], c)
	}
	return nil
}

// parseGitStatus reads `git status --porcelain=v1 -z`: "XY PATH" entries,
// NUL-separated, a rename or copy followed by its source.
func parseGitStatus(out []byte) map[string]gitChange {
	files := map[string]gitChange{}
	toks := splitNUL(out)
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if len(t) < 4 {
			continue
		}
		xy, p := t[:2], t[3:]
		c := gitChange{status: xy[0], where: "uncommitted"}
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
	if c > ' ' && c < 0x7f {
		return "changed (" + string(c) + ")"
	}
	return "changed"
}

// gitName is a file name as the summary lists it: as it is, or quoted
// Go-style when it holds a control character (a newline would open a
// section; a tab, which git quotes too, reads as spaces) or invalid UTF-8,
// or starts with a quote, so that a quoted name always reads as one. quoted
// reports the first case, which deserves a warning.
func gitName(name string) (shown string, quoted bool) {
	if handoff.CheckText(name, false) != nil || strings.Contains(name, "\t") {
		return strconv.Quote(name), true
	}
	if strings.HasPrefix(name, `"`) {
		return strconv.Quote(name), false
	}
	return name, false
}

// wakeOwned returns the prefixes, relative to the work tree, of what wake
// itself rewrites in the memory root: listing them would only echo the
// previous hand-off.
// holdBackChanges removes from files the documents of the memory root
// that the sensitivity policy holds back (secret or confidential: even a
// path can say too much), and returns how many it removed. The list is
// written into the session summary, which every later session reads.
func (m *Memory) holdBackChanges(top, root string, files map[string][]gitChange) int {
	rel, ok := rootFromTop(top, root)
	if !ok {
		return 0
	}
	n := 0
	for name := range files {
		inRoot, ok := name, true
		if rel != "." {
			inRoot, ok = strings.CutPrefix(name, rel+"/")
		}
		if !ok {
			continue
		}
		if policy.Withheld(policy.OfPath(m.o.FS, root, inRoot)) {
			delete(files, name)
			n++
		}
	}
	return n
}

// rootFromTop is the memory root's path relative to the work tree's top,
// slash-separated ("." when it is the top); false when the root is not
// inside it.
func rootFromTop(top, root string) (string, bool) {
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

// wakeOwned lists, relative to the work tree's top, what the session's
// list of changed files leaves out as not the session's work: the memory
// root whole when it lies below the top (what changed there is wake's
// memory, which the summary itself is about), or wake's own files in it
// when the root is the top; and the files outside the root that wake
// wrote, as the ledger names them (the settings and imports of an
// install), unless they changed after wake's last write of them. A
// directory ends in "/".
func (m *Memory) wakeOwned(top string) []string {
	rel, ok := rootFromTop(top, m.root)
	if !ok {
		return nil
	}
	var out []string
	if rel != "." {
		out = append(out, rel+"/")
	} else {
		for _, p := range []string{tiers.StateDir + "/", tiers.LedgerPath, handoff.SubagentsPath, tiers.BootPath, tiers.RootSkillPath, tiers.RecentDir + "/", tiers.SessionsDir + "/"} {
			out = append(out, p)
		}
	}
	realTop := top
	if t, err := filepath.EvalSymlinks(top); err == nil {
		realTop = t
	}
	// The ledger keeps times to the second: a file modified within the
	// second after wake's write is still taken for wake's.
	last := map[string]handoff.Entry{}
	entries, _, _ := handoff.ReadLedger(m.o.FS, m.root)
	for _, e := range entries {
		for _, p := range e.Paths {
			if abs := filepath.FromSlash(p); filepath.IsAbs(abs) && !e.At.Before(last[abs].At) {
				last[abs] = e
			}
		}
	}
	for abs, e := range last {
		fi, err := m.o.FS.Stat(abs)
		switch {
		case errors.Is(err, fs.ErrNotExist) && e.Op != "uninstall":
			continue // deleted since wake wrote it: the session's work
		case err == nil && fi.ModTime().After(e.At.Add(time.Second)):
			continue // changed since wake wrote it: the session's work
		}
		if r, err := filepath.EvalSymlinks(abs); err == nil {
			abs = r
		}
		if r, err := filepath.Rel(realTop, abs); err == nil && filepath.IsLocal(r) {
			out = append(out, filepath.ToSlash(r))
		}
	}
	return out
}

// gitItems renders the files not under skip as the summary lists them,
// sorted, and returns the names it had to quote.
func gitItems(files map[string][]gitChange, skip []string) (items, quoted []string) {
	name := func(n string) string {
		shown, q := gitName(n)
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
