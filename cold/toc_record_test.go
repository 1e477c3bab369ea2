package cold

import (
	"strings"
	"testing"

	"github.com/wakeproto/wake/internal/coldtree"
	"github.com/wakeproto/wake/internal/countfn"
)

// TestTOCRecordsEveryFold: the cut record names each directory folded, in
// fold order, with the lines folding it hid. Counted in words, what the
// listing shows and what the record holds add up to the whole listing,
// less the "(folded)" each folded directory's line gained.
func TestTOCRecordsEveryFold(t *testing.T) {
	t.Parallel()
	words := countfn.Func(func(s string) int { return len(strings.Fields(s)) })
	o := tocOptions(coldtree.FS(t, coldtree.Large()), words)
	full, _ := buildTOC(t, o, NoFold)
	if full.Cuts() != nil {
		t.Fatalf("the whole listing records cuts: %+v", full.Cuts())
	}
	whole := words.Count(full.Text())
	seen := 0
	for _, limit := range []int{whole, 1500, 600, 200, 25, 3} {
		toc, _ := buildTOC(t, o, limit)
		cuts := toc.Cuts()
		if toc.Omitted {
			if len(cuts) != 1 || cuts[0].What != "the whole listing" || cuts[0].Tokens != words.Count("- cold/ — 364 documents, 7,340 tokens (folded)\n") {
				t.Fatalf("limit %d: left out, recorded as %+v", limit, cuts)
			}
			seen |= 1
			continue
		}
		sum := 0
		for i, c := range cuts {
			if c.What != toc.order[i].path+" folded" || c.Where != "cold/ § table of contents" || c.Tokens <= 0 {
				t.Fatalf("limit %d: cut %d is %+v, want %s", limit, i, c, toc.order[i].path)
			}
			sum += c.Tokens
		}
		if len(cuts) != toc.foldedDirs() || toc.Tokens+sum-len(cuts) != whole {
			t.Fatalf("limit %d: %d folded, %d recorded; shown %d + recorded %d - %d folded marks, want %d",
				limit, toc.foldedDirs(), len(cuts), toc.Tokens, sum, len(cuts), whole)
		}
		if len(cuts) > 0 {
			seen |= 2
		}
	}
	if seen != 3 {
		t.Fatal("no limit both folded and left out the listing")
	}
}
