package budget

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	tiktoken "github.com/pkoukk/tiktoken-go"

	"github.com/wakeproto/wake/internal/countfn"
)

// TestCountsMatchTiktoken checks every reference count made with OpenAI's
// tiktoken (encode_ordinary), for both encodings.
func TestCountsMatchTiktoken(t *testing.T) {
	t.Parallel()
	f, err := os.Open(filepath.Join("..", "testdata", "tokens", "cases.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cases []map[string]any
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var c map[string]any
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatal(err)
		}
		cases = append(cases, c)
	}
	if len(cases) < 20 {
		t.Fatalf("only %d reference cases read", len(cases))
	}
	encs := sharedEncoders(t)
	for _, name := range encodings {
		enc := encs[name]
		for i, c := range cases {
			text := c["text"].(string)
			want := int(c[name].(float64))
			if got := enc.Count(text); got != want {
				t.Errorf("%s case %d (%.40q): got %d tokens, want %d", name, i, text, got, want)
			}
		}
	}
}

// TestSeedCounts checks whole documents against ../shared, where CI has it.
func TestSeedCounts(t *testing.T) {
	t.Parallel()
	seeds := filepath.Join("..", "..", "shared", "seeds")
	if _, err := os.Stat(seeds); err != nil {
		t.Skipf("skipping: %s is not beside the checkout (CI has it): %v", seeds, err)
	}
	data, err := os.ReadFile(filepath.Join("..", "testdata", "tokens", "seeds.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	encs := sharedEncoders(t)
	rows := strings.Split(strings.TrimSpace(string(data)), "\n")
	for _, row := range rows[1:] {
		col := strings.Split(row, "\t")
		doc, err := os.ReadFile(filepath.Join(seeds, col[0]))
		if err != nil {
			t.Fatal(err)
		}
		for i, n := range []string{"cl100k_base", "o200k_base"} {
			want, _ := strconv.Atoi(col[i+1])
			if got := encs[n].Count(string(doc)); got != want {
				t.Errorf("%s %s: got %d, want %d", col[0], n, got, want)
			}
		}
	}
}

func TestEncoderIsLazy(t *testing.T) {
	t.Parallel()
	enc, err := NewEncoder("cl100k_base")
	if err != nil {
		t.Fatal(err)
	}
	if enc.Built() {
		t.Fatal("encoder built before first use")
	}
	if enc.Count("") != 0 || enc.Built() {
		t.Fatal("counting empty text built the encoder")
	}
	enc.Count("x")
	if !enc.Built() {
		t.Fatal("encoder not built after counting")
	}
	if _, err := NewEncoder("p50k_base"); err == nil {
		t.Fatal("p50k_base accepted")
	}
}

func TestSpecialTokenTextIsPlain(t *testing.T) {
	t.Parallel()
	enc := sharedEncoders(t)["cl100k_base"]
	// encode_ordinary: "<|endoftext|>" is text, several tokens, not one.
	if n := enc.Count("<|endoftext|>"); n <= 1 {
		t.Fatalf("special-token text counted as %d token(s)", n)
	}
}

func TestCache(t *testing.T) {
	t.Parallel()
	calls := 0
	base := countfn.Func(func(s string) int { calls++; return len(s) })
	c := NewCache("cl100k_base", base, nil)
	if c.Count("abc") != 3 || c.Count("abc") != 3 || calls != 1 {
		t.Fatalf("calls = %d, want 1", calls)
	}
	if !c.Dirty() {
		t.Fatal("new count did not dirty the cache")
	}
	saved := c.Marshal()

	c2 := NewCache("cl100k_base", base, saved)
	if c2.Count("abc") != 3 || calls != 1 || c2.Dirty() {
		t.Fatalf("saved count not reused: calls = %d, dirty = %v", calls, c2.Dirty())
	}
	// The encoding is part of the key.
	c3 := NewCache("o200k_base", base, saved)
	c3.Count("abc")
	if calls != 2 {
		t.Fatal("count reused across encodings")
	}
	// Corrupt or foreign data is ignored, never an error.
	for _, bad := range []string{"{", "null", `{"version":9,"entries":{}}`, "\x00\x01"} {
		c4 := NewCache("cl100k_base", base, []byte(bad))
		if c4.Count("zz") != 2 {
			t.Fatalf("corrupt cache %q gave a wrong count", bad)
		}
	}
}

func TestCacheForgetsUnusedEntries(t *testing.T) {
	t.Parallel()
	base := countfn.Func(func(s string) int { return len(s) })
	data := func() []byte { c := NewCache("e", base, nil); c.Count("old"); return c.Marshal() }()
	for range cacheKeep + 1 {
		c := NewCache("e", base, data)
		c.Count("new" + strconv.Itoa(len(data)))
		data = c.Marshal()
	}
	var f cacheFile
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	c := NewCache("e", base, data)
	if _, ok := f.Entries[c.key("old")]; ok {
		t.Fatal("an entry unused for many saves was kept")
	}
}

func TestCacheSavedClearsDirty(t *testing.T) {
	t.Parallel()
	c := NewCache("e", countfn.Func(func(s string) int { return len(s) }), nil)
	c.Count("a")
	c.Saved()
	if c.Dirty() {
		t.Fatal("dirty after Saved")
	}
	c.Count("a")
	if c.Dirty() {
		t.Fatal("a cached count made the cache dirty")
	}
	c.Count("b")
	if !c.Dirty() {
		t.Fatal("a new count after Saved did not dirty the cache")
	}
}

// TestEncodingNames checks that the names the encoder knows are
// tiktoken-go's.
func TestEncodingNames(t *testing.T) {
	if cl100kBase != tiktoken.MODEL_CL100K_BASE || o200kBase != tiktoken.MODEL_O200K_BASE {
		t.Fatalf("encoding names %q and %q, tiktoken-go's are %q and %q", cl100kBase, o200kBase, tiktoken.MODEL_CL100K_BASE, tiktoken.MODEL_O200K_BASE)
	}
}
