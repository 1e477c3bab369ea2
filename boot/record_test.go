package boot

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/budget"
	"github.com/wakeproto/wake/internal/coldtree"
	"github.com/wakeproto/wake/internal/countfn"
	"github.com/wakeproto/wake/internal/memgen"
	"github.com/wakeproto/wake/store"
	"github.com/wakeproto/wake/tiers"
)

// markerLine is a marker Fit puts where blocks were left out.
var markerLine = regexp.MustCompile(`(?m)^\[wake: .* left out here, .*\]\n\n`)

// TestContextRecordIsComplete: over memory maxima from roomy to starved,
// the context's cut record holds every block each file lost (their words
// and what the file shows add up to the whole file), each file withheld
// whole, each directory the table of contents folded or the listing left
// out, and each change the digest did not list; and nothing else.
func TestContextRecordIsComplete(t *testing.T) {
	t.Parallel()
	words := countfn.Func(func(s string) int { return len(strings.Fields(s)) })
	fsys := afero.NewMemMapFs()
	if err := memgen.Generate(fsys, "/r", memgen.Options{TierScale: 2}); err != nil {
		t.Fatal(err)
	}
	for _, f := range coldtree.Large() {
		afero.WriteFile(fsys, "/r/"+f.Path, []byte(f.Data), 0o644)
	}
	for h := range 30 {
		e := store.Entry{At: tocT0.Add(-time.Duration(h) * 40 * time.Minute), Op: "remember", Paths: []string{tiers.TasksPath}, ChangeSummary: fmt.Sprintf("noted task %d", h)}
		if err := store.AppendLedger(fsys, "/r", e); err != nil {
			t.Fatal(err)
		}
	}
	o := tocOptions(fsys, budget.NewCache("words", words, nil))
	seen := map[string]int{}
	for _, max := range []int{60000, 30000, 12000, 6000, 3000, 1500, 800, 400} {
		o.Config.Budget.MemoryMax, o.Config.Budget.MemoryTarget = max, max
		ctx, err := Build(o)
		if err != nil {
			t.Fatal(err)
		}
		byWhere := map[string][]budget.Cut{}
		for _, c := range ctx.Cuts() {
			file, _, _ := strings.Cut(c.Where, " § ")
			byWhere[file] = append(byWhere[file], c)
		}
		n := 0
		for _, f := range ctx.Files() {
			cuts := byWhere[f.Path]
			n += len(cuts)
			switch {
			case f.withheld:
				if len(cuts) != 1 || cuts[0].What != "the whole file" || cuts[0].Tokens != f.Tokens || f.Tokens == 0 {
					t.Fatalf("max %d: %s withheld, recorded in %d cuts, the first %+v", max, f.Path, len(cuts), cuts[:min(1, len(cuts))])
				}
				seen["withheld"]++
			case f.Truncated && f.Path == tiers.DecisionsPath:
				// The log's view shows what it leaves out whole as one line
				// or a count: each entry left out is recorded as its block.
				sum := 0
				blocks := map[string]bool{}
				for _, b := range budget.Blocks(f.full) {
					blocks[fmt.Sprint(tiers.ShortLine(strings.SplitN(strings.TrimLeft(b.Text, "\n"), "\n", 2)[0]), words.Count(b.Text))] = true
				}
				for _, c := range cuts {
					sum += c.Tokens
					if !blocks[fmt.Sprint(c.What, c.Tokens)] {
						t.Fatalf("max %d: %s: recorded %+v, which is no block of it", max, f.Path, c)
					}
				}
				if len(cuts) != f.Omitted.Blocks || sum != f.Omitted.Tokens {
					t.Fatalf("max %d: %s: %d entries, %d words left out; recorded %d, %d", max, f.Path, f.Omitted.Blocks, f.Omitted.Tokens, len(cuts), sum)
				}
				seen["entries"] += len(cuts)
			case f.Truncated:
				sum := 0
				for _, c := range cuts {
					sum += c.Tokens
				}
				shown := markerLine.ReplaceAllString(f.Content, "")
				if len(cuts) != f.Omitted.Blocks || sum != f.Omitted.Tokens || words.Count(shown)+sum != words.Count(f.full) {
					t.Fatalf("max %d: %s: %d blocks, %d words left out; recorded %d, %d; shown %d of %d words",
						max, f.Path, f.Omitted.Blocks, f.Omitted.Tokens, len(cuts), sum, words.Count(shown), words.Count(f.full))
				}
				blocks := map[string]bool{}
				for _, b := range budget.Blocks(f.full) {
					blocks[fmt.Sprint(tiers.ShortLine(strings.SplitN(strings.TrimLeft(b.Text, "\n"), "\n", 2)[0]), words.Count(b.Text))] = true
				}
				for _, c := range cuts {
					if !blocks[fmt.Sprint(c.What, c.Tokens)] {
						t.Fatalf("max %d: %s: recorded %+v, which is no block of it", max, f.Path, c)
					}
				}
				seen["blocks"] += len(cuts)
			case len(cuts) > 0:
				t.Fatalf("max %d: %s not cut, recorded %+v", max, f.Path, cuts)
			}
		}
		toc := byWhere[tiers.ColdDir+"/"]
		switch {
		case ctx.TOC.Omitted:
			if len(toc) != 1 {
				t.Fatalf("max %d: listing left out, recorded %+v", max, toc)
			}
			seen["listing"]++
		case fmt.Sprint(toc) != fmt.Sprint(ctx.TOC.Cuts()):
			t.Fatalf("max %d: the listing records %+v, the context %+v", max, ctx.TOC.Cuts(), toc)
		default:
			// Every directory shown folded is recorded; so are those folded
			// inside them (TestTOCRecordsEveryFold counts their lines).
			folded := map[string]bool{}
			for _, c := range toc {
				folded[c.What] = true
			}
			for _, l := range ctx.TOC.Lines {
				if l.Folded && !folded[l.Path+" folded"] {
					t.Fatalf("max %d: %s is folded, not recorded: %+v", max, l.Path, toc)
				}
			}
			seen["folds"] += len(toc)
		}
		d, digest := ctx.Digest, byWhere[tiers.LedgerPath]
		want := len(d.all) - len(d.Entries)
		if d.hidden {
			want++
		}
		if len(digest) != want {
			t.Fatalf("max %d: %d of %d changes not listed, %d recorded", max, len(d.all)-len(d.Entries), len(d.all), len(digest))
		}
		seen["changes"] += len(digest)
		traj := byWhere[tiers.SessionsDir+"/"]
		if tr := ctx.Trajectory; tr != nil {
			want := len(tr.all) - len(tr.Entries)
			if tr.hidden {
				want++
			}
			if len(traj) != want {
				t.Fatalf("max %d: %d sessions not listed, %d recorded", max, want, len(traj))
			}
		}
		if n += len(toc) + len(digest) + len(traj); n != len(ctx.Cuts()) {
			t.Fatalf("max %d: %d cuts recorded, %d accounted for", max, len(ctx.Cuts()), n)
		}
	}
	for _, kind := range []string{"withheld", "blocks", "listing", "folds", "changes"} {
		if seen[kind] == 0 {
			t.Errorf("no maximum recorded any %s: %v", kind, seen)
		}
	}
}
