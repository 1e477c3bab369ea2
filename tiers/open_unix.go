//go:build unix

package tiers

import (
	"os"
	"syscall"
)

// openFlags open without waiting: O_NONBLOCK returns at once from the
// open of a named pipe that has no writer, and O_NOCTTY keeps a terminal
// from becoming the process's controlling one.
const openFlags = os.O_RDONLY | syscall.O_NONBLOCK | syscall.O_NOCTTY

// blocking clears O_NONBLOCK on a regular file opened with it, so that
// its reads are as any other file's.
func blocking(f *os.File) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var serr error
	if err := rc.Control(func(fd uintptr) { serr = syscall.SetNonblock(int(fd), false) }); err != nil {
		return err
	}
	return serr
}
