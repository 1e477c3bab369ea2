package wake

import (
	"fmt"
	"math/rand/v2"
	"path"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/cold"
)

// TestTrustedDocsPickIsTheRotation proves the cached start's rotation,
// which lists only the directories whose paths can be next, picks what
// the rotation over every document in path order picks: random trees of
// nested directories (a directory's files sorting among its
// subdirectories' paths), random keyed documents left out, random points
// to go on from.
func TestTrustedDocsPickIsTheRotation(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	for round := range 200 {
		fsys := afero.NewMemMapFs()
		dirs := []string{"cold"}
		for range r.IntN(6) {
			parent := dirs[r.IntN(len(dirs))]
			name := fmt.Sprintf("%c%d", 'a'+r.IntN(4), r.IntN(3))
			if r.IntN(3) == 0 {
				name += "-x" // a byte below "/": "a0-x/" sorts before "a0/"
			}
			dirs = append(dirs, path.Join(parent, name))
		}
		dirs = slices.Compact(slices.Sorted(slices.Values(dirs)))
		slices.SortFunc(dirs, func(a, b string) int { return strings.Compare(a+"/", b+"/") })
		td := trustedDocs{fsys: fsys, root: "/r", keyed: map[string]bool{}, dirs: dirs}
		var all []string
		for _, d := range dirs {
			// The walk lists every directory: each is in the key.
			td.keyed[d] = true
			fsys.MkdirAll("/r/"+d, 0o755)
			for range r.IntN(8) {
				p := path.Join(d, fmt.Sprintf("%c%d.md", 'a'+r.IntN(4), r.IntN(5)))
				if slices.Contains(all, p) || td.keyed[p] {
					continue
				}
				afero.WriteFile(fsys, "/r/"+p, nil, 0o644)
				if r.IntN(4) == 0 {
					td.keyed[p] = true
					continue
				}
				all = append(all, p)
			}
		}
		after := ""
		if len(all) > 0 && r.IntN(4) > 0 {
			after = all[r.IntN(len(all))]
			if r.IntN(2) == 0 {
				after = after[:len(after)-1]
			}
		}
		k := 1 + r.IntN(6)
		want := cold.Rotation(slices.Values(all), after, k)
		got := td.pick(after, "", k)
		if len(got) < k && after != "" {
			got = append(got, td.pick("", after, k-len(got))...)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("round %d: dirs %q, documents %q, after %q, k %d: picked %q, want %q", round, dirs, all, after, k, got, want)
		}
	}
}
