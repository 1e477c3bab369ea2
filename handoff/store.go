package handoff

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"time"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/tiers"
)

// Store is the one place wake writes a memory root through: every mutation
// runs under the root's lock, writes atomically and ends with one ledger
// line.
type Store struct {
	FS     afero.Fs
	Root   string
	Now    func() time.Time
	Locker Locker
}

// Path returns the file-system path of rel under the root.
func (s *Store) Path(rel string) string { return filepath.Join(s.Root, filepath.FromSlash(rel)) }

// Write atomically replaces rel under the root with data. A path that
// leads out of the root through a symlink is refused: wake writes its
// memory, not whatever a link points at. A symlink within the root is
// written through and stays a link.
func (s *Store) Write(rel string, data []byte) error {
	if err := s.CheckInside(rel); err != nil {
		return err
	}
	return WriteFile(s.FS, s.Path(rel), data, 0o644)
}

// CheckInside returns an error naming rel when, with every symlink
// resolved, it leads outside the root. Directories that do not exist yet
// are judged by the nearest one that does, which is where they would be
// created; a root that does not exist yet holds no link.
func (s *Store) CheckInside(rel string) error {
	for r := path.Clean(rel); ; r = path.Dir(r) {
		reason, err := tiers.Inside(s.FS, s.Root, r)
		if errors.Is(err, os.ErrNotExist) {
			if r == "." || r == "/" {
				return nil
			}
			continue
		}
		if err != nil {
			return fmt.Errorf("%s: not written: %w", rel, err)
		}
		if reason != "" {
			return fmt.Errorf("%s: not written: %s", rel, reason)
		}
		return nil
	}
}

// Mutate runs fn under the root's lock and appends the ledger entry it
// returns, stamped with the current time. When fn fails nothing is
// appended.
func (s *Store) Mutate(ctx context.Context, fn func() (Entry, error)) error {
	return s.MutateThen(ctx, fn, nil)
}

// MutateThen is [Store.Mutate] followed by then, still under the lock, once
// the ledger line is on disk: for a mutation that keeps a journal until its
// ledger line is written (the hand-off). then may be nil.
func (s *Store) MutateThen(ctx context.Context, fn func() (Entry, error), then func() error) error {
	unlock, err := s.Locker.Lock(ctx, s.Root)
	if err != nil {
		return err
	}
	defer unlock()
	e, err := fn()
	if err != nil {
		return err
	}
	if e.At.IsZero() {
		e.At = s.Now()
	}
	if err := AppendLedger(s.FS, s.Root, e); err != nil {
		return err
	}
	if then == nil {
		return nil
	}
	return then()
}
