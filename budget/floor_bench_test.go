package budget

import (
	"io/fs"
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/internal/memgen"
)

// floorTexts returns the files of a generated root with full tiers (about
// 36,000 tokens under cl100k_base) and no cold documents: what
// `memgen DIR 0 1` writes, the root of scripts/bench-load.sh.
func floorTexts(b *testing.B) []string {
	b.Helper()
	mem := afero.NewMemMapFs()
	if err := memgen.Generate(mem, "/m", memgen.Options{TierScale: 1}); err != nil {
		b.Fatal(err)
	}
	var texts []string
	err := afero.Walk(mem, "/m", func(path string, info fs.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		data, err := afero.ReadFile(mem, path)
		texts = append(texts, string(data))
		return err
	})
	if err != nil {
		b.Fatal(err)
	}
	return texts
}

// loopCPU runs f b.N times through b.Loop and reports the CPU time it
// took per run (user and system, garbage collection included) as
// cpu-ms/op: on a shared machine ns/op also counts other processes' turns.
func loopCPU(b *testing.B, f func()) {
	start := cpuTime(b)
	n := 0
	for b.Loop() {
		f()
		n++
	}
	b.ReportMetric(float64(cpuTime(b)-start)/float64(time.Millisecond)/float64(n), "cpu-ms/op")
}

// BenchmarkFirstLoadFloor is the floor of issue 15's third target: build
// the encoder and count each file of the 36k-token root once, in one
// process. A first `wake load` (no .state/) on the same root, in CPU time,
// divided by this benchmark's cpu-ms/op, is the ratio the target bounds.
func BenchmarkFirstLoadFloor(b *testing.B) {
	texts := floorTexts(b)
	for _, name := range encodings {
		b.Run(name, func(b *testing.B) {
			tokens := 0
			loopCPU(b, func() {
				e, err := NewEncoder(name)
				if err != nil {
					b.Fatal(err)
				}
				tokens = 0
				for _, t := range texts {
					tokens += e.Count(t)
				}
			})
			b.ReportMetric(float64(tokens), "tokens")
		})
	}
}

// BenchmarkCountRoot counts each file of the 36k-token root once with an
// encoder already built: the counting half of the floor.
func BenchmarkCountRoot(b *testing.B) {
	texts := floorTexts(b)
	size := 0
	for _, t := range texts {
		size += len(t)
	}
	for _, name := range encodings {
		b.Run(name, func(b *testing.B) {
			e, err := NewEncoder(name)
			if err != nil {
				b.Fatal(err)
			}
			e.Count("x")
			b.SetBytes(int64(size))
			loopCPU(b, func() {
				for _, t := range texts {
					e.Count(t)
				}
			})
		})
	}
}
