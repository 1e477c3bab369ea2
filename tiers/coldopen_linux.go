package tiers

import (
	"errors"
	"os"
	"time"

	"github.com/spf13/afero"
	"golang.org/x/sys/unix"
)

// openRoot opens the real root for [openBeneath]: only a directory, and
// not through a symlink (realRoot has none), so that a root replaced
// after it was resolved (by a named pipe, whose open would wait for a
// writer, or by a link) is not opened; nil if it cannot be.
func openRoot(fsys afero.Fs, realRoot string) afero.File {
	f, err := fsys.OpenFile(realRoot, os.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW, 0)
	if err != nil {
		return nil
	}
	return f
}

// openBeneath opens the regular file at rel, slash-separated, under dir,
// the memory root's real directory open on the operating system, in one
// openat2(2) with RESOLVE_BENEATH and RESOLVE_NO_SYMLINKS: no symlink is
// followed and nothing outside dir is reached, whatever is renamed or
// replaced on the way meanwhile, where a check of each directory on the
// path and then an open of the whole path leave a moment between the two
// for a directory to be swapped for a link leading out. It opens without
// waiting (O_NONBLOCK: a named pipe put in the file's place is not waited
// on) and, for a regular file, reads blocking again. name is the path
// the file is known by.
//
// The result is fastOpened with the file, its size and modification
// time; fastMissing when rel is not there; fastUnsupported where the
// system has no openat2 (or a sandbox refuses it); fastNo for all else (a
// symlink on the way, anything not a regular file): the caller then
// resolves the path and says why.
func openBeneath(dir afero.File, rel, name string) (*os.File, int64, time.Time, fastResult) {
	// A root that cannot take the call (closed, say) leaves every
	// document to the common way, as a system without openat2 does.
	root, ok := dir.(*os.File)
	if !ok {
		return nil, 0, time.Time{}, fastUnsupported
	}
	rc, err := root.SyscallConn()
	if err != nil {
		return nil, 0, time.Time{}, fastUnsupported
	}
	fd := -1
	var oerr error
	how := unix.OpenHow{
		Flags:   unix.O_RDONLY | unix.O_NONBLOCK | unix.O_NOCTTY | unix.O_CLOEXEC,
		Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS,
	}
	if err := rc.Control(func(dirfd uintptr) {
		for {
			fd, oerr = unix.Openat2(int(dirfd), rel, &how)
			if !errors.Is(oerr, unix.EINTR) {
				return
			}
		}
	}); err != nil {
		return nil, 0, time.Time{}, fastUnsupported
	}
	switch {
	case errors.Is(oerr, unix.ENOENT):
		return nil, 0, time.Time{}, fastMissing
	case errors.Is(oerr, unix.ENOSYS), errors.Is(oerr, unix.EPERM):
		// A kernel before 5.6, or a sandbox that refuses the call.
		return nil, 0, time.Time{}, fastUnsupported
	case oerr != nil:
		return nil, 0, time.Time{}, fastNo
	}
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil || st.Mode&unix.S_IFMT != unix.S_IFREG {
		unix.Close(fd)
		return nil, 0, time.Time{}, fastNo
	}
	if err := unix.SetNonblock(fd, false); err != nil {
		unix.Close(fd)
		return nil, 0, time.Time{}, fastNo
	}
	return os.NewFile(uintptr(fd), name), st.Size, time.Unix(st.Mtim.Unix()), fastOpened
}
