package store

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"github.com/gofrs/flock"
	"github.com/spf13/afero"

	"github.com/wakeproto/wake/tiers"
)

// LockFile is the lock's file name inside the state directory.
const LockFile = "lock"

// ErrLockTimeout is returned when the memory root's lock could not be taken
// in time.
var ErrLockTimeout = errors.New("timed out waiting for the memory root's lock")

// Locker takes the memory root's lock: Lock the exclusive one that every
// mutation holds, RLock the shared one under which a session start reads
// the root and writes its boot files, so that it sees the root before or
// after a mutation, never halfway. The returned function releases it.
type Locker interface {
	Lock(ctx context.Context, root string) (unlock func() error, err error)
	RLock(ctx context.Context, root string) (unlock func() error, err error)
	// LockIn takes the exclusive lock of the file name in dir: for files
	// outside a memory root (the user's trust store).
	LockIn(ctx context.Context, dir, name string) (unlock func() error, err error)
}

// FileLocker locks the root with an OS file lock on .state/lock, so that
// wake processes exclude each other. It works on the real file system only.
type FileLocker struct {
	Timeout time.Duration // 0 means wait as long as ctx allows
}

// Lock implements [Locker].
func (l FileLocker) Lock(ctx context.Context, root string) (func() error, error) {
	return l.lock(ctx, root, false)
}

// RLock implements [Locker].
func (l FileLocker) RLock(ctx context.Context, root string) (func() error, error) {
	return l.lock(ctx, root, true)
}

func (l FileLocker) lock(ctx context.Context, root string, shared bool) (func() error, error) {
	return l.lockAt(ctx, root, tiers.StateDir, LockFile, shared)
}

// LockIn implements [Locker]; the lock file is created when missing.
func (l FileLocker) LockIn(ctx context.Context, dir, name string) (func() error, error) {
	return l.lockAt(ctx, dir, ".", name, false)
}

func (l FileLocker) lockAt(ctx context.Context, base, dir, file string, shared bool) (func() error, error) {
	// The lock file is created when missing: a symlink planted on the way
	// must not make it create or open a file elsewhere.
	fsys := afero.NewOsFs()
	if _, err := MkdirAllIn(fsys, base, dir); err != nil {
		return nil, err
	}
	if dir == tiers.StateDir {
		ignoreState(fsys, base)
	}
	rel := filepath.Join(dir, file)
	if err := CheckWritable(fsys, base, rel); err != nil {
		return nil, err
	}
	fl := flock.New(filepath.Join(base, rel))
	if l.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, l.Timeout)
		defer cancel()
	}
	try := fl.TryLockContext
	if shared {
		try = fl.TryRLockContext
	}
	ok, err := try(ctx, 10*time.Millisecond)
	if err != nil && !errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, context.Canceled) {
		return nil, fmt.Errorf("locking %s: %w", fl.Path(), err)
	}
	if !ok {
		return nil, fmt.Errorf("%w (%s after %s)", ErrLockTimeout, fl.Path(), l.Timeout)
	}
	return fl.Unlock, nil
}

// StateIgnore is the .gitignore wake keeps in the state directory: what is
// there is the machine's own (caches, locks, the sessions the hooks saw,
// the OpenCode plugin's record of a session in progress, the records of
// what 'wake install' added to this machine's files), never the memory,
// and must not be committed with it.
const StateIgnore = "# wake's own state on this machine: caches, locks, sessions in progress,\n# what 'wake install' added. Never commit it.\n*\n"

// ignoreState writes the state directory's .gitignore when it is missing.
// Failing to is not worth stopping a command for.
func ignoreState(fsys afero.Fs, root string) {
	rel := filepath.Join(tiers.StateDir, ".gitignore")
	if _, err := fsys.Stat(filepath.Join(root, rel)); err == nil {
		return
	}
	_ = WriteFileIn(fsys, root, rel, []byte(StateIgnore), 0o644)
}
