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
