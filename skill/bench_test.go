package skill

import (
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/boot"
	"github.com/wakeproto/wake/budget"
	"github.com/wakeproto/wake/cold"
	"github.com/wakeproto/wake/internal/memgen"
	"github.com/wakeproto/wake/tiers"
)

// BenchmarkBuild builds skill.md from full tiers on a warm start (every
// count a cache hit): at the default budget, over which Who I Am and
// Active Work alone go, so that everything else is cut, and at one that
// leaves History room.
func BenchmarkBuild(b *testing.B) {
	fsys := afero.NewMemMapFs()
	if err := memgen.Generate(fsys, "/r", memgen.Options{TierScale: 1, ColdFiles: 100}); err != nil {
		b.Fatal(err)
	}
	enc, err := budget.NewEncoder(tiers.EncodingCL100K)
	if err != nil {
		b.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		budget int
	}{{"default", 4000}, {"roomy", 8000}} {
		b.Run(tc.name, func(b *testing.B) {
			cfg := tiers.DefaultConfig()
			cfg.Skill.Budget = tc.budget
			o := boot.Options{FS: fsys, Root: "/r", Config: cfg, Counter: budget.NewCache(enc.Name(), enc, nil),
				Now: func() time.Time { return time.Date(2026, 11, 22, 3, 24, 20, 0, time.UTC) }, ColdIndex: cold.NewIndex(enc.Name(), nil)}
			ctx, err := boot.Build(o)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := Build(o, ctx); err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				if _, err := Build(o, ctx); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
