// Package memlock is an in-process stand-in for the memory root's file
// lock, for tests on in-memory file systems, where no OS lock can be taken.
package memlock

import (
	"context"
	"path/filepath"
	"sync"
)

// Locker implements store.Locker with a read-write mutex for each lock
// file, as the OS locks of store.FileLocker are: the root's lock
// (<root>/.state/lock) and each file LockIn names are distinct, so that
// one may be taken while another is held.
type Locker struct {
	mu    sync.Mutex
	files map[string]*sync.RWMutex
}

func (m *Locker) file(name string) *sync.RWMutex {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.files == nil {
		m.files = map[string]*sync.RWMutex{}
	}
	name = filepath.Clean(name)
	if m.files[name] == nil {
		m.files[name] = &sync.RWMutex{}
	}
	return m.files[name]
}

// rootLock is the file of the root's lock (store.LockFile in the state
// directory).
func rootLock(root string) string { return filepath.Join(root, ".state", "lock") }

// Lock takes the exclusive lock.
func (m *Locker) Lock(ctx context.Context, root string) (func() error, error) {
	l := m.file(rootLock(root))
	l.Lock()
	return func() error { l.Unlock(); return nil }, nil
}

// RLock takes the shared lock.
func (m *Locker) RLock(ctx context.Context, root string) (func() error, error) {
	l := m.file(rootLock(root))
	l.RLock()
	return func() error { l.RUnlock(); return nil }, nil
}

// LockIn takes the exclusive lock of the file name in dir.
func (m *Locker) LockIn(ctx context.Context, dir, name string) (func() error, error) {
	l := m.file(filepath.Join(dir, name))
	l.Lock()
	return func() error { l.Unlock(); return nil }, nil
}
