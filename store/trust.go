package store

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/tiers"
)

// trustLock is the lock file of the user's trust store, beside it.
const trustLock = ".trust.lock"

// SetTrust records rec in the trust store of the user's wake directory
// dir, replacing the root's earlier record, or with revoke removes the
// root's record. It runs under the store's own lock and writes atomically;
// it reports whether the store changed. A damaged store is an error: wake
// does not rewrite what it cannot read.
func SetTrust(ctx context.Context, fsys afero.Fs, locker Locker, dir string, rec tiers.TrustedRoot, revoke bool) (bool, error) {
	if _, err := fsys.Stat(dir); os.IsNotExist(err) {
		if err := fsys.MkdirAll(dir, 0o700); err != nil {
			return false, err
		}
	}
	rec.At = rec.At.UTC().Truncate(time.Second)
	unlock, err := locker.LockIn(ctx, dir, trustLock)
	if err != nil {
		return false, err
	}
	defer unlock()
	store, err := tiers.ReadTrust(fsys, dir)
	if err != nil {
		return false, err
	}
	i := store.Find(rec.Root)
	switch {
	case revoke && i < 0:
		return false, nil
	case revoke:
		store.Roots = slices.Delete(store.Roots, i, i+1)
	case i >= 0 && store.Roots[i].SHA256 == rec.SHA256:
		return false, nil
	case i >= 0:
		store.Roots[i] = rec
	default:
		store.Roots = append(store.Roots, rec)
	}
	if store.Roots == nil {
		store.Roots = []tiers.TrustedRoot{}
	}
	data, err := json.MarshalIndent(store, "", "  ")
	if err != nil {
		return false, err
	}
	return true, WriteFileMode(fsys, filepath.Join(dir, tiers.TrustFile), append(data, '\n'), 0o600)
}
