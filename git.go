package wake

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"time"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/gitwork"
	"github.com/wakeproto/wake/internal/fsrecord"
	"github.com/wakeproto/wake/policy"
	"github.com/wakeproto/wake/store"
	"github.com/wakeproto/wake/tiers"
)

// gitChanges lists, for "What changed (files)", the files committed since
// since (none when since is zero) and the uncommitted changes of the git
// work tree holding the root, less the memory's own files and what the
// policy holds back (see [gitwork.Git.Changes]). It never fails.
func (m *Memory) gitChanges(ctx context.Context, since time.Time, own func(top, rel string) bool) tiers.List {
	l, _ := m.gitChangesOfRoot(ctx, since, own)
	return l
}

// gitChangesOfRoot is [Memory.gitChanges], and whether git is known to
// fail for the root itself (no git, or a root in no work tree), so that
// the caller need not start it again to be told so.
func (m *Memory) gitChangesOfRoot(ctx context.Context, since time.Time, own func(top, rel string) bool) (l tiers.List, rootOutside bool) {
	dir, treeRoot := m.sessionDir()
	owned := func(top string) []string { return m.wakeOwned(top, treeRoot) }
	l, quoted, outside := m.gitw().Changes(ctx, gitwork.ChangesOptions{
		Root: m.root, Dir: dir, TreeRoot: treeRoot, Since: since, Owned: owned, Own: own, FS: unrecorded(m.o.FS),
		Withheld: func(rel string) bool { return policy.Withheld(policy.OfPath(m.o.FS, m.root, rel)) },
	})
	m.warnQuoted(quoted)
	// Looked at from a linked worktree, the root is in its main checkout:
	// what was found there says nothing of the root.
	return l, outside && dir == ""
}

// sessionDir is where the session's changes are looked for when that is
// not the root's work tree: a linked worktree (`git worktree add`) whose
// main checkout holds the memory root, shared by the worktree's sessions;
// "" otherwise, the root's own work tree. treeRoot is where that worktree
// holds the root's path (its own copy of a committed .wake/, or nothing),
// so that its memory files are not listed as the session's work either.
func (m *Memory) sessionDir() (dir, treeRoot string) {
	if m.o.WorkDir == "" {
		return "", ""
	}
	wt, ok := tiers.FindWorktree(m.o.FS, m.o.WorkDir)
	if !ok || !wt.Linked || wt.Main == "" {
		return "", ""
	}
	rel, err := filepath.Rel(wt.Main, m.root)
	if err != nil || !filepath.IsLocal(rel) {
		return "", ""
	}
	return m.o.WorkDir, filepath.Join(wt.Top, rel)
}

// gitw is git as the library runs it, with the environment it was given.
// A memory on an in-memory filesystem (afero.MemMapFs) is in no work tree
// git could see, only at paths that may name something else on disk: git
// is not started for it (each start is a process, about 10 ms of CPU; the
// in-memory tests of the library started a thousand to be told "cannot
// change to /p").
func (m *Memory) gitw() gitwork.Git {
	_, inMemory := m.o.FS.(*afero.MemMapFs)
	return gitwork.Git{Env: m.o.Env, Unseen: inMemory}
}

// branches are the project's branches in flight, for skill.md's Active
// Work: read by git in the session's work tree, else the directory
// holding the root (.wake's project), else the root; none without git.
func (m *Memory) branches() []gitwork.Branch {
	if !gitwork.Found() {
		return nil
	}
	dir := m.o.WorkDir
	if dir == "" {
		dir = m.root
		if filepath.Base(m.root) == tiers.DefaultDirName {
			dir = filepath.Dir(m.root)
		}
	}
	if _, err := m.o.FS.Stat(dir); err != nil || m.gitw().Outside(unrecorded(m.o.FS), dir) {
		return nil
	}
	return m.gitw().Branches(context.Background(), dir)
}

// unrecorded is fsys without a start's recording (see [Memory.recordRun]):
// the .git entries looked for in place of asking git are no more part of a
// start cache's key than git's answer was.
func unrecorded(fsys afero.Fs) afero.Fs {
	if r, ok := fsys.(*fsrecord.FS); ok {
		return r.Fs
	}
	return fsys
}

// git runs git in dir (see [gitwork.Git.Run]).
func (m *Memory) git(ctx context.Context, dir string, args ...string) ([]byte, error) {
	return m.gitw().Run(ctx, dir, args...)
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

// wakeOwned lists, relative to the work tree's top, what the session's
// list of changed files leaves out as not the session's work: the memory
// root whole when it lies below the top (what changed there is wake's
// memory, which the summary itself is about), or wake's own files in it
// when the root is the top; and the files outside the root that wake
// wrote, as the ledger names them (the settings and imports of an
// install), unless they changed after wake's last write of them. A
// directory ends in "/".
func (m *Memory) wakeOwned(top, treeRoot string) []string {
	root := m.root
	if treeRoot != "" {
		root = treeRoot
	}
	rel, ok := gitwork.RootFromTop(top, root)
	if !ok {
		return nil
	}
	var out []string
	if rel != "." {
		out = append(out, rel+"/")
	} else {
		for _, p := range []string{tiers.StateDir + "/", tiers.LedgerPath, store.SubagentsPath, tiers.BootPath, tiers.RootSkillPath, tiers.RecentDir + "/", tiers.SessionsDir + "/"} {
			out = append(out, p)
		}
	}
	realTop := top
	if t, err := filepath.EvalSymlinks(top); err == nil {
		realTop = t
	}
	// The ledger keeps times to the second: a file modified within the
	// second after wake's write is still taken for wake's.
	// Only the ledger's lines appended since the last hand-off are read
	// ([store.OutsideWrites]).
	for p, e := range store.OutsideWrites(m.o.FS, m.root) {
		abs, ok := store.OutsidePath(m.root, m.home(), p)
		if !ok {
			continue
		}
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
