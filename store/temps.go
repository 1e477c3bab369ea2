package store

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/tiers"
)

// StaleTempAge is how old a temporary file of [WriteFile] must be before
// [Recover] removes it. A write takes milliseconds; one this old was
// interrupted by a crash, and no writer running now can still own it.
const StaleTempAge = 10 * time.Minute

// tempDirs are the directories, relative to the root, whose files wake
// writes atomically, and so where a crash can leave a temporary file: every
// directory wake writes in but the rest of cold/ (the user's, where a
// capsule's next write sweeps its own) and the journal directories of
// hand-offs in progress, which [TempDirs] adds. cold/sessions/ holds the
// session records and cold/archive/ the archives of wake compact.
var tempDirs = []string{".", tiers.StateDir, tiers.StateDir + "/" + SeenDir, tiers.StateDir + "/" + CreatesDir,
	tiers.StateDir + "/" + JournalDir, tiers.RecentDir, tiers.WarmDir, tiers.SessionsDir, ArchiveDir}

// TempDirs lists the directories, relative to the root, whose stale
// temporary files [Recover] sweeps.
func TempDirs(fsys afero.Fs, root string) []string {
	dirs := slices.Clone(tempDirs)
	if CheckDir(fsys, root, tiers.StateDir+"/"+JournalDir) != nil {
		return dirs
	}
	for _, name := range dirNames(fsys, filepath.Join(root, tiers.StateDir, JournalDir)) {
		dirs = append(dirs, tiers.StateDir+"/"+JournalDir+"/"+name)
	}
	return dirs
}

// removeStaleTemps removes, best effort, the temporary files [WriteFile]
// left in the root's directories that are older than [StaleTempAge] at now.
// Only names of the form ".NAME.tmp-HEX" that are regular files are
// touched: nothing else is wake's to delete.
func removeStaleTemps(fsys afero.Fs, root string, now time.Time) []string {
	var removed []string
	for _, rel := range TempDirs(fsys, root) {
		if CheckDir(fsys, root, rel) != nil {
			continue // a directory linked elsewhere holds no temporary file of wake's
		}
		dir := filepath.Join(root, filepath.FromSlash(rel))
		stamp, stamped := "", false
		if rel == tiers.SessionsDir {
			if stamp, stamped = sessionsStamp(fsys, dir); stamped && sessionsSwept(fsys, root, stamp) {
				continue
			}
		}
		names := dirNames(fsys, dir)
		for _, name := range names {
			if !isTempName(name) {
				continue
			}
			p := filepath.Join(dir, name)
			fi, err := lstat(fsys, p)
			if err != nil || !fi.Mode().IsRegular() || now.Sub(fi.ModTime()) <= StaleTempAge {
				continue
			}
			if fsys.Remove(p) == nil {
				removed = append(removed, p)
			}
		}
		if stamped {
			noteSessionsSwept(fsys, root, stamp, names)
		}
	}
	return removed
}

// dirNames lists a directory's names without a stat per entry, so that a
// large cold/sessions costs one read; an unreadable directory has none.
func dirNames(fsys afero.Fs, dir string) []string {
	d, err := fsys.Open(dir)
	if err != nil {
		return nil
	}
	defer d.Close()
	names, _ := d.Readdirnames(-1)
	return names
}

// lstat stats name without following a symlink where the file system can.
func lstat(fsys afero.Fs, name string) (os.FileInfo, error) {
	if l, ok := fsys.(afero.Lstater); ok {
		fi, _, err := l.LstatIfPossible(name)
		return fi, err
	}
	return fsys.Stat(name)
}

// isTempName reports whether name is one [WriteFile] gives its temporary
// files: ".NAME.tmp-" and twelve lower-case hex digits.
func isTempName(name string) bool {
	i := strings.LastIndex(name, ".tmp-")
	if i < 2 || name[0] != '.' {
		return false
	}
	return isTemp(name, name[1:i])
}

// sweepTemps removes, best effort, the temporary files that interrupted
// writes of base left in dir, once older than [StaleTempAge]: so that a
// client file outside the root (skill.md, settings.json, CLAUDE.md), which
// [Recover] never visits, is cleaned up by its next write. The age is read
// against the wall clock because file times are.
func sweepTemps(fsys afero.Fs, dir, base string, now time.Time) {
	for _, name := range dirNames(fsys, dir) {
		if !isTemp(name, base) {
			continue
		}
		p := filepath.Join(dir, name)
		if fi, err := lstat(fsys, p); err == nil && fi.Mode().IsRegular() && now.Sub(fi.ModTime()) > StaleTempAge {
			fsys.Remove(p)
		}
	}
}
