package budget

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// longRun is one line of testdata/longruns.jsonl: a text made by makeRun
// and the counts OpenAI's tiktoken gives it (scripts/longruns.sh).
type longRun struct {
	Kind     string `json:"kind"`
	N        int    `json:"n"`
	Seed     uint32 `json:"seed"`
	SHA256   string `json:"sha256"`
	CL100K   int    `json:"cl100k_base"`
	O200K    int    `json:"o200k_base"`
	Tiktoken string `json:"tiktoken"`
}

func readLongRuns(t *testing.T) []longRun {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "longruns.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var runs []longRun
	for i, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var r longRun
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("longruns.jsonl line %d: %v", i+1, err)
		}
		runs = append(runs, r)
	}
	return runs
}

// TestLongRunsMatchTiktoken checks the counts of long unbroken runs, where
// a quadratic merge stalls, against OpenAI's tiktoken.
func TestLongRunsMatchTiktoken(t *testing.T) {
	t.Parallel()
	runs := readLongRuns(t)
	kinds := map[string]bool{}
	encs := sharedEncoders(t)
	for _, r := range runs {
		text, err := makeRun(r.Kind, r.N, r.Seed)
		if err != nil {
			t.Fatal(err)
		}
		if sum := sha256.Sum256([]byte(text)); hex.EncodeToString(sum[:]) != r.SHA256 {
			t.Fatalf("%s %d seed %d: makeRun does not make the text scripts/longruns.cjs made", r.Kind, r.N, r.Seed)
		}
		kinds[r.Kind] = true
		for name, want := range map[string]int{"cl100k_base": r.CL100K, "o200k_base": r.O200K} {
			if got := encs[name].Count(text); got != want {
				t.Errorf("%s %s of %d: got %d tokens, tiktoken %s gives %d", name, r.Kind, r.N, got, r.Tiktoken, want)
			}
		}
	}
	for _, k := range runKinds {
		if !kinds[k] {
			t.Errorf("no reference count for a run of kind %s", k)
		}
	}
}

// TestCountMegabyteRuns counts 1 MiB runs of one letter and of spaces,
// which stalled the quadratic merge for many minutes (issue 9: a
// 131,000-character run took 9 min 10 s). The reference counts of such
// runs at 10,000, 30,000 and 100,000 characters (testdata/longruns.jsonl)
// are whole tokens of 8 letters and of 128 spaces in both encodings.
func TestCountMegabyteRuns(t *testing.T) {
	t.Parallel()
	const n = 1 << 20
	encs := sharedEncoders(t)
	for _, name := range encodings {
		for _, tc := range []struct {
			run    string
			period int
		}{{"a", 8}, {" ", 128}} {
			t.Run(fmt.Sprintf("%s/%q", name, tc.run), func(t *testing.T) {
				t.Parallel()
				if got := encs[name].Count(strings.Repeat(tc.run, n)); got != n/tc.period {
					t.Errorf("%s: %d × %q counts %d tokens, want %d", name, n, tc.run, got, n/tc.period)
				}
			})
		}
	}
}

// BenchmarkCountLongRun counts 1 MiB unbroken runs, which took minutes
// with tiktoken-go's quadratic merge.
func BenchmarkCountLongRun(b *testing.B) {
	for _, name := range encodings {
		for _, kind := range []string{"letter", "dna", "spaces"} {
			benchmarkCount(b, name, kind, 1<<20)
		}
	}
}

// BenchmarkCountRuns counts 1 MiB runs of every kind: the split and the
// merge are both linear or n log n on each.
func BenchmarkCountRuns(b *testing.B) {
	for _, name := range encodings {
		for _, kind := range runKinds {
			benchmarkCount(b, name, kind, 1<<20)
		}
	}
}

func benchmarkCount(b *testing.B, name, kind string, size int) {
	text, err := makeRun(kind, size, 1)
	if err != nil {
		b.Fatal(err)
	}
	if len(text) > size { // multi-byte code points: make it about size bytes
		text, _ = makeRun(kind, size*size/len(text), 1)
	}
	enc, err := NewEncoder(name)
	if err != nil {
		b.Fatal(err)
	}
	enc.Count("warm up")
	b.Run(name+"/"+kind, func(b *testing.B) {
		b.SetBytes(int64(len(text)))
		loopCPU(b, func() { enc.Count(text) })
	})
}

// BenchmarkRunGrowth counts runs of one letter four times as long as each
// other with this counter and with tiktoken-go's EncodeOrdinary: the time
// of the one grows about fourfold, of the other about sixteenfold.
func BenchmarkRunGrowth(b *testing.B) {
	enc, err := NewEncoder("cl100k_base")
	if err != nil {
		b.Fatal(err)
	}
	enc.Count("warm up")
	ref := referenceEncoder(b, "cl100k_base")
	for _, size := range []int{4 << 10, 16 << 10} {
		text := strings.Repeat("a", size)
		b.Run(fmt.Sprintf("ours/%dKiB", size>>10), func(b *testing.B) {
			for b.Loop() {
				enc.Count(text)
			}
		})
		b.Run(fmt.Sprintf("tiktoken-go/%dKiB", size>>10), func(b *testing.B) {
			for b.Loop() {
				ref.EncodeOrdinary(text)
			}
		})
	}
}

// BenchmarkSplitRuns splits runs of every kind of 128 Ki and of 1 Mi code
// points into pieces, without merging: a splitter that went back over a
// run quadratically would take far more than eight times as long on the
// longer one.
func BenchmarkSplitRuns(b *testing.B) {
	for _, name := range encodings {
		bp, err := newBPE(name)
		if err != nil {
			b.Fatal(err)
		}
		for _, kind := range runKinds {
			for _, size := range []int{128 << 10, 1 << 20} {
				text, _ := makeRun(kind, size, 1)
				b.Run(fmt.Sprintf("%s/%s/%dKi", name, kind, size>>10), func(b *testing.B) {
					for b.Loop() {
						for i := 0; i < len(text); i = bp.next(text, i) {
						}
					}
				})
			}
		}
	}
}
