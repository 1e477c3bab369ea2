package main

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/boot"
	"github.com/wakeproto/wake/handoff"
	"github.com/wakeproto/wake/internal/memgen"
)

// BenchmarkLoadColdScale runs a warm `wake load` in process on generated
// roots with full tiers and 1,000, 10,000 and 100,000 cold documents, to
// show that a warm start grows no faster than the number of documents and
// opens none of them (the cold index answers for each). The roots are
// built once per size; the 100,000 one takes a minute to generate and
// count the first time. scripts/bench-load.sh times the whole process.
func BenchmarkLoadColdScale(b *testing.B) {
	for _, n := range []int{1000, 10000, 100000} {
		b.Run(fmt.Sprintf("docs=%d", n), func(b *testing.B) {
			root := filepath.Join(b.TempDir(), "mem")
			if err := memgen.Generate(afero.NewOsFs(), root, memgen.Options{TierScale: 1, ColdFiles: n}); err != nil {
				b.Fatal(err)
			}
			ageFiles(b, root)
			benchLoad(b, root) // the cold start: counts every document once
			if data, _ := os.ReadFile(boot.ColdIndexPath(root)); strings.Count(string(data), "\n") != n+1 {
				b.Fatalf("the cold index holds %d lines after the first load, want %d", strings.Count(string(data), "\n"), n+1)
			}
			b.ResetTimer()
			for b.Loop() {
				benchLoad(b, root)
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N)/float64(n), "µs/doc")
		})
	}
}

func benchLoad(b *testing.B, root string) {
	a := &app{
		fs: afero.NewOsFs(), env: map[string]string{"HOME": filepath.Dir(root)}, in: strings.NewReader(""),
		out: io.Discard, errOut: io.Discard, now: time.Now, cwd: filepath.Dir(root),
		locker: handoff.FileLocker{Timeout: time.Second},
	}
	if code := a.run([]string{"load", "--root", root}); code != 0 {
		b.Fatalf("load: exit %d", code)
	}
}

// ageFiles sets every file's modification time an hour back, as on any
// root not written in the last seconds: the cold index does not keep
// entries for files modified within two seconds of being read.
func ageFiles(b *testing.B, root string) {
	then := time.Now().Add(-time.Hour)
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		return os.Chtimes(p, then, then)
	})
	if err != nil {
		b.Fatal(err)
	}
}
