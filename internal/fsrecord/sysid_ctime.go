//go:build linux || openbsd || darwin || freebsd || netbsd

package fsrecord

import (
	"os"
	"syscall"
)

// haveCTime: here a file's stat carries its inode, device and change
// time, which nothing sets back, so a file past its racy window is told
// apart by its stat alone.
var haveCTime = true

// sysIdentity is the inode, device and change time of fi.
func sysIdentity(fi os.FileInfo) (ino, dev uint64, ctimeNs int64) {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Ino), uint64(st.Dev), ctime(st)
	}
	return 0, 0, 0
}

// ChangeTime is fi's change time, Unix nanoseconds: 0 where its stat has
// none (another afero.Fs's file, or a system without one).
func ChangeTime(fi os.FileInfo) int64 {
	_, _, c := sysIdentity(fi)
	return c
}

// FileID is fi's inode and device: 0, 0 where its stat has none.
func FileID(fi os.FileInfo) (ino, dev uint64) {
	ino, dev, _ = sysIdentity(fi)
	return ino, dev
}
