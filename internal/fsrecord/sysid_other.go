//go:build !(linux || openbsd || darwin || freebsd || netbsd)

package fsrecord

import "os"

// haveCTime: here a file's stat has no change time (Windows, Plan 9...),
// and its modification time can be set back, size and all, so every
// regular file is kept by the hash of its content, racy or not: a start
// reads the files it depends on to know them unchanged.
var haveCTime = false

// sysIdentity has nothing to add here.
func sysIdentity(os.FileInfo) (ino, dev uint64, ctimeNs int64) { return 0, 0, 0 }

// ChangeTime is 0 here: no stat has a change time.
func ChangeTime(os.FileInfo) int64 { return 0 }

// FileID is 0, 0 here: no stat has an inode.
func FileID(os.FileInfo) (ino, dev uint64) { return 0, 0 }
