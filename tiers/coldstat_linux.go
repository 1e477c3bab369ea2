package tiers

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io/fs"
	"os"
	"time"
	"unsafe"

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

// direntsAt lists the directory dir, opened through the root's afero.Fs,
// with each entry's inode number and type as the directory records them
// (getdents64(2), as os.File.Readdirnames reads them, but keeping what it
// drops): what lets a walk that knows a file by its inode number take it
// unchanged without an lstat (see [ScanColdKnown]). false when dir is not
// an operating-system directory or the listing failed: the caller lists
// it through the afero.Fs.
func direntsAt(dir afero.File) ([]dirent, bool) {
	f, ok := dir.(*os.File)
	if !ok {
		return nil, false
	}
	rc, err := f.SyscallConn()
	if err != nil {
		return nil, false
	}
	var out []dirent
	var gerr error
	buf := make([]byte, 32<<10)
	if err := rc.Control(func(fd uintptr) {
		for {
			n, err := unix.Getdents(int(fd), buf)
			if errors.Is(err, unix.EINTR) {
				continue
			}
			if err != nil {
				gerr = err
				return
			}
			if n <= 0 {
				return
			}
			if out == nil {
				// About the size of a short name's record: one
				// allocation for most directories.
				out = make([]dirent, 0, n/32+1)
			}
			out = parseDirents(buf[:n], out)
		}
	}); err != nil || gerr != nil {
		return nil, false
	}
	return out, true
}

// parseDirents appends the entries of the linux_dirent64 records in b:
// the inode number at 0, the record's length at 16, its type at 18, its
// NUL-terminated name from 19. An entry with inode number 0 is absent,
// as os.File.Readdirnames takes it.
func parseDirents(b []byte, out []dirent) []dirent {
	const nameAt = 19
	// The names are copied into one buffer, which each entry's name is a
	// part of: an allocation a listing, not one a name (a long history's
	// cold/sessions/ lists thousands at every start). Nothing writes to
	// the buffer once the names are in it.
	all := make([]byte, 0, len(b))
	ends := make([]int, 0, len(b)/24+1) // a record takes 24 bytes at the least
	first := len(out)
	for len(b) >= nameAt {
		reclen := int(binary.NativeEndian.Uint16(b[16:]))
		if reclen < nameAt || reclen > len(b) {
			break
		}
		ino, typ, name := binary.NativeEndian.Uint64(b), b[18], b[nameAt:reclen]
		b = b[reclen:]
		if i := bytes.IndexByte(name, 0); i >= 0 {
			name = name[:i]
		}
		if ino == 0 || len(name) == 0 {
			continue
		}
		d := dirent{ino: ino, typ: direntOther}
		switch typ {
		case unix.DT_REG:
			d.typ = direntRegular
		case unix.DT_UNKNOWN:
			d.typ = direntUnknown
		}
		all = append(all, name...)
		ends = append(ends, len(all))
		out = append(out, d)
	}
	if len(all) == 0 {
		return out
	}
	names := unsafe.String(unsafe.SliceData(all), len(all))
	at := 0
	for i, end := range ends {
		out[first+i].name = names[at:end]
		at = end
	}
	return out
}
