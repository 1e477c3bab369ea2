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

// TestParsePlainIsJSON holds the count cache's fast reader to
// encoding/json: on every file Marshal writes it reads what encoding/json
// reads, and on those files cut, with bytes changed or with a field
// doubled, whatever it reads encoding/json reads the same; what it does
// not read it leaves to encoding/json.
func TestParsePlainIsJSON(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(11, 12))
	decode := func(data []byte) (cacheFile, bool) {
		var f cacheFile
		if json.Unmarshal(data, &f) != nil || f.Version != 1 || f.Entries == nil {
			return cacheFile{}, false
		}
		return f, true
	}
	same := func(a, b cacheFile) bool {
		if a.Version != b.Version || a.Gen != b.Gen || len(a.Entries) != len(b.Entries) {
			return false
		}
		for k, e := range a.Entries {
			if b.Entries[k] != e {
				return false
			}
		}
		return true
	}
	read := 0
	for round := range 400 {
		c := NewCache("cl100k_base", nil, nil)
		c.gen = r.IntN(1 << 20)
		for i := range r.IntN(40) {
			c.entries[c.key(fmt.Sprint(round, i))] = cacheEntry{N: r.IntN(1 << 30), Gen: c.gen - r.IntN(cacheKeep)}
		}
		data := c.Marshal()
		got, ok := parsePlain(data)
		want, _ := decode(data)
		if !ok || !same(got, want) {
			t.Fatalf("round %d: the fast reader read %v (%v) of %s, encoding/json %v", round, got, ok, data, want)
		}
		read++
		for range 20 {
			m := bytes.Clone(data)
			switch r.IntN(4) {
			case 0:
				m = m[:r.IntN(len(m)+1)]
			case 1:
				m[r.IntN(len(m))] = "0123456789abcdef\"{}:,-.e \nxg"[r.IntN(28)]
			case 2:
				i := r.IntN(len(m))
				m = append(m[:i:i], append([]byte("0"), m[i:]...)...)
			case 3: // a key twice, with another count: encoding/json keeps the last
				for k := range c.entries {
					dup := fmt.Sprintf(`"%s":{"n":%d,"g":%d}`, k, r.IntN(1000), c.gen)
					if r.IntN(2) == 0 {
						m = bytes.Replace(m, []byte(`"entries":{`), []byte(`"entries":{`+dup+","), 1)
					} else {
						m = append(bytes.TrimSuffix(m, []byte("}}")), []byte(","+dup+"}}")...)
					}
					break
				}
			}
			if got, ok := parsePlain(m); ok {
				want, wok := decode(m)
				if !wok || !same(got, want) {
					t.Fatalf("round %d: the fast reader read %v of %q, encoding/json %v (%v)", round, got, m, want, wok)
				}
			}
		}
	}
	if _, ok := parsePlain([]byte(`{"version":1,"gen":2,"entries":{"edited key":{"n":1,"g":2}}}`)); ok {
		t.Fatal("the fast reader read a key wake does not make")
	}
	if c := NewCache("cl100k_base", nil, []byte(`{"version":1,"gen":2,"entries":{"edited key":{"n":1,"g":2}}}`)); c.entries["edited key"].N != 1 {
		t.Fatal("a cache with a key wake does not make was not read through encoding/json")
	}
}
