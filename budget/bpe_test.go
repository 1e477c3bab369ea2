package budget

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"sync"
	"testing"

	tiktoken "github.com/pkoukk/tiktoken-go"
	loader "github.com/pkoukk/tiktoken-go-loader"
)

var encodings = []string{"cl100k_base", "o200k_base"}

// The split patterns of tiktoken-go's encoding definitions, which it does
// not export; TestSplitPatternsAreTiktokenGos checks they are still its,
// and FuzzSplit that nextCL100K and nextO200K split as they do.
const (
	cl100kPattern = `(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`
	o200kPattern  = `[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?` +
		`|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?` +
		`|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+`
)

// reference holds tiktoken-go's own encoders, built once for all tests:
// its EncodeOrdinary is the quadratic counter that Encoder replaces.
var reference struct {
	once sync.Once
	enc  map[string]*tiktoken.Tiktoken
	err  error
}

// referenceEncoder returns tiktoken-go's encoder for name, built with its
// own encoding definition and the offline tables, never a download.
func referenceEncoder(t testing.TB, name string) *tiktoken.Tiktoken {
	t.Helper()
	reference.once.Do(func() {
		tiktoken.SetBpeLoader(loader.NewOfflineLoader())
		reference.enc = map[string]*tiktoken.Tiktoken{}
		for _, n := range encodings {
			if reference.enc[n], reference.err = tiktoken.GetEncoding(n); reference.err != nil {
				return
			}
		}
	})
	if reference.err != nil {
		t.Fatal(reference.err)
	}
	return reference.enc[name]
}

// shared holds one encoder of each encoding, built once for every test
// but [TestEncoderIsLazy] and the benchmarks: building both costs about a
// quarter of a second and a collection of their tables, which each test
// paid again. An Encoder is safe for concurrent use and, once built, holds
// nothing a count can change.
var shared = sync.OnceValues(func() (map[string]*Encoder, error) {
	out := map[string]*Encoder{}
	for _, n := range encodings {
		e, err := NewEncoder(n)
		if err != nil {
			return nil, err
		}
		out[n] = e
	}
	return out, nil
})

// sharedEncoders returns the shared encoders by encoding name.
func sharedEncoders(t testing.TB) map[string]*Encoder {
	t.Helper()
	encs, err := shared()
	if err != nil {
		t.Fatal(err)
	}
	return encs
}

// TestSplitPatternsAreTiktokenGos checks the split patterns against the
// ones tiktoken-go builds its encoders with, read from its unexported
// encoding definition.
func TestSplitPatternsAreTiktokenGos(t *testing.T) {
	t.Parallel()
	for name, want := range map[string]string{"cl100k_base": cl100kPattern, "o200k_base": o200kPattern} {
		enc := reflect.ValueOf(referenceEncoder(t, name)).Elem().FieldByName("pbeEncoding")
		if !enc.IsValid() || enc.IsNil() {
			t.Fatalf("%s: tiktoken-go's Tiktoken has no pbeEncoding any more", name)
		}
		if got := enc.Elem().FieldByName("PatStr").String(); got != want {
			t.Errorf("%s: tiktoken-go splits with\n%s\nwe split with\n%s", name, got, want)
		}
	}
}

// adversarial returns texts that stress the merge and the split: runs of
// every kind, runs glued to other runs, and random bytes, none longer than
// a few thousand bytes so that tiktoken-go's quadratic merge stays cheap.
func adversarial() []string {
	var out []string
	for i, kind := range runKinds {
		for _, n := range []int{1, 2, 3, 7, 64, 257, 1500} {
			s, _ := makeRun(kind, n, uint32(i*1000+n))
			out = append(out, s)
		}
	}
	rng := rand.New(rand.NewPCG(7, 9))
	for range 200 {
		var b strings.Builder
		for range 1 + rng.IntN(6) {
			s, _ := makeRun(runKinds[rng.IntN(len(runKinds))], rng.IntN(400), rng.Uint32())
			b.WriteString(s)
		}
		out = append(out, b.String())
	}
	for range 50 {
		b := make([]byte, rng.IntN(600))
		for i := range b {
			b[i] = byte(rng.UintN(256))
		}
		out = append(out, string(b))
	}
	return append(out,
		"'s'S'll'LL'Ve 'd'm'T", "don't WON'T Ain'T", "aaab", "ÀÀÀàààÀàÀà", "a\u0301\u0301\u0301",
		"\u00a0\u00a0 x\u2003\u2003\n\u0085\u0085y", "١٢٣٤٥٦٧٨٩", "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAb",
		strings.Repeat("ab", 900), strings.Repeat("abc ", 500), strings.Repeat("\r\n", 700), strings.Repeat(" \n", 700),
		strings.Repeat("🎉", 300), strings.Repeat("👩‍💻", 200), strings.Repeat("-", 2000), strings.Repeat("=", 3001),
	)
}

// TestCountMatchesTiktokenGo compares the counter with tiktoken-go's
// EncodeOrdinary, the standard quadratic merge, on adversarial texts.
func TestCountMatchesTiktokenGo(t *testing.T) {
	t.Parallel()
	encs := sharedEncoders(t)
	texts := adversarial()
	for _, name := range encodings {
		ref := referenceEncoder(t, name)
		for i, text := range texts {
			if got, want := encs[name].Count(text), len(ref.EncodeOrdinary(text)); got != want {
				t.Errorf("%s text %d (%d bytes, %.40q…): got %d tokens, tiktoken-go %d", name, i, len(text), text, got, want)
			}
		}
	}
}

// FuzzCount compares the counter with tiktoken-go on any text of up to
// 4,000 bytes, for both encodings.
func FuzzCount(f *testing.F) {
	for _, s := range []string{"", "hello world", "aaaaaaaaaaaaaaaa", "    \n\n  x", "ACGTTGCAACGT", "日本語🎉", "\xff\xfeab", "'LL's 123456"} {
		f.Add(s)
	}
	encs := sharedEncoders(f)
	f.Fuzz(func(t *testing.T, text string) {
		if len(text) > 4000 {
			t.Skip("longer than the quadratic reference affords")
		}
		for _, name := range encodings {
			if got, want := encs[name].Count(text), len(referenceEncoder(t, name).EncodeOrdinary(text)); got != want {
				t.Fatalf("%s %q: got %d tokens, tiktoken-go %d", name, text, got, want)
			}
		}
	})
}

// referenceMerge is tiktoken's _byte_pair_merge (src/lib.rs) transcribed:
// after each merge it rescans every part for the lowest rank. It returns
// the start of each token.
func referenceMerge(piece string, ranks map[string]int) []int {
	const none = int(^uint(0) >> 1)
	type part struct{ start, rank int }
	rank := func(s string) int {
		if r, ok := ranks[s]; ok {
			return r
		}
		return none
	}
	var parts []part
	for i := 0; i+1 < len(piece); i++ {
		parts = append(parts, part{i, rank(piece[i : i+2])})
	}
	parts = append(parts, part{len(piece) - 1, none}, part{len(piece), none})
	get := func(i int) int {
		if i+3 < len(parts) {
			return rank(piece[parts[i].start:parts[i+3].start])
		}
		return none
	}
	for {
		best := -1
		for i := 0; i < len(parts)-1; i++ {
			if parts[i].rank != none && (best < 0 || parts[i].rank < parts[best].rank) {
				best = i
			}
		}
		if best < 0 {
			break
		}
		if best > 0 {
			parts[best-1].rank = get(best - 1)
		}
		parts[best].rank = get(best)
		parts = append(parts[:best+1], parts[best+2:]...)
	}
	out := make([]int, len(parts)-1)
	for i := range out {
		out[i] = parts[i].start
	}
	return out
}

// TestMergeMatchesReference checks the heap merge token by token against
// the transcribed standard merge, with small random rank tables over a
// small alphabet, where equal pairs (ties) abound and the order of merges
// decides the tokens.
func TestMergeMatchesReference(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	var m merger
	for table := range 300 {
		alphabet := "abcd"[:2+rng.IntN(3)]
		ranks := map[string]int{}
		for i := range len(alphabet) {
			ranks[alphabet[i:i+1]] = i
		}
		for range 4 + rng.IntN(40) {
			w := make([]byte, 2+rng.IntN(5))
			for i := range w {
				w[i] = alphabet[rng.IntN(len(alphabet))]
			}
			if _, ok := ranks[string(w)]; !ok {
				ranks[string(w)] = len(ranks)
			}
		}
		tab := tableOf(ranks)
		for range 10 {
			b := make([]byte, 1+rng.IntN(300))
			for i := range b {
				b[i] = alphabet[rng.IntN(len(alphabet))]
			}
			piece := string(b)
			want := referenceMerge(piece, ranks)
			got := m.count(piece, tab)
			if starts := m.starts(); got != len(want) || fmt.Sprint(starts) != fmt.Sprint(want) {
				t.Fatalf("table %d %v, piece %q: got %d tokens at %v, want %d at %v", table, ranks, piece, got, starts, len(want), want)
			}
		}
	}
}

// starts returns the start of each token of the last piece counted.
func (m *merger) starts() []int {
	var out []int
	for i := int32(0); i < int32(len(m.next))-1; i = m.next[i] {
		out = append(out, int(i))
	}
	return out
}

// BenchmarkEncoderBuild builds an encoder and counts one letter: what the
// first count of a process costs.
func BenchmarkEncoderBuild(b *testing.B) {
	for _, name := range encodings {
		b.Run(name, func(b *testing.B) {
			loopCPU(b, func() {
				e, err := NewEncoder(name)
				if err != nil {
					b.Fatal(err)
				}
				e.Count("x")
			})
		})
	}
}
