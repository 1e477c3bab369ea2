package boot

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/budget"
	"github.com/wakeproto/wake/tiers"
)

var tocT0 = time.Date(2026, 11, 22, 3, 24, 20, 0, time.UTC)

// coldFile is a cold document for a test root: its path under the root,
// content and age.
type coldFile struct {
	path string
	data string
	age  time.Duration
}

func coldFS(t *testing.T, files []coldFile) afero.Fs {
	t.Helper()
	fsys := afero.NewMemMapFs()
	for _, f := range files {
		name := filepath.Join("/r", f.path)
		if err := afero.WriteFile(fsys, name, []byte(f.data), 0o644); err != nil {
			t.Fatal(err)
		}
		when := tocT0.Add(-f.age)
		fsys.Chtimes(name, when, when)
	}
	return fsys
}

func tocOptions(fsys afero.Fs, c budget.Counter) Options {
	return Options{FS: fsys, Root: "/r", Config: tiers.DefaultConfig(), Counter: c, Now: func() time.Time { return tocT0 }}
}

func buildTOC(t *testing.T, o Options, limit int) (*TOC, []string) {
	t.Helper()
	toc, warns, err := BuildTOC(o, limit)
	if err != nil {
		t.Fatal(err)
	}
	if n := o.Counter.Count(toc.Text()); n != toc.Tokens {
		t.Fatalf("TOC says %d tokens, its text has %d", toc.Tokens, n)
	}
	if limit != NoFold && toc.Tokens > limit {
		t.Fatalf("TOC is %d tokens, over its budget of %d", toc.Tokens, limit)
	}
	return toc, warns
}

func smallTree() []coldFile {
	return []coldFile{
		{"cold/notes/vat.md", "---\nsummary: German VAT rates and rounding rules\n---\n# VAT\n\nRates.\n", 5 * time.Hour},
		{"cold/notes/banks.md", "# Bank CSV formats\n\nTwo banks.\n", 2 * time.Hour},
		{"cold/notes/plain.txt", "no heading, no summary\n", 30 * time.Hour},
		{"cold/sessions/2026-11-17T10-00-00Z.md", "---\nsummary: Met the owner and agreed on scope.\nsession: 2026-11-17T10:00:00Z\n---\n# Session 2026-11-17\n", 120 * time.Hour},
		{"cold/research/deep/rounding.md", "---\nsummary: \"Rounding experiments:\n  banker's vs half-up\"\n---\n", 48 * time.Hour},
		{"cold/readme.md", "# The archive\n", 1 * time.Hour},
	}
}

func TestTOCSmallTreeGolden(t *testing.T) {
	t.Parallel()
	enc := encoder(t)
	toc, warns := buildTOC(t, tocOptions(coldFS(t, smallTree()), enc), 1500)
	if len(warns) != 0 || toc.Folded != 0 || toc.Documents != 6 {
		t.Fatalf("warnings %v, folded %d, documents %d", warns, toc.Folded, toc.Documents)
	}
	golden(t, "toc.small.md", toc.Text())
	// The unfolded listing of `wake cold` is the same tree.
	full, _ := buildTOC(t, tocOptions(coldFS(t, smallTree()), enc), NoFold)
	if full.Text() != toc.Text() {
		t.Fatalf("unfolded listing differs:\n%s", full.Text())
	}
}

func TestTOCSensitivityGolden(t *testing.T) {
	t.Parallel()
	files := append(smallTree(),
		coldFile{"cold/hr/salaries.md", "---\nsummary: Salary bands for 2026\nsensitivity: confidential\n---\n# Salaries of everyone\n", time.Hour},
		coldFile{"cold/hr/review.md", "---\nsensitivity: confidential\n---\n# Review of Ben\n", time.Hour},
		coldFile{"cold/hr/keys.md", "---\nsummary: Production API keys\nsensitivity: secret\n---\nsk-123\n", time.Hour},
		coldFile{"cold/secret-plans.md", "---\nsensitivity: secret\n---\n# Layoffs\n", time.Hour},
		coldFile{"cold/broken.md", "---\nsummary: [unclosed\nsensitivity: secret\n---\n# Broken\n", time.Hour},
		coldFile{"cold/scan.pdf", "%PDF-1.4\x00\x01binary", time.Hour},
	)
	toc, warns := buildTOC(t, tocOptions(coldFS(t, files), encoder(t)), 1500)
	text := toc.Text()
	golden(t, "toc.sensitivity.md", text)
	for _, leak := range []string{"keys", "API keys", "sk-123", "secret-plans", "Layoffs", "salaries.md", "Salaries of everyone", "review.md", "Review of Ben", "broken", "scan.pdf"} {
		if strings.Contains(text, leak) {
			t.Errorf("the TOC shows %q", leak)
		}
	}
	if toc.Secret != 2 || toc.Confidential != 2 || toc.Unreadable != 1 || toc.Binary != 1 || toc.Documents != 8 {
		t.Fatalf("counts: %+v", toc)
	}
	if len(warns) != 1 || !strings.Contains(warns[0], "cold/broken.md: not listed in the table of contents: malformed front matter") {
		t.Fatalf("warnings: %v", warns)
	}
	for _, l := range toc.Lines {
		if l.Confidential && l.Path != "" {
			t.Errorf("a confidential line carries its path %q in JSON", l.Path)
		}
	}
}

// largeTree is a deterministic archive of years/months with ten documents
// each, plus a few loose documents and a deep corner.
func largeTree() []coldFile {
	var files []coldFile
	n := 0
	for y := 2023; y <= 2025; y++ {
		for m := 1; m <= 12; m++ {
			for i := range 10 {
				n++
				age := time.Duration(n) * time.Hour
				if y == 2025 {
					age = time.Duration(400-n) * time.Minute
				}
				files = append(files, coldFile{
					fmt.Sprintf("cold/%d/%02d/note-%02d.md", y, m, i),
					fmt.Sprintf("---\nsummary: Note %d of %d-%02d on component %d\n---\n# Note\n\n%s\n", i, y, m, n%13, strings.Repeat("Some archived detail. ", n%7+1)),
					age,
				})
			}
		}
	}
	files = append(files,
		coldFile{"cold/sessions/2026-11-20T09-00-00Z.md", "---\nsummary: Rounding fixed.\n---\n", time.Hour},
		coldFile{"cold/sessions/2026-11-19T09-00-00Z.md", "---\nsummary: Importer rewritten.\n---\n", 25 * time.Hour},
		coldFile{"cold/index.md", "# Archive index\n", 3 * time.Hour},
		coldFile{"cold/research/a/b/c/deep.md", "# Deep\n", 3 * time.Hour},
	)
	return files
}

func TestTOCFoldedGolden(t *testing.T) {
	t.Parallel()
	enc := encoder(t)
	fsys := coldFS(t, largeTree())
	toc, _ := buildTOC(t, tocOptions(fsys, enc), 1500)
	if toc.Folded == 0 || toc.Documents != 364 {
		t.Fatalf("folded %d, documents %d", toc.Folded, toc.Documents)
	}
	golden(t, "toc.folded.md", toc.Text())
	// The least folding that fits: one directory fewer does not.
	toc.setFolding(toc.foldedDirs() - 1)
	if n := enc.Count(toc.Text()); n <= 1500 {
		t.Fatalf("folding one directory fewer also fits (%d tokens)", n)
	}
	full, _ := buildTOC(t, tocOptions(fsys, enc), NoFold)
	if full.Folded != 0 || strings.Count(full.Text(), "\n") != 364+1+3+36+1+4 {
		t.Fatalf("unfolded listing: %d folded, %d lines", full.Folded, strings.Count(full.Text(), "\n"))
	}
}

// TestTOCFoldingOrder proves deeper directories fold before shallower ones,
// and among equals the larger first.
func TestTOCFoldingOrder(t *testing.T) {
	t.Parallel()
	enc := encoder(t)
	toc, _ := buildTOC(t, tocOptions(coldFS(t, largeTree()), enc), 1500)
	var folded []string
	for _, l := range toc.Lines {
		if l.Folded {
			folded = append(folded, l.Path)
		}
	}
	for _, d := range toc.order[:toc.foldedDirs()] {
		if d.depth < toc.order[toc.foldedDirs()-1].depth {
			t.Fatalf("%s (depth %d) folded before deeper directories", d.path, d.depth)
		}
	}
	if len(folded) == 0 || strings.Count(folded[0], "/") < 3 {
		t.Fatalf("folded: %v", folded)
	}
	for _, tc := range []struct {
		limit int
		want  string
	}{
		{200, "(folded)"},
		{25, "- cold/ — 364 documents"},
		{3, ""},
		{0, ""},
	} {
		small, _ := buildTOC(t, tocOptions(coldFS(t, largeTree()), enc), tc.limit)
		if !strings.Contains(small.Text(), tc.want) || (tc.want == "") != small.Omitted {
			t.Errorf("limit %d: omitted %v:\n%s", tc.limit, small.Omitted, small.Text())
		}
	}
}

func TestTOCEmptyAndMissing(t *testing.T) {
	t.Parallel()
	enc := encoder(t)
	for _, fsys := range []afero.Fs{afero.NewMemMapFs(), coldFS(t, []coldFile{{"cold/.keep", "", 0}})} {
		toc, warns := buildTOC(t, tocOptions(fsys, enc), 1500)
		if toc.Text() != "- cold/ — no documents\n" || len(warns) != 0 {
			t.Fatalf("empty cold/: %q %v", toc.Text(), warns)
		}
	}
}

// TestColdIndexWarmRunOpensNothing proves the scale promise: once the index
// knows the cold documents, a build opens none of them and counts nothing,
// and a changed document is read again.
func TestColdIndexWarmRunOpensNothing(t *testing.T) {
	t.Parallel()
	fsys := newTouchFS(coldFS(t, largeTree()))
	first := encoder(t)
	cache := OpenCache(fsys, "/r", first)
	o := tocOptions(fsys, cache)
	o.ColdIndex = OpenColdIndex(fsys, "/r", first.Name())
	want, _ := buildTOC(t, o, 1500)
	if len(fsys.filesUnder("/cold/")) != 364 || o.ColdIndex.Reads() != 364 {
		t.Fatalf("cold run opened %d documents, read %d", len(fsys.filesUnder("/cold/")), o.ColdIndex.Reads())
	}
	if err := SaveColdIndex(fsys, "/r", o.ColdIndex); err != nil {
		t.Fatal(err)
	}
	// Keep only the listing's own counts: the documents' counts must come
	// from the index, not from the content cache.
	listing := budget.NewCache(first.Name(), first, nil)
	o.Counter, o.ColdIndex = listing, OpenColdIndex(fsys, "/r", first.Name())
	buildTOC(t, o, 1500)
	if err := SaveCache(fsys, "/r", listing); err != nil {
		t.Fatal(err)
	}

	warm := func() (*TOC, *ColdIndex, *budget.Encoder) {
		fsys.reset()
		enc := freshEncoder(t)
		c := OpenCache(fsys, "/r", enc)
		o := tocOptions(fsys, c)
		o.ColdIndex = OpenColdIndex(fsys, "/r", enc.Name())
		toc, _, err := BuildTOC(o, 1500)
		if err != nil {
			t.Fatal(err)
		}
		return toc, o.ColdIndex, enc
	}
	got, idx, enc := warm()
	if len(fsys.filesUnder("/cold/")) != 0 || idx.Reads() != 0 || enc.Built() || idx.Dirty() {
		t.Fatalf("warm run opened %v, read %d, built the encoder %v, dirty %v", fsys.filesUnder("/cold/"), idx.Reads(), enc.Built(), idx.Dirty())
	}
	if got.Text() != want.Text() {
		t.Fatal("warm listing differs from the cold one")
	}

	// A changed document (new size) and a removed one.
	afero.WriteFile(fsys, "/r/cold/index.md", []byte("# Archive index, longer now\n"), 0o644)
	fsys.Remove("/r/cold/2023/01/note-00.md")
	_, idx, _ = warm()
	if len(fsys.filesUnder("/cold/")) != 1 || fsys.filesUnder("/cold/")["/r/cold/index.md"] != 1 || idx.Reads() != 1 || !idx.Dirty() {
		t.Fatalf("after a change: opened %v, read %d", fsys.filesUnder("/cold/"), idx.Reads())
	}
	SaveColdIndex(fsys, "/r", idx)
	if data, _ := afero.ReadFile(fsys, ColdIndexPath("/r")); strings.Contains(string(data), "note-00.md\t") && strings.Contains(string(data), "cold/2023/01/note-00.md") {
		t.Fatal("the removed document is still in the index")
	}
}

func TestColdIndexFile(t *testing.T) {
	t.Parallel()
	when := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	f := tiers.ColdFile{Path: "cold/a\tb.md", Size: 10, ModTime: when}
	x := NewColdIndex("cl100k_base", nil)
	x.put(f, coldEntry{Tokens: 7, Sens: "confidential", Summary: "tab\there\nnewline \\ back", Heading: "H", Huge: true}, when.Add(time.Hour))
	racy := tiers.ColdFile{Path: "cold/racy.md", Size: 1, ModTime: when}
	x.put(racy, coldEntry{Tokens: 1}, when.Add(time.Second))
	data := x.Marshal()
	y := NewColdIndex("cl100k_base", data)
	e, ok := y.lookup(f)
	if !ok || e.Tokens != 7 || e.Summary != "tab\there\nnewline \\ back" || !e.Huge || e.Sens != "confidential" {
		t.Fatalf("round trip: %+v %v\n%s", e, ok, data)
	}
	if _, ok := y.lookup(racy); ok {
		t.Fatal("an entry read within the racy window was saved")
	}
	for name, tc := range map[string]struct {
		data []byte
		file tiers.ColdFile
	}{
		"other encoding": {data, f},
		"corrupt":        {append([]byte("wake cold index v3 o200k_base\n"), "x\ty\n"...), f},
		"changed size":   {data, tiers.ColdFile{Path: f.Path, Size: 11, ModTime: when}},
		"changed time":   {data, tiers.ColdFile{Path: f.Path, Size: 10, ModTime: when.Add(time.Nanosecond)}},
	} {
		if _, ok := NewColdIndex("o200k_base", tc.data).lookup(tc.file); ok && name != "changed size" && name != "changed time" {
			t.Errorf("%s: entry trusted", name)
		}
		if _, ok := NewColdIndex("cl100k_base", tc.data).lookup(tc.file); ok && name != "other encoding" {
			t.Errorf("%s: entry trusted", name)
		}
	}
}

func FuzzColdIndex(f *testing.F) {
	x := NewColdIndex("cl100k_base", nil)
	x.put(tiers.ColdFile{Path: "cold/a.md", Size: 3}, coldEntry{Tokens: 2, Summary: "s\tt"}, time.Now())
	f.Add(x.Marshal())
	f.Add([]byte("wake cold index v3 cl100k_base\ncold/a.md\t1\t2\t3\t\t\t\t\t\t\n"))
	f.Add([]byte("wake cold index v3 cl100k_base\ncold/s.md\t1\t2\t3\t\tsecret\tsum\thead\t\t2026\n" +
		"cold/b.md\t1\t2\t3\t\tx\tsum\thead\tcannot unmarshal !!str `CAN`ARY` into bool\t\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		y := NewColdIndex("cl100k_base", data)
		again := NewColdIndex("cl100k_base", y.Marshal())
		if len(again.entries) != len(y.entries) {
			t.Fatalf("%d entries re-read as %d", len(y.entries), len(again.entries))
		}
		for p, e := range y.entries {
			if a := again.entries[p]; a == nil || a.Size != e.Size || a.MTime != e.MTime || a.Tokens != e.Tokens || a.Binary != e.Binary ||
				a.Huge != e.Huge || a.Sens != e.Sens || a.Summary != e.Summary || a.Heading != e.Heading || a.MetaErr != e.MetaErr {
				t.Fatalf("%q: %+v re-read as %+v", p, e, a)
			}
			if e.secret() && (e.Summary != "" || e.Heading != "" || e.Session != "" || unquoted(e.MetaErr) != e.MetaErr) {
				t.Fatalf("%q: secret entry kept text: %+v", p, e)
			}
		}
	})
}

// TestColdCountsStayOutOfTheContentCache proves cold documents are counted
// through the content cache without growing it when the cold index keeps
// their counts, and into it when nothing else will (no index, or a file
// modified within the racy window).
func TestColdCountsStayOutOfTheContentCache(t *testing.T) {
	t.Parallel()
	enc := encoder(t)
	for _, tc := range []struct {
		name  string
		index bool
		age   time.Duration
		grows bool
	}{
		{"index keeps the counts", true, time.Hour, false},
		{"no index", false, time.Hour, true},
		{"just written", true, 0, true},
	} {
		fsys := coldFS(t, []coldFile{{"cold/a.md", "# A\n\nSome text.\n", tc.age}, {"cold/b.md", "# B\n", tc.age}})
		c := budget.NewCache(enc.Name(), enc, nil)
		o := tocOptions(fsys, c)
		if tc.index {
			o.ColdIndex = NewColdIndex(enc.Name(), nil)
		}
		toc, _ := buildTOC(t, o, NoFold)
		if c.CountTransient("# A\n\nSome text.\n") == 0 || toc.DocTokens == 0 {
			t.Fatal("nothing counted")
		}
		_, misses := c.Stats()
		// The listing's own text is always remembered: one miss.
		if grew := misses > 1; grew != tc.grows {
			t.Errorf("%s: the content cache learned %d texts", tc.name, misses)
		}
	}
}
