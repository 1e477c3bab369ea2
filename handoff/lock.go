package handoff

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/gofrs/flock"

	"github.com/wakeproto/wake/tiers"
)

// LockFile is the lock's file name inside the state directory.
const LockFile = "lock"

// ErrLockTimeout is returned when the memory root's lock could not be taken
// in time.
var ErrLockTimeout = errors.New("timed out waiting for the memory root's lock")

// Locker takes the memory root's exclusive lock; the returned function
// releases it.
type Locker interface {
	Lock(ctx context.Context, root string) (unlock func() error, err error)
}

// FileLocker locks the root with an OS file lock on .state/lock, so that
// wake processes exclude each other. It works on the real file system only.
type FileLocker struct {
	Timeout time.Duration // 0 means wait as long as ctx allows
}

// Lock implements [Locker].
func (l FileLocker) Lock(ctx context.Context, root string) (func() error, error) {
	dir := filepath.Join(root, tiers.StateDir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("creating %s: %w", dir, err)
	}
	fl := flock.New(filepath.Join(dir, LockFile))
	if l.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, l.Timeout)
		defer cancel()
	}
	ok, err := fl.TryLockContext(ctx, 10*time.Millisecond)
	if err != nil && !errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, context.Canceled) {
		return nil, fmt.Errorf("locking %s: %w", fl.Path(), err)
	}
	if !ok {
		return nil, fmt.Errorf("%w (%s after %s)", ErrLockTimeout, fl.Path(), l.Timeout)
	}
	return fl.Unlock, nil
}

// MutexLocker locks within one process; for tests on in-memory file systems.
type MutexLocker struct{ mu sync.Mutex }

// Lock implements [Locker].
func (m *MutexLocker) Lock(ctx context.Context, root string) (func() error, error) {
	m.mu.Lock()
	return func() error { m.mu.Unlock(); return nil }, nil
}
