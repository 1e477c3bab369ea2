package wake_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake"
	"github.com/wakeproto/wake/internal/memgen"
	"github.com/wakeproto/wake/internal/memlock"
	"github.com/wakeproto/wake/tiers"
)

// diskBench is a generated root on the real file system, whose files are
// made old enough that the start cache trusts their identities (not racy).
type diskBench struct {
	t    *testing.T
	root string
	o    wake.Options
	old  time.Time
}

func newDiskBench(t *testing.T) *diskBench {
	t.Helper()
	dir := t.TempDir()
	b := &diskBench{t: t, root: filepath.Join(dir, ".wake"), old: time.Now().Add(-48 * time.Hour).Truncate(time.Second)}
	fsys := afero.NewOsFs()
	if err := memgen.Generate(fsys, b.root, memgen.Options{TierScale: 1, ColdFiles: 6}); err != nil {
		t.Fatal(err)
	}
	b.o = wake.Options{FS: fsys, Env: map[string]string{"HOME": filepath.Join(dir, "home")}, Locker: &memlock.Locker{},
		Now: func() time.Time { return time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC) }}
	b.age()
	return b
}

// age sets every file of the root but the state directory and the boot
// files wake writes to b.old.
func (b *diskBench) age() {
	b.t.Helper()
	filepath.Walk(b.root, func(p string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() && !strings.Contains(p, tiers.StateDir) && filepath.Base(p) != "skill.md" && filepath.Base(p) != "boot.md" {
			os.Chtimes(p, b.old, b.old)
		}
		return nil
	})
}

func (b *diskBench) start() (string, bool) {
	b.t.Helper()
	m, err := wake.Open(b.root, b.o)
	if err != nil {
		b.t.Fatal(err)
	}
	rendered := false
	v := wake.View{Name: "disk", Render: func(st *wake.Start, _ afero.Fs, _ func(wake.Notice)) (string, error) {
		rendered = true
		return st.Text, nil
	}}
	out, err := m.StartView(context.Background(), wake.BootFiles{}, v)
	if err != nil {
		b.t.Fatal(err)
	}
	return out, !rendered
}

// settle starts until a start is served from the cache.
func (b *diskBench) settle() {
	b.t.Helper()
	for range 3 {
		if _, hit := b.start(); hit {
			return
		}
	}
	b.t.Fatal("three starts in a row, none served from the cache")
}

// TestStartCacheOnDisk: on the real file system, where the cold walk stats
// documents through their directory's descriptor, a cold document edited
// by hand, and a tier file rewritten in place with its size and
// modification time put back, are misses, not stale output.
func TestStartCacheOnDisk(t *testing.T) {
	t.Run("cold document edited", func(t *testing.T) {
		b := newDiskBench(t)
		var doc string
		filepath.Walk(filepath.Join(b.root, tiers.ColdDir), func(p string, fi os.FileInfo, err error) error {
			if err == nil && !fi.IsDir() && doc == "" {
				doc = p
			}
			return nil
		})
		b.settle()
		if err := os.WriteFile(doc, []byte("---\nsummary: A summary written by hand\n---\n# Edited\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		b.age()
		out, hit := b.start()
		if hit {
			t.Fatal("the start after a cold document was edited was served from the cache")
		}
		if !strings.Contains(out, "A summary written by hand") {
			t.Error("the edited document's summary is not in the TOC")
		}
	})
	t.Run("tier file rewritten in place, mtime restored", func(t *testing.T) {
		b := newDiskBench(t)
		b.settle()
		name := filepath.Join(b.root, tiers.MainPath)
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		i := strings.Index(string(data), "Agent: Ava")
		if i < 0 {
			t.Fatal("main.md has no Agent: Ava")
		}
		f, err := os.OpenFile(name, os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.WriteAt([]byte("Agent: Bea"), int64(i)); err != nil {
			t.Fatal(err)
		}
		f.Close()
		b.age()
		out, hit := b.start()
		if hit {
			t.Fatal("the start after main.md was rewritten in place was served from the cache")
		}
		if !strings.Contains(out, "Agent: Bea") {
			t.Error("main.md's new identity is not in the context")
		}
	})
}
