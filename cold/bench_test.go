package cold

import (
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
