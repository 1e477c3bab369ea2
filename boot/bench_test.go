package boot

import (
	"fmt"
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/budget"
	"github.com/wakeproto/wake/cold"
	"github.com/wakeproto/wake/internal/memgen"
	"github.com/wakeproto/wake/store"
	"github.com/wakeproto/wake/tiers"
)

// benchRoot is a generated root whose tiers are twice their budgets, with
// 2,000 cold documents and 300 ledger entries in the last day: every
// fitter of the boot context has work to do.
func benchRoot(b *testing.B) afero.Fs {
	b.Helper()
	fsys := afero.NewMemMapFs()
	if err := memgen.Generate(fsys, "/r", memgen.Options{TierScale: 2, ColdFiles: 2000}); err != nil {
		b.Fatal(err)
	}
	for i := range 300 {
		e := store.Entry{At: tocT0.Add(-time.Duration(i) * 4 * time.Minute), Op: "remember",
			Paths: []string{fmt.Sprintf("cold/2024/%02d/note-%06d.md", 1+i%12, i)}, ChangeSummary: fmt.Sprintf("filed note %d about the importer", i)}
		if err := store.AppendLedger(fsys, "/r", e); err != nil {
			b.Fatal(err)
		}
	}
	return fsys
}

// BenchmarkBuild is a warm session start on benchRoot (every count a cache
// hit, the cold index known), at the default budgets and with memory_max
// so low that the whole context must be squeezed.
func BenchmarkBuild(b *testing.B) {
	fsys := benchRoot(b)
	enc, err := budget.NewEncoder(tiers.EncodingCL100K)
	if err != nil {
		b.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		max  int
	}{{"default", 0}, {"squeezed", 30000}} {
		b.Run(tc.name, func(b *testing.B) {
			cfg := tiers.DefaultConfig()
			if tc.max > 0 {
				cfg.Budget.MemoryMax, cfg.Budget.MemoryTarget = tc.max, tc.max
			}
			o := Options{FS: fsys, Root: "/r", Config: cfg, Counter: budget.NewCache(enc.Name(), enc, nil),
				Now: func() time.Time { return tocT0 }, ColdIndex: cold.NewIndex(enc.Name(), nil)}
			if _, err := Build(o); err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				if _, err := Build(o); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkHook renders the hook text of a context with far more to say
// than the hook limit allows.
func BenchmarkHook(b *testing.B) {
	c := &Context{Root: "/home/ava/work/tallybook/.wake"}
	for i := range 2000 {
		c.Directives = append(c.Directives, fmt.Sprintf("Then: compress file-%d.md (some words, 😀 and é) before proceeding.", i))
		c.Warnings = append(c.Warnings, fmt.Sprintf("cold/x-%d.md: skipped: unreadable front matter", i))
	}
	t := HookTarget{BootPath: "/home/ava/work/tallybook/.wake/boot.md"}
	for b.Loop() {
		Hook(c, t, HookLimit)
	}
}
