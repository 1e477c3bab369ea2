package fsrecord

import (
	"io/fs"
	"os"
	"time"

	"github.com/spf13/afero"
	"golang.org/x/sys/unix"
)

// observeAt is [Observe] of the regular file name in the directory dir,
// opened through the afero.Fs, by fstatat(2) relative to it: the same
// identity without the kernel walking the whole path again for each of a
// directory's thousands of cold documents. false when dir is not an
// operating-system directory or name is not a regular file there (the
// caller observes the path through the afero.Fs).
func observeAt(dir afero.File, name string) (Identity, bool) {
	f, ok := dir.(*os.File)
	if !ok {
		return Identity{}, false
	}
	rc, err := f.SyscallConn()
	if err != nil {
		return Identity{}, false
	}
	var st unix.Stat_t
	var serr error
	if err := rc.Control(func(fd uintptr) {
		serr = unix.Fstatat(int(fd), name, &st, unix.AT_SYMLINK_NOFOLLOW)
	}); err != nil || serr != nil || st.Mode&unix.S_IFMT != unix.S_IFREG {
		return Identity{}, false
	}
	// The mode as os.Lstat gives it (os's fillFileStatFromSys).
	mode := fs.FileMode(st.Mode & 0o777)
	if st.Mode&unix.S_ISGID != 0 {
		mode |= fs.ModeSetgid
	}
	if st.Mode&unix.S_ISUID != 0 {
		mode |= fs.ModeSetuid
	}
	if st.Mode&unix.S_ISVTX != 0 {
		mode |= fs.ModeSticky
	}
	return Identity{Exists: true, Mode: uint32(mode), Size: st.Size,
		MTime: time.Unix(st.Mtim.Unix()).UnixNano(), CTime: time.Unix(st.Ctim.Unix()).UnixNano(),
		Inode: uint64(st.Ino), Dev: uint64(st.Dev)}, true
}
