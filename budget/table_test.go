package budget

import (
	"strings"
	"testing"

	loader "github.com/pkoukk/tiktoken-go-loader"
)

// tableOf returns the table of ranks, which must be dense from 0.
func tableOf(ranks map[string]int) *table {
	tokens := make([]string, len(ranks))
	for tok, r := range ranks {
		tokens[r] = tok
	}
	t := &table{off: make([]uint32, len(tokens)+1)}
	var data strings.Builder
	for r, tok := range tokens {
		data.WriteString(tok)
		t.off[r+1] = uint32(data.Len())
	}
	t.data = data.String()
	t.index()
	return t
}

// TestTablesMatchLoader checks the embedded tables rank by rank against
// tiktoken-go-loader's, which they are generated from: a table left stale
// by an upgrade of the loader, or damaged, fails here. Run
// `go generate ./budget` to write them again.
func TestTablesMatchLoader(t *testing.T) {
	t.Parallel()
	for _, name := range encodings {
		want, err := loader.NewOfflineLoader().LoadTiktokenBpe(name + ".tiktoken")
		if err != nil {
			t.Fatal(err)
		}
		b, err := newBPE(name)
		if err != nil {
			t.Fatal(err)
		}
		got := b.ranks
		if got.size() != len(want) {
			t.Errorf("%s: the embedded table has %d tokens, the loader's %d: run go generate ./budget", name, got.size(), len(want))
			continue
		}
		bad := 0
		for tok, r := range want {
			if r < 0 || r >= got.size() || got.token(uint32(r)) != tok {
				bad++
				continue
			}
			if gr, ok := got.rank(tok); !ok || int(gr) != r {
				t.Errorf("%s: %q has rank %d, found %d (%v)", name, tok, r, gr, ok)
			}
		}
		if bad > 0 {
			t.Errorf("%s: %d of %d ranks differ from the loader's: run go generate ./budget", name, bad, len(want))
		}
		// Strings that are no token are not found.
		for _, s := range []string{"", "\xff\xfe\xfd\xfc\xfb\xfa\xf9", strings.Repeat("z", 300)} {
			if r, ok := got.rank(s); ok {
				t.Errorf("%s: %q found with rank %d", name, s, r)
			}
		}
	}
}

// TestTableRefusesDamage checks that a table whose bytes changed, or that
// was cut short, is refused rather than read.
func TestTableRefusesDamage(t *testing.T) {
	t.Parallel()
	if _, err := loadTable(cl100kTable); err != nil {
		t.Fatal(err)
	}
	flip := []byte(cl100kTable)
	flip[len(flip)/2] ^= 1
	for name, enc := range map[string]string{
		"flipped bit": string(flip),
		"cut short":   cl100kTable[:len(cl100kTable)/3],
		"empty":       "",
		"bad magic":   "wakebpe0" + cl100kTable[8:],
	} {
		if _, err := loadTable(enc); err == nil {
			t.Errorf("%s: table accepted", name)
		}
	}
}
