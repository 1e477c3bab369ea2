//go:build darwin || freebsd || netbsd

package fsrecord

import "syscall"

// ctime is the change time of a file's stat_t, Unix nanoseconds.
func ctime(st *syscall.Stat_t) int64 { return st.Ctimespec.Nano() }
