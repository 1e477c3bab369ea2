package boot

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/cold"
	"github.com/wakeproto/wake/tiers"
)

// TestNewestIndexedIsTheSortsHead: the newest records the trajectory keeps
// from the cold index, picked as they come, are the head of all of them
// sorted newest first, ties of one second (names taken, "-N") included,
// and the rest are counted.
func TestNewestIndexedIsTheSortsHead(t *testing.T) {
	t.Parallel()
	fsys := afero.NewMemMapFs()
	r := rand.New(rand.NewPCG(1, 2))
	at := time.Date(2026, 9, 1, 9, 0, 0, 0, time.UTC)
	var all []TrajectoryEntry
	for i := range 120 {
		ts := at.Add(time.Duration(r.IntN(40)) * time.Hour)
		name := ts.Format("2006-01-02T15-04-05Z") + "-k3f9qa"
		if n := r.IntN(3); n > 0 {
			name += fmt.Sprintf("-%d", n+1)
		}
		rel := tiers.SessionsDir + "/" + name + ".md"
		if ok, _ := afero.Exists(fsys, "/r/"+rel); ok {
			continue
		}
		doc := fmt.Sprintf("---\nsession: %s\nsummary: session %d\n---\n# Session\n", ts.Format(time.RFC3339), i)
		if err := afero.WriteFile(fsys, "/r/"+rel, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
		all = append(all, TrajectoryEntry{At: ts, Path: rel, Summary: fmt.Sprintf("session %d", i)})
	}
	cfg := tiers.DefaultConfig()
	enc := encoder(t)
	x := cold.NewIndex(enc.Name(), nil)
	cold.Scan(cold.Options{FS: fsys, Root: "/r", Config: cfg, Counter: enc, Index: x, Now: func() time.Time { return at.Add(1000 * time.Hour) }})
	slices.SortFunc(all, byNewest)
	for _, most := range []int{1, 20, len(all), len(all) + 5} {
		got, older := newestIndexed(x, most)
		want := all[:min(most, len(all))]
		if older != len(all)-len(want) || len(got) != len(want) {
			t.Fatalf("most %d: %d read, %d older; want %d, %d", most, len(got), older, len(want), len(all)-len(want))
		}
		for i := range want {
			if got[i].Path != want[i].Path || !got[i].At.Equal(want[i].At) || got[i].Summary != want[i].Summary {
				t.Fatalf("most %d, entry %d: %+v, want %+v", most, i, got[i], want[i])
			}
		}
	}
}
