package store

import (
	"path/filepath"

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
