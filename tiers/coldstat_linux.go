package tiers

import (
	"io/fs"
	"os"
	"time"

	"github.com/spf13/afero"
	"golang.org/x/sys/unix"
)

// statAt lstats the entry name of the directory dir, opened through the
// root's afero.Fs, relative to it (fstatat(2) with AT_SYMLINK_NOFOLLOW):
// what afero.OsFs's LstatIfPossible of the whole path returns, without
// the kernel walking the path again for each of a directory's thousands
// of files, nor an fs.FileInfo allocated for each. false when dir is not
// an operating-system directory (another afero.Fs: the caller lstats the
// path through it) or the call failed (the caller's lstat reports why).
func statAt(dir afero.File, name string) (coldStat, bool) {
	f, ok := dir.(*os.File)
	if !ok {
		return coldStat{}, false
	}
	rc, err := f.SyscallConn()
	if err != nil {
		return coldStat{}, false
	}
	var st unix.Stat_t
	var serr error
	if err := rc.Control(func(fd uintptr) {
		serr = unix.Fstatat(int(fd), name, &st, unix.AT_SYMLINK_NOFOLLOW)
	}); err != nil || serr != nil {
		return coldStat{}, false
	}
	var mode fs.FileMode
	switch st.Mode & unix.S_IFMT {
	case unix.S_IFREG:
	case unix.S_IFDIR:
		mode = fs.ModeDir
	default:
		// Symlinks and special files: the caller lstats them through
		// the afero.Fs, for the fs.FileInfo its warnings describe.
		return coldStat{}, false
	}
	return coldStat{mode: mode, size: st.Size, mtime: time.Unix(st.Mtim.Unix()), ctime: st.Ctim.Nano()}, true
}
