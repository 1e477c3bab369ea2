package budget

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestCacheMarshalIsJSONs checks that a saved cache is byte for byte what
// encoding/json writes for it, with keys wake makes and with keys from an
// edited file that need escaping, and that it loads back.
func TestCacheMarshalIsJSONs(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(9, 10))
	for round := range 50 {
		c := NewCache("cl100k_base", nil, nil)
		c.gen = r.IntN(40)
		for i := range r.IntN(300) {
			c.entries[c.key(fmt.Sprint(round, i))] = cacheEntry{N: r.IntN(1 << 20), Gen: r.IntN(c.gen + 1)}
		}
		if round%5 == 0 {
			c.entries["edited \"key\" <\u2028>"] = cacheEntry{N: 7, Gen: c.gen}
		}
		keep := map[string]cacheEntry{}
		for k, e := range c.entries {
			if c.gen-e.Gen < cacheKeep {
				keep[k] = e
			}
		}
		want, err := json.Marshal(cacheFile{Version: 1, Gen: c.gen, Entries: keep})
		if err != nil {
			t.Fatal(err)
		}
		got := c.Marshal()
		if !bytes.Equal(got, want) {
			t.Fatalf("round %d: Marshal wrote\n%s\nencoding/json writes\n%s", round, got, want)
		}
		back := NewCache("cl100k_base", nil, got)
		if back.gen != c.gen+1 || len(back.entries) != len(keep) {
			t.Fatalf("round %d: loaded back generation %d with %d entries, want %d with %d", round, back.gen, len(back.entries), c.gen+1, len(keep))
		}
	}
}
