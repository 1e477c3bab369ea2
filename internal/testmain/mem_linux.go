package testmain

import (
	"errors"
	"syscall"
)

// tmpfsMagic is TMPFS_MAGIC from linux/magic.h.
const tmpfsMagic = 0x01021994

// inMemory reports whether dir is on a tmpfs.
func inMemory(dir string) bool {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		return false
	}
	return int64(st.Type) == tmpfsMagic
}

// free is the room left on the file system of dir, in bytes; 0 when it
// cannot be read.
func free(dir string) uint64 {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		return 0
	}
	return st.Bavail * uint64(st.Bsize)
}

// alive reports whether a process pid runs (or may: a process of another
// user answers EPERM).
func alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
