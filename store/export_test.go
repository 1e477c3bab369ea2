package store

import (
	"bytes"
	"path/filepath"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/internal/fsrecord"
	"github.com/wakeproto/wake/tiers"
)

// WriteDecisionsLocked replaces warm/decisions.md and records the snapshot.
func (s *Store) WriteDecisionsLocked(data []byte) error {
	return s.writeDecisions(data, data, nil, nil)
}

func (s *Store) snapshotPath() string {
	return filepath.Join(s.Root, tiers.StateDir, DecisionsSnapshot)
}

func coldSessionPath(root string) string {
	return filepath.Join(root, tiers.StateDir, ColdSessionFile)
}

// readArchivedKey is the key of the record of [ArchivedIDsFile].
func readArchivedKey(fsys afero.Fs, root string) ([]fsrecord.Entry, error) {
	data, err := tiers.ReadOwn(fsys, root, tiers.StateDir+"/"+ArchivedIDsFile)
	if err != nil {
		return nil, err
	}
	_, body, _ := bytes.Cut(data, []byte{'\n'})
	_, body, _ = bytes.Cut(body, []byte{'\n'})
	key, _, _ := bytes.Cut(body, []byte("\n\n"))
	return fsrecord.ParseKey(append(key, '\n'))
}
