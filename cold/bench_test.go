package cold

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/budget"
	"github.com/wakeproto/wake/internal/memgen"
	"github.com/wakeproto/wake/tiers"
)

// BenchmarkTOC lists 10,000 cold documents within the default budget on a
// warm start: the index knows every document, every count is a cache hit.
func BenchmarkTOC(b *testing.B) {
	fsys := afero.NewMemMapFs()
	if err := memgen.Generate(fsys, "/r", memgen.Options{TierScale: 1, ColdFiles: 10000}); err != nil {
		b.Fatal(err)
	}
	enc, err := budget.NewEncoder(tiers.EncodingCL100K)
	if err != nil {
		b.Fatal(err)
	}
	o := tocOptions(fsys, budget.NewCache(enc.Name(), enc, nil))
	o.Index = NewIndex(enc.Name(), nil)
	if _, _, err := BuildTOC(o, o.Config.Budget.TOC); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, _, err := BuildTOC(o, o.Config.Budget.TOC); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkOpenIndex decodes the index of 100,000 cold documents, as a
// warm start does first (testdata-free: the file is the one a scan of a
// generated root leaves).
func BenchmarkOpenIndex(b *testing.B) {
	data := benchIndexFile(b, 100000)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if x := NewIndex(tiers.EncodingCL100K, data); x.loaded != 100000 {
			b.Fatalf("%d entries", x.loaded)
		}
	}
}

// BenchmarkOpenIndexAgain opens the saved index of 1,000 cold documents
// (about a long life's) through a ParsedIndex as the builds of one
// hand-off do after the first: the bytes read are those parsed last, and
// the index is a copy of that parse. parse opens it after another index
// was parsed, as the first open of a command does.
func BenchmarkOpenIndexAgain(b *testing.B) {
	fsys := afero.NewMemMapFs()
	if err := afero.WriteFile(fsys, "/r/"+tiers.StateDir+"/"+IndexFile, benchIndexFile(b, 1000), 0o644); err != nil {
		b.Fatal(err)
	}
	other := afero.NewMemMapFs()
	if err := afero.WriteFile(other, "/r/"+tiers.StateDir+"/"+IndexFile, benchIndexFile(b, 10), 0o644); err != nil {
		b.Fatal(err)
	}
	for _, again := range []bool{true, false} {
		b.Run(map[bool]string{true: "copy", false: "parse"}[again], func(b *testing.B) {
			var p ParsedIndex
			for b.Loop() {
				if !again {
					p.Open(other, "/r", tiers.EncodingCL100K)
				}
				if x := p.Open(fsys, "/r", tiers.EncodingCL100K); x.loaded != 1000 {
					b.Fatalf("%d entries", x.loaded)
				}
			}
		})
	}
}

// benchIndexFile is the index file a first start leaves of n generated
// cold documents; counts are not what they measure, so a word count
// stands in for the tokenizer.
func benchIndexFile(b *testing.B, n int) []byte {
	b.Helper()
	fsys := afero.NewMemMapFs()
	if err := memgen.Generate(fsys, "/r", memgen.Options{TierScale: 1, ColdFiles: n}); err != nil {
		b.Fatal(err)
	}
	o := tocOptions(fsys, wordCounter{})
	o.Index = NewIndex(tiers.EncodingCL100K, nil)
	Scan(o)
	return o.Index.Marshal()
}

type wordCounter struct{}

func (wordCounter) Count(s string) int { return len(strings.Fields(s)) }

// BenchmarkScanFirst lists 2,000 cold documents none of which the index
// knows, as a first start does: each is read, parsed and counted (the
// counts skip the content cache, as they do when the index keeps them),
// on one worker and on one a core.
func BenchmarkScanFirst(b *testing.B) {
	fsys := afero.NewMemMapFs()
	if err := memgen.Generate(fsys, "/r", memgen.Options{TierScale: 1, ColdFiles: 2000}); err != nil {
		b.Fatal(err)
	}
	enc, err := budget.NewEncoder(tiers.EncodingCL100K)
	if err != nil {
		b.Fatal(err)
	}
	enc.Count("warm the encoder up")
	for _, workers := range []int{1, runtime.GOMAXPROCS(0)} {
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
			defer func(old func() int) { readWorkers = old }(readWorkers)
			readWorkers = func() int { return workers }
			for b.Loop() {
				o := tocOptions(fsys, budget.NewCache(enc.Name(), enc, nil))
				o.Index = NewIndex(enc.Name(), nil)
				if warns := Scan(o); len(o.Index.Documents()) != 2000 {
					b.Fatalf("%d documents: %v", len(o.Index.Documents()), warns)
				}
			}
		})
	}
}
