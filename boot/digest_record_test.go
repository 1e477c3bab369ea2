package boot

import (
	"testing"

	"github.com/wakeproto/wake/tiers"
)

// TestDigestRecordsEveryEntryLeftOut: each entry past the budget is in
// the cut record, oldest first, with its line's count; a digest left out
// whole records its count line too.
func TestDigestRecordsEveryEntryLeftOut(t *testing.T) {
	t.Parallel()
	enc := encoder(t)
	o := tocOptions(ledgerFS(t), enc)
	for _, limit := range []int{1000, 200, 60, 30, 5, 0} {
		o.Config.Budget.Digest = limit
		d, _, err := BuildDigest(o)
		if err != nil {
			t.Fatal(err)
		}
		want := len(d.all) - len(d.Entries)
		if d.hidden {
			want++
		}
		if len(d.cuts) != want {
			t.Fatalf("limit %d: %d entries listed of %d, %d cuts recorded", limit, len(d.Entries), len(d.all), len(d.cuts))
		}
		for i, c := range d.cuts {
			text := d.moreLine(len(d.all))
			if e := len(d.all) - 1 - i; e >= len(d.Entries) {
				text = digestLine(d.all[e])
			}
			if c.What != tiers.ShortLine(text) || c.Where != tiers.LedgerPath || c.Tokens != enc.Count(text) || c.Tokens == 0 {
				t.Fatalf("limit %d: cut %d is %+v, want %q at %d tokens", limit, i, c, text, enc.Count(text))
			}
		}
		if limit == 60 && (len(d.cuts) == 0 || d.hidden) || limit == 0 && !d.hidden {
			t.Fatalf("limit %d: %d cuts, hidden %v", limit, len(d.cuts), d.hidden)
		}
	}
}
