// Package memlock is an in-process stand-in for the memory root's file
// lock, for tests on in-memory file systems, where no OS lock can be taken.
package memlock

import (
	"context"
	"sync"
)

// Locker implements handoff.Locker with one read-write mutex for every
// root and lock file.
type Locker struct{ mu sync.RWMutex }

// Lock takes the exclusive lock.
func (m *Locker) Lock(ctx context.Context, root string) (func() error, error) {
	m.mu.Lock()
	return func() error { m.mu.Unlock(); return nil }, nil
}

// RLock takes the shared lock.
func (m *Locker) RLock(ctx context.Context, root string) (func() error, error) {
	m.mu.RLock()
	return func() error { m.mu.RUnlock(); return nil }, nil
}

// LockIn takes the exclusive lock, the same mutex.
func (m *Locker) LockIn(ctx context.Context, dir, name string) (func() error, error) {
	return m.Lock(ctx, dir)
}
