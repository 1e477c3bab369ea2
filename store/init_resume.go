package store

import (
	"bytes"
	"fmt"
	"path"
	"path/filepath"
	"strings"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/skeleton"
	"github.com/wakeproto/wake/tiers"
)

// opInit is the ledger op of wake init.
const opInit = "init"

// initSummaryPrefix begins the change summary of every init ledger line.
const initSummaryPrefix = "first wake: created "

// settleSkeletonFile handles a skeleton file Init found existing. One of
// zero bytes is what an init killed before link-based creation (or on a
// file system without links) left: it is written whole, atomically, and
// counted as created. One holding exactly the skeleton that no init line
// of the ledger names was created by an init killed before its ledger
// line: it is counted as created so that this line records it. Anything
// else is the user's and is left alone.
func (s *Store) settleSkeletonFile(f skeleton.File, logged map[string]bool) (created bool, err error) {
	name := s.Path(f.Path)
	fi, err := lstat(s.FS, name)
	if err != nil || !fi.Mode().IsRegular() {
		return false, nil
	}
	if fi.Size() == 0 {
		if err := WriteFileIn(s.FS, s.Root, f.Path, f.Data, 0o644); err != nil {
			return false, fmt.Errorf("repairing the empty %s: %w", f.Path, err)
		}
		return true, nil
	}
	if logged[f.Path] || fi.Size() != int64(len(f.Data)) {
		return false, nil
	}
	data, err := afero.ReadFile(s.FS, name)
	return err == nil && bytes.Equal(data, f.Data), nil
}

// initLogged returns the paths the ledger's init lines name; an
// unreadable ledger names none.
func initLogged(fsys afero.Fs, root string) map[string]bool {
	out := map[string]bool{}
	entries, _, err := ReadLedger(fsys, root)
	if err != nil {
		return out
	}
	for _, e := range entries {
		if e.Op == opInit {
			for _, p := range e.Paths {
				out[p] = true
			}
		}
	}
	return out
}

// InitLeftovers reports whether root holds nothing but what a wake init
// with p, interrupted, leaves: the skeleton's directories, its files
// empty or exactly as p renders them, init lines in the ledger, the state
// directory, and temporary files. Such a root is
// wake's own making, as an empty directory is, and an init finishing it
// may record it as trusted; a root holding anything else (a cloned
// repository's) is not.
func InitLeftovers(fsys afero.Fs, root string, p skeleton.Params) bool {
	files, err := skeleton.Files(p)
	if err != nil {
		return false
	}
	want := map[string][]byte{}
	for _, f := range files {
		want[f.Path] = f.Data
		for d := path.Dir(f.Path); d != "."; d = path.Dir(d) {
			want[d+"/"] = nil
		}
	}
	for _, d := range append(skeleton.Dirs(), tiers.StateDir) {
		want[d+"/"] = nil
	}
	return leftoverDir(fsys, root, "", want) && initOnlyLedger(fsys, root)
}

// leftoverDir checks the directory rel (""for the root itself) against
// want, recursively.
func leftoverDir(fsys afero.Fs, root, rel string, want map[string][]byte) bool {
	for _, name := range dirNames(fsys, filepath.Join(root, filepath.FromSlash(rel))) {
		p := rel + name
		fi, err := lstat(fsys, filepath.Join(root, filepath.FromSlash(p)))
		switch {
		case err != nil:
			return false
		case fi.IsDir() && p == tiers.StateDir:
			// wake's own state, which a load run since may have filled;
			// its .gitignore keeps it out of any clone.
		case fi.IsDir():
			if _, ok := want[p+"/"]; !ok || !leftoverDir(fsys, root, p+"/", want) {
				return false
			}
		case !fi.Mode().IsRegular():
			return false
		case isTempName(name), p == tiers.LedgerPath:
		default:
			data, ok := want[p]
			if !ok || data == nil || fi.Size() != 0 && !sameContent(fsys, root, p, data) {
				return false
			}
		}
	}
	return true
}

func sameContent(fsys afero.Fs, root, rel string, want []byte) bool {
	got, err := afero.ReadFile(fsys, filepath.Join(root, filepath.FromSlash(rel)))
	return err == nil && bytes.Equal(got, want)
}

// initOnlyLedger reports whether the ledger is missing or holds only
// wake init's lines, but for one torn by a kill.
func initOnlyLedger(fsys afero.Fs, root string) bool {
	entries, bad, err := ReadLedger(fsys, root)
	// One unreadable line is an append the kill tore.
	if err != nil || len(bad) > 1 {
		return false
	}
	for _, e := range entries {
		if e.Op != opInit || !strings.HasPrefix(e.ChangeSummary, initSummaryPrefix) {
			return false
		}
	}
	return true
}
