package handoff

import (
	"path"
)

// MoveLocked renames the file src to dst (both relative to the root),
// creating dst's missing directories, and syncs both directories so that
// the rename survives a crash: for a caller that holds the root's lock
// and writes its own ledger line (`wake capsule prune`). A symlink on
// either path is refused, as [Store.Write] refuses it. It never replaces
// a file: the caller picks a dst that does not exist.
func (s *Store) MoveLocked(src, dst string) error {
	if _, err := MkdirAllIn(s.FS, s.Root, path.Dir(dst)); err != nil {
		return err
	}
	return s.move(src, dst)
}
