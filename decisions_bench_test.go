package wake_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake"
	"github.com/wakeproto/wake/internal/memgen"
)

// benchRoot writes a generated root with full tiers and the given decision
// log under a temporary directory, on the real file system as a session
// start reads it.
func benchRoot(b *testing.B, o memgen.Options) (string, wake.Options) {
	b.Helper()
	dir := b.TempDir()
	root := filepath.Join(dir, ".wake")
	fsys := afero.NewOsFs()
	o.TierScale = 1
	if err := memgen.Generate(fsys, root, o); err != nil {
		b.Fatal(err)
	}
	return root, wake.Options{FS: fsys, Env: map[string]string{"HOME": filepath.Join(dir, "home")}}
}

// BenchmarkCheckDecisionLog is wake check in process on a root whose
// decision log is some 200,000 tokens (4,000 entries), and on roots of
// 50 and 1,000 varied active decisions.
func BenchmarkCheckDecisionLog(b *testing.B) {
	for _, c := range []struct {
		name string
		o    memgen.Options
	}{
		{"200k-tokens", memgen.Options{Decisions: 4000}},
		{"varied-50", memgen.Options{Decisions: 50, VariedDecisions: true}},
		{"varied-1000", memgen.Options{Decisions: 1000, VariedDecisions: true}},
	} {
		b.Run(c.name, func(b *testing.B) {
			root, o := benchRoot(b, c.o)
			for b.Loop() {
				m, err := wake.Open(root, o)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := m.Check(context.Background()); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkLoadDecisionLog is a warm wake load in process (the caches
// written by a first one) on the same roots.
func BenchmarkLoadDecisionLog(b *testing.B) {
	for _, n := range []int{50, 250, 1000} {
		b.Run(fmt.Sprintf("varied-%d", n), func(b *testing.B) {
			root, o := benchRoot(b, memgen.Options{Decisions: n, VariedDecisions: true})
			start := func() {
				m, err := wake.Open(root, o)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := m.Start(context.Background(), wake.BootFiles{}); err != nil {
					b.Fatal(err)
				}
			}
			start()
			for b.Loop() {
				start()
			}
		})
	}
}

// BenchmarkStatusDecisionLog is wake status in process (warm) on a root
// whose decision log is some 200,000 tokens.
func BenchmarkStatusDecisionLog(b *testing.B) {
	root, o := benchRoot(b, memgen.Options{Decisions: 4000})
	status := func() {
		m, err := wake.Open(root, o)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := m.Status(); err != nil {
			b.Fatal(err)
		}
	}
	status()
	for b.Loop() {
		status()
	}
}
