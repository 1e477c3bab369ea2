package store

import (
	"fmt"
	"path/filepath"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/internal/fsrecord"
	"github.com/wakeproto/wake/tiers"
)

// SessionsSweptFile, in the state directory, records cold/sessions/ as a
// listing of it last found no temporary file of wake's in it: its inode,
// modification and change times. While the directory still has them, no
// name was added to it, removed or renamed since (each moves its change
// time, which no one can set back), so no temporary file can be there
// and [Recover] does not list it again: it holds a record a session, and
// every wake command would read every name. A name added in the very
// tick of the stat, on a file system with coarse times, can slip by: it
// is then swept at the listing after the next change of the directory
// (the next hand-off), a sweep being housekeeping, never a check.
const SessionsSweptFile = "sessions-swept"

// sessionsStamp is the identity of cold/sessions/ at dir; false where the
// stat has no change time (then it is always listed).
func sessionsStamp(fsys afero.Fs, dir string) (string, bool) {
	fi, err := lstat(fsys, dir)
	if err != nil || !fi.IsDir() {
		return "", false
	}
	ctime := fsrecord.ChangeTime(fi)
	if ctime == 0 {
		return "", false
	}
	ino, dev := fsrecord.FileID(fi)
	return fmt.Sprintf("%d %d %d %d\n", dev, ino, fi.ModTime().UnixNano(), ctime), true
}

// sessionsSwept reports whether cold/sessions/ at dir, whose stamp is
// stamp, is as a listing last found it: with no temporary file.
func sessionsSwept(fsys afero.Fs, root, stamp string) bool {
	data, err := tiers.ReadOwn(fsys, root, tiers.StateDir+"/"+SessionsSweptFile)
	return err == nil && string(data) == stamp
}

// noteSessionsSwept records stamp, taken before a listing of
// cold/sessions/ that found names (names) and no temporary file among
// them; best effort, and only in a state directory that exists.
func noteSessionsSwept(fsys afero.Fs, root, stamp string, names []string) {
	for _, n := range names {
		if isTempName(n) {
			return
		}
	}
	if CheckDir(fsys, root, tiers.StateDir) != nil {
		return
	}
	_ = WriteStateUnsynced(fsys, root, SessionsSweptFile, []byte(stamp))
}

// sessionsDir is cold/sessions/ of root.
func sessionsDir(root string) string {
	return filepath.Join(root, filepath.FromSlash(tiers.SessionsDir))
}
