package cold

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/wakeproto/wake/budget"
	"github.com/wakeproto/wake/internal/coldtree"
)

// parallelTree is an archive with every kind of document the scan tells
// apart: listed, confidential, secret, with a broken front matter, binary,
// with a secret-looking summary, racy (modified just now), and many
// copies of the same text (counted at once by several workers).
func parallelTree() []coldtree.File {
	files := coldtree.Large()
	for i := range 40 {
		dir := fmt.Sprintf("cold/mixed/%02d", i%7)
		files = append(files,
			coldtree.File{Path: dir + fmt.Sprintf("/conf-%02d.md", i), Data: fmt.Sprintf("---\nsummary: Review %d\nsensitivity: confidential\n---\n# Review\n", i), Age: time.Duration(i) * time.Hour},
			coldtree.File{Path: dir + fmt.Sprintf("/secret-%02d.md", i), Data: "---\nsensitivity: secret\n---\nsk-123\n", Age: time.Duration(i) * time.Minute},
			coldtree.File{Path: dir + fmt.Sprintf("/broken-%02d.md", i), Data: "---\nsummary: [unclosed\n---\n# Broken\n", Age: time.Hour},
			coldtree.File{Path: dir + fmt.Sprintf("/scan-%02d.pdf", i), Data: "%PDF-1.4\x00\x01binary", Age: time.Hour},
			coldtree.File{Path: dir + fmt.Sprintf("/key-%02d.md", i), Data: "---\nsummary: token ghp_" + strings.Repeat("a1B2", 9) + "\n---\n# Key\n", Age: 2 * time.Hour},
			coldtree.File{Path: dir + fmt.Sprintf("/same-%02d.md", i), Data: "# The same text in every copy\n\nWord " + strings.Repeat("again ", 50) + "\n", Age: 3 * time.Hour},
			coldtree.File{Path: dir + fmt.Sprintf("/racy-%02d.md", i), Data: fmt.Sprintf("# Edited just now %d\n", i), Age: time.Duration(i%2) * time.Second},
		)
	}
	return files
}

// TestScanWorkersSameBytes builds the listing of a first start, and the
// index and count cache it leaves, with one worker and with many: the
// bytes must be the same.
func TestScanWorkersSameBytes(t *testing.T) {
	enc := encoder(t)
	type result struct {
		text, warns  string
		index, cache []byte
		level        []string
	}
	build := func(workers int) result {
		t.Helper()
		defer func(old func() int) { readWorkers = old }(readWorkers)
		readWorkers = func() int { return workers }
		c := budget.NewCache(enc.Name(), enc, nil)
		o := tocOptions(coldtree.FS(t, parallelTree()), c)
		o.Index = NewIndex(enc.Name(), nil)
		toc, warns := buildTOC(t, o, 1500)
		full, _ := buildTOC(t, o, NoFold)
		r := result{text: toc.Text() + "\n---\n" + full.Text(), warns: strings.Join(warns, "\n"), index: o.Index.Marshal(), cache: c.Marshal()}
		for _, d := range o.Index.Documents() {
			l, ok := o.Index.Level(d.Path)
			r.level = append(r.level, fmt.Sprint(d.Path, l, ok, d.Tokens))
		}
		return r
	}
	one := build(1)
	if len(one.level) < 600 || !strings.Contains(one.warns, "broken-") {
		t.Fatalf("the tree is not what the test means to scan: %d documents, warnings:\n%s", len(one.level), one.warns)
	}
	for _, n := range []int{2, 3, 8, 64} {
		got := build(n)
		switch {
		case got.text != one.text:
			t.Errorf("%d workers: the listing differs from one worker's:\n%s\n---- one worker:\n%s", n, got.text, one.text)
		case got.warns != one.warns:
			t.Errorf("%d workers: warnings differ:\n%s\n---- one worker:\n%s", n, got.warns, one.warns)
		case !bytes.Equal(got.index, one.index):
			t.Errorf("%d workers: the index file differs from one worker's", n)
		case !bytes.Equal(got.cache, one.cache):
			t.Errorf("%d workers: the count cache differs from one worker's", n)
		case !slices.Equal(got.level, one.level):
			t.Errorf("%d workers: the documents differ from one worker's", n)
		}
	}
}

// TestIndexPartsSameEntries loads an index file in one part and in many:
// the same entries, the same file when written back; and a file cut short
// or with a bad line in any part is no index at all.
func TestIndexPartsSameEntries(t *testing.T) {
	enc := encoder(t)
	o := tocOptions(coldtree.FS(t, parallelTree()), budget.NewCache(enc.Name(), enc, nil))
	o.Index = NewIndex(enc.Name(), nil)
	Scan(o)
	data := o.Index.Marshal()
	// A path written twice keeps its last entry.
	_, rest, _ := bytes.Cut(data, []byte("\n"))
	line, _, _ := bytes.Cut(rest, []byte("\n"))
	dup := append(slices.Clone(data), bytes.Replace(line, []byte("\t"), []byte("\t1"), 1)...)
	dup = append(dup, '\n')
	defer func(old func(int) int) { indexParts = old }(indexParts)
	load := func(parts int, data []byte) *Index {
		indexParts = func(int) int { return parts }
		return NewIndex(enc.Name(), data)
	}
	one, oneDup := load(1, data), load(1, dup)
	if one.loaded < 600 || one.Dirty() || oneDup.loaded != one.loaded || bytes.Equal(oneDup.Marshal(), one.Marshal()) {
		t.Fatalf("one part: %d entries, dirty %v; with a line twice %d", one.loaded, one.Dirty(), oneDup.loaded)
	}
	for _, parts := range []int{2, 3, 7, 5000} {
		for _, c := range []struct {
			data []byte
			want *Index
		}{{data, one}, {dup, oneDup}} {
			got := load(parts, c.data)
			if got.loaded != c.want.loaded || got.Sum() != c.want.Sum() || !bytes.Equal(got.Marshal(), c.want.Marshal()) {
				t.Errorf("%d parts: %d entries, want %d; or the file written back differs", parts, got.loaded, c.want.loaded)
			}
		}
		if x := load(parts, data[:len(data)-1]); x.loaded != 0 || !x.Dirty() {
			t.Errorf("%d parts: a file cut short loads %d entries", parts, x.loaded)
		}
		bad := slices.Clone(data)
		i := bytes.LastIndexByte(bad[:len(bad)-1], '\n')
		bad = append(bad[:i+1], []byte("not an entry\n")...)
		if x := load(parts, bad); x.loaded != 0 || !x.Dirty() {
			t.Errorf("%d parts: a bad last line loads %d entries", parts, x.loaded)
		}
	}
}

// TestSplitLines cuts texts into whole lines.
func TestSplitLines(t *testing.T) {
	texts := []string{"", "a\n", "a\nb\n", "long line here\nx\ny\n", strings.Repeat("0123456789\n", 100)}
	for _, text := range texts {
		for n := 1; n <= 8; n++ {
			parts := splitLines(text, n)
			if strings.Join(parts, "") != text || len(parts) > n {
				t.Errorf("splitLines(%q, %d) = %q", text, n, parts)
			}
			for _, p := range parts {
				if p == "" || !strings.HasSuffix(p, "\n") {
					t.Errorf("splitLines(%q, %d): part %q", text, n, p)
				}
			}
		}
	}
}
