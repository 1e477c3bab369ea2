package tiers

import (
	"io/fs"
	"time"
)

// coldStat is what the walk of cold/ needs of a file's lstat.
type coldStat struct {
	mode  fs.FileMode // the type bits only
	size  int64
	mtime time.Time
	ctime int64 // Unix nanoseconds
}

// dirent is one entry of a directory as the directory lists it: its name,
// and where the file system says so (see direntsAt), its inode number and
// type; 0 and direntUnknown where it does not.
type dirent struct {
	name string
	ino  uint64
	typ  uint8
}

// The types of a dirent the walk tells apart.
const (
	direntUnknown uint8 = iota
	direntRegular
	direntOther // a directory, a symlink, anything else: lstat'ed
)
