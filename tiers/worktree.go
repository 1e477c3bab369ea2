package tiers

import (
	"bytes"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/pelletier/go-toml/v2"
	"github.com/spf13/afero"
)

// Worktree is the git work tree a directory lies in, as its .git entry
// says: read from the files, without running git, since every command
// finds its root.
type Worktree struct {
	Top    string // the work tree's top: the directory holding .git
	Linked bool   // a linked worktree (`git worktree add`): its .git is a file
	// Main is a linked worktree's main checkout: the directory holding the
	// repository's common .git directory; "" when it has none (a bare
	// repository's worktree) or it cannot be told.
	Main string
}

// Worktree settings ([git] worktrees in wake.toml): where a session in a
// linked worktree keeps its memory.
const (
	// WorktreesShared: the main checkout's memory root, shared by every
	// worktree of the repository (parallel sessions are told apart by
	// their session ids).
	WorktreesShared = "shared"
	// WorktreesSeparate: the worktree's own copy of a committed .wake/,
	// merged into the others by wake's merge driver when its branch is.
	WorktreesSeparate = "separate"
)

// worktreeAt reads dir/.git: a directory makes dir a main checkout's top,
// a file "gitdir: PATH" a linked worktree's; ok is false when dir has
// neither.
func worktreeAt(fs afero.Fs, dir string) (Worktree, bool) {
	p := filepath.Join(dir, ".git")
	fi, err := fs.Stat(p)
	if err != nil {
		return Worktree{}, false
	}
	if fi.IsDir() {
		return Worktree{Top: dir}, true
	}
	w := Worktree{Top: dir, Linked: true}
	data, err := ReadFileLimit(fs, p, 4<<10)
	if err != nil {
		return w, true
	}
	gitdir, ok := strings.CutPrefix(strings.TrimSpace(string(data)), "gitdir:")
	if !ok {
		return w, true
	}
	gitdir = absFrom(dir, strings.TrimSpace(gitdir))
	// A linked worktree's git directory is <common>/worktrees/<name> and
	// names the common one in its commondir file; a submodule's .git file
	// points into the superproject's modules/, with no commondir: a
	// repository of its own, not a worktree of the superproject.
	c, err := ReadFileLimit(fs, filepath.Join(gitdir, "commondir"), 4<<10)
	if err != nil || filepath.Base(filepath.Dir(gitdir)) != "worktrees" {
		return Worktree{Top: dir}, true
	}
	common := absFrom(gitdir, strings.TrimSpace(string(bytes.TrimSpace(c))))
	if filepath.Base(common) == ".git" {
		w.Main = filepath.Dir(common)
	}
	return w, true
}

// worktreesSetting reads [git] worktrees from root's wake.toml, "" when
// it is not set or the file cannot be read (loading the configuration
// reports that).
func worktreesSetting(fs afero.Fs, root string) string {
	data, err := ReadFileLimit(fs, filepath.Join(root, ConfigPath), 1<<20)
	if err != nil {
		return ""
	}
	var c struct {
		Git struct {
			Worktrees string `toml:"worktrees"`
		} `toml:"git"`
	}
	if toml.Unmarshal(data, &c) != nil {
		return ""
	}
	return c.Git.Worktrees
}

// ReadFileLimit reads name, a regular file of at most limit bytes,
// without waiting on it (see [OpenInput]): a named pipe or a device where
// a .git file or a configuration should be is an error, never a stall.
func ReadFileLimit(fs afero.Fs, name string, limit int64) ([]byte, error) {
	f, fi, err := OpenInput(fs, name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi.Size() > limit {
		return nil, fmt.Errorf("%s: over %d bytes", name, limit)
	}
	return io.ReadAll(io.LimitReader(f, limit))
}

// FindWorktree is the git work tree dir lies in, found by walking up to
// the nearest .git; ok is false outside any.
func FindWorktree(fs afero.Fs, dir string) (Worktree, bool) {
	for dir = filepath.Clean(dir); ; {
		if w, ok := worktreeAt(fs, dir); ok {
			return w, true
		}
		up := filepath.Dir(dir)
		if up == dir {
			return Worktree{}, false
		}
		dir = up
	}
}
