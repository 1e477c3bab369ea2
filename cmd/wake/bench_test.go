package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/handoff"
	"github.com/wakeproto/wake/internal/memgen"
)

// BenchmarkLoad runs `wake load` in process on a generated root with full
// tiers (about 36,000 tokens) and 10,000 cold files, with the count cache
// warm (the normal session start) and cold (first start, or after edits).
// scripts/bench-load.sh times the whole process.
func BenchmarkLoad(b *testing.B) {
	dir := b.TempDir()
	root := filepath.Join(dir, "mem")
	if err := memgen.Generate(afero.NewOsFs(), root, memgen.Options{TierScale: 1, ColdFiles: 10000}); err != nil {
		b.Fatal(err)
	}
	newApp := func() *app {
		return &app{
			fs: afero.NewOsFs(), env: map[string]string{"HOME": dir}, in: strings.NewReader(""),
			out: io.Discard, errOut: io.Discard, now: time.Now, cwd: dir,
			locker: handoff.FileLocker{Timeout: time.Second},
		}
	}
	load := func(b *testing.B) {
		if code := newApp().run([]string{"load", "--root", root}); code != 0 {
			b.Fatalf("load: exit %d", code)
		}
	}
	b.Run("warm", func(b *testing.B) {
		load(b)
		for b.Loop() {
			load(b)
		}
	})
	b.Run("cold", func(b *testing.B) {
		for b.Loop() {
			b.StopTimer()
			os.RemoveAll(filepath.Join(root, ".state"))
			b.StartTimer()
			load(b)
		}
	})
}
