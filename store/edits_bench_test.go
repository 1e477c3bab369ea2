package store

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/internal/memgen"
)

// BenchmarkEditScanUnchanged is what looking for edits adds to a session
// start with nothing changed, on the real file system, with full tiers
// and 10,000 cold documents: reading wake's record of the tier files and
// a stat of each. The cold index saying that no cold document changed,
// none is compared with its record ("index-unchanged", every warm start).
// When another command saved the cold index since, each is compared with
// its record from their stat alone ("index-saved-since"). Nothing is
// opened but the records, and nothing is written.
func BenchmarkEditScanUnchanged(b *testing.B) {
	fsys := afero.NewOsFs()
	root := filepath.Join(b.TempDir(), "mem")
	if err := memgen.Generate(fsys, root, memgen.Options{TierScale: 1, ColdFiles: 10000}); err != nil {
		b.Fatal(err)
	}
	hourAgo := time.Now().Add(-time.Hour)
	found := map[string]Observed{}
	filepath.Walk(root, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		os.Chtimes(p, hourAgo, hourAgo)
		rel, _ := filepath.Rel(root, p)
		if rel = filepath.ToSlash(rel); !fi.IsDir() && isColdDoc(rel) {
			found[rel] = Observed{Path: rel, Exists: true, Size: fi.Size(), ModTime: hourAgo}
		}
		return nil
	})
	const index = "5eed" // a stand-in for the cold index's sum, which no one changes
	scan := func(unchanged bool) int {
		sc := OpenEditScan(fsys, root, time.Now())
		if err := sc.LookAtTiers(); err != nil {
			b.Fatal(err)
		}
		c := ColdLook{Index: index, Unchanged: unchanged, Found: func() map[string]Observed { return found }}
		if err := sc.LookAtCold(c); err != nil {
			b.Fatal(err)
		}
		n, err := sc.Commit()
		if err != nil {
			b.Fatal(err)
		}
		return n + len(sc.Changed())
	}
	scan(false) // the baseline
	for _, unchanged := range []bool{true, false} {
		name := map[bool]string{true: "index-unchanged", false: "index-saved-since"}[unchanged]
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				if n := scan(unchanged); n != 0 {
					b.Fatalf("%d changes in an unchanged root", n)
				}
			}
		})
	}
}
