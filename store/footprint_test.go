package store_test

import (
	"context"
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/internal/memlock"
	"github.com/wakeproto/wake/store"
)

// A file is first recorded once; --remove deletes only what is as wake
// last wrote it and keeps a changed file listed.
func TestFootprint(t *testing.T) {
	t.Parallel()
	fsys, lk, ctx := afero.NewMemMapFs(), &memlock.Locker{}, context.Background()
	now := time.Date(2026, 11, 22, 3, 0, 0, 0, time.UTC)
	const dir = "/home/ava/.config/wake"
	for i, f := range []struct{ path, data string }{{"/home/ava/a.md", "a"}, {"/home/ava/b.md", "b"}, {"/home/ava/a.md", "a2"}} {
		afero.WriteFile(fsys, f.path, []byte(f.data), 0o600)
		first, err := store.RecordFootprint(ctx, fsys, lk, dir, f.path, "x", []byte(f.data), now)
		if err != nil || first != (i < 2) {
			t.Fatalf("%d: first %v, %v", i, first, err)
		}
	}
	afero.WriteFile(fsys, "/home/ava/b.md", []byte("mine"), 0o600)
	sts, err := store.FootprintStates(ctx, fsys, lk, dir, true)
	if err != nil || len(sts) != 2 || !sts[0].Removed || sts[1].Removed || sts[1].State != store.FootprintChanged {
		t.Fatalf("states %+v, %v", sts, err)
	}
	if ok, _ := afero.Exists(fsys, "/home/ava/a.md"); ok {
		t.Error("a.md, as wake wrote it, was not removed")
	}
	if ok, _ := afero.Exists(fsys, "/home/ava/b.md"); !ok {
		t.Error("b.md, changed since, was removed")
	}
	if sts, _ := store.FootprintStates(ctx, fsys, lk, dir, false); len(sts) != 1 || sts[0].Path != "/home/ava/b.md" {
		t.Errorf("record after --remove: %+v", sts)
	}
}
