package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/cold"
	"github.com/wakeproto/wake/internal/memgen"
	"github.com/wakeproto/wake/store"
	"github.com/wakeproto/wake/tiers"
)

// generate writes a memory root with full tiers (about 36,000 tokens) and n
// cold documents.
func generate(b *testing.B, n int) string {
	root := filepath.Join(b.TempDir(), "mem")
	if err := memgen.Generate(afero.NewOsFs(), root, memgen.Options{TierScale: 1, ColdFiles: n}); err != nil {
		b.Fatal(err)
	}
	return root
}

// benchLoad runs `wake load` in process, HOME beside the root so skill.md
// lands in the scratch directory.
func benchLoad(b *testing.B, root string) {
	a := &app{
		fs: afero.NewOsFs(), env: map[string]string{"HOME": filepath.Dir(root)}, in: strings.NewReader(""),
		out: io.Discard, errOut: io.Discard, now: time.Now, cwd: filepath.Dir(root),
		locker: store.FileLocker{Timeout: time.Second},
	}
	if code := a.run([]string{"load", "--root", root}); code != 0 {
		b.Fatalf("load: exit %d", code)
	}
}

// BenchmarkLoad is the session start of issue 2's target: full tiers and
// 10,000 cold documents, with the caches warm (the normal start) and cold
// (the first start, or after every file changed).
// scripts/bench-load.sh times the whole process.
func BenchmarkLoad(b *testing.B) {
	root := generate(b, 10000)
	b.Run("warm", func(b *testing.B) {
		benchLoad(b, root)
		for b.Loop() {
			benchLoad(b, root)
		}
	})
	b.Run("cold", func(b *testing.B) {
		for b.Loop() {
			b.StopTimer()
			os.RemoveAll(filepath.Join(root, ".state"))
			b.StartTimer()
			benchLoad(b, root)
		}
	})
}

// BenchmarkLoadColdScale runs a warm `wake load` with 1,000, 10,000 and
// 100,000 cold documents, to show that a warm start grows no faster than
// the number of documents and opens none of them (the cold index answers
// for each). The 100,000 root takes a minute to generate and count first.
func BenchmarkLoadColdScale(b *testing.B) {
	for _, n := range []int{1000, 10000, 100000} {
		b.Run(fmt.Sprintf("docs=%d", n), func(b *testing.B) {
			root := generate(b, n)
			benchLoad(b, root) // the cold start: counts every document once
			if data, _ := os.ReadFile(filepath.Join(root, tiers.StateDir, cold.IndexFile)); strings.Count(string(data), "\n") != n+1 {
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

// BenchmarkWakeup is issue 13's target: a warm `wake wakeup` (the caches
// and the cold index built) on full tiers (about 36,000 tokens) and
// 10,000 cold documents, one in twenty with memory_type front matter.
func BenchmarkWakeup(b *testing.B) {
	root := filepath.Join(b.TempDir(), "mem")
	if err := memgen.Generate(afero.NewOsFs(), root, memgen.Options{TierScale: 1, ColdFiles: 10000, TypedEvery: 20}); err != nil {
		b.Fatal(err)
	}
	for _, format := range []string{"json", "prompt"} {
		b.Run(format, func(b *testing.B) {
			a := &app{
				fs: afero.NewOsFs(), env: map[string]string{"HOME": filepath.Dir(root)}, in: strings.NewReader(""),
				out: io.Discard, errOut: io.Discard, now: time.Now, cwd: filepath.Dir(root),
				locker: store.FileLocker{Timeout: time.Second},
			}
			args := []string{"wakeup", "--root", root, "--task", "rework component 42 batch", "--files", "src/component42.go", "--format", format}
			if code := a.run(args); code != 0 { // the cold start builds the caches
				b.Fatalf("wakeup: exit %d", code)
			}
			// CPU time beside wall time: on a shared machine the wall time
			// says as much about the neighbours as about wake.
			before := cpuTime()
			n := 0
			for b.Loop() {
				if code := a.run(args); code != 0 {
					b.Fatalf("wakeup: exit %d", code)
				}
				n++
			}
			b.ReportMetric(float64((cpuTime()-before).Milliseconds())/float64(n), "cpu-ms/op")
		})
	}
}

// BenchmarkFirstLoad is issue 15's third target in process: a first
// `wake load` (no .state/) of the 36k-token root with no cold documents,
// the encoder built afresh each time as a new process must. Its cpu-ms/op
// against budget's BenchmarkFirstLoadFloor is the ratio the target bounds,
// less the process start-up scripts/bench-start.sh includes.
func BenchmarkFirstLoad(b *testing.B) {
	root := generate(b, 0)
	before := cpuTime()
	n := 0
	for b.Loop() {
		b.StopTimer()
		if err := os.RemoveAll(filepath.Join(root, tiers.StateDir)); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		benchLoad(b, root)
		n++
	}
	b.ReportMetric(float64((cpuTime()-before).Microseconds())/1000/float64(n), "cpu-ms/op")
}

// BenchmarkLoadAfterHandoff is the start of every session but the first:
// a `wake load` after a `wake handoff` (untimed) on the 36k-token root,
// in a process of its own, so the encoder is built afresh each time.
func BenchmarkLoadAfterHandoff(b *testing.B) {
	loadAfter(b, generate(b, 0), func(root string, n int) []string {
		return []string{"handoff", "--root", root, "--summary", fmt.Sprintf("Session %d measured the start", n), "--next", "Measure again"}
	})
}

// BenchmarkLoadAfterDecide is a start after the memory changed in a small
// way, with no hand-off to prime it: a `wake load` after a `wake decide`
// (untimed), on the 36k-token root and with a 200k-token decision log.
func BenchmarkLoadAfterDecide(b *testing.B) {
	for _, decisions := range []int{0, 3750} {
		name := "36k"
		if decisions > 0 {
			name = "200k-decisions"
		}
		b.Run(name, func(b *testing.B) {
			root := filepath.Join(b.TempDir(), "mem")
			if err := memgen.Generate(afero.NewOsFs(), root, memgen.Options{TierScale: 1, Decisions: decisions}); err != nil {
				b.Fatal(err)
			}
			loadAfter(b, root, func(root string, n int) []string {
				return []string{"decide", "--root", root, fmt.Sprintf("Use tabs in generated Makefiles, rule %d", n), "--because", "make requires them"}
			})
		})
	}
}

// loadAfter times `wake load` on root after the command args(root, n)
// makes (untimed) before the n-th, each load with the encoder built afresh
// as in a process of its own, and reports its CPU time.
func loadAfter(b *testing.B, root string, args func(root string, n int) []string) {
	benchLoad(b, root)
	var cpu time.Duration
	n := 0
	for b.Loop() {
		b.StopTimer()
		n++
		a := &app{
			fs: afero.NewOsFs(), env: map[string]string{"HOME": filepath.Dir(root)}, in: strings.NewReader(""),
			out: io.Discard, errOut: io.Discard, now: time.Now, cwd: filepath.Dir(root),
			locker: store.FileLocker{Timeout: time.Second},
		}
		if code := a.run(args(root, n)); code != 0 {
			b.Fatalf("%s: exit %d", args(root, n)[0], code)
		}
		start := cpuTime()
		b.StartTimer()
		benchLoad(b, root)
		cpu += cpuTime() - start
	}
	b.ReportMetric(float64(cpu.Microseconds())/1000/float64(n), "cpu-ms/op")
}
