package cold

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/budget"
	"github.com/wakeproto/wake/internal/coldtree"
	"github.com/wakeproto/wake/internal/golden"
	"github.com/wakeproto/wake/tiers"
)

var tocT0 = coldtree.T0

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

func smallTree() []coldtree.File {
	return []coldtree.File{
		{Path: "cold/notes/vat.md", Data: "---\nsummary: German VAT rates and rounding rules\n---\n# VAT\n\nRates.\n", Age: 5 * time.Hour},
		{Path: "cold/notes/banks.md", Data: "# Bank CSV formats\n\nTwo banks.\n", Age: 2 * time.Hour},
		{Path: "cold/notes/plain.txt", Data: "no heading, no summary\n", Age: 30 * time.Hour},
		{Path: "cold/sessions/2026-11-17T10-00-00Z.md", Data: "---\nsummary: Met the owner and agreed on scope.\nsession: 2026-11-17T10:00:00Z\n---\n# Session 2026-11-17\n", Age: 120 * time.Hour},
		{Path: "cold/research/deep/rounding.md", Data: "---\nsummary: \"Rounding experiments:\n  banker's vs half-up\"\n---\n", Age: 48 * time.Hour},
		{Path: "cold/readme.md", Data: "# The archive\n", Age: 1 * time.Hour},
	}
}

func TestTOCSmallTreeGolden(t *testing.T) {
	t.Parallel()
	enc := encoder(t)
	toc, warns := buildTOC(t, tocOptions(coldtree.FS(t, smallTree()), enc), 1500)
	if len(warns) != 0 || toc.Folded != 0 || toc.Documents != 6 {
		t.Fatalf("warnings %v, folded %d, documents %d", warns, toc.Folded, toc.Documents)
	}
	golden.Check(t, "toc.small.md", toc.Text())
	// The unfolded listing of `wake cold` is the same tree.
	full, _ := buildTOC(t, tocOptions(coldtree.FS(t, smallTree()), enc), NoFold)
	if full.Text() != toc.Text() {
		t.Fatalf("unfolded listing differs:\n%s", full.Text())
	}
}

func TestTOCSensitivityGolden(t *testing.T) {
	t.Parallel()
	files := append(smallTree(),
		coldtree.File{Path: "cold/hr/salaries.md", Data: "---\nsummary: Salary bands for 2026\nsensitivity: confidential\n---\n# Salaries of everyone\n", Age: time.Hour},
		coldtree.File{Path: "cold/hr/review.md", Data: "---\nsensitivity: confidential\n---\n# Review of Ben\n", Age: time.Hour},
		coldtree.File{Path: "cold/hr/keys.md", Data: "---\nsummary: Production API keys\nsensitivity: secret\n---\nsk-123\n", Age: time.Hour},
		coldtree.File{Path: "cold/secret-plans.md", Data: "---\nsensitivity: secret\n---\n# Layoffs\n", Age: time.Hour},
		coldtree.File{Path: "cold/broken.md", Data: "---\nsummary: [unclosed\nsensitivity: secret\n---\n# Broken\n", Age: time.Hour},
		coldtree.File{Path: "cold/scan.pdf", Data: "%PDF-1.4\x00\x01binary", Age: time.Hour},
	)
	toc, warns := buildTOC(t, tocOptions(coldtree.FS(t, files), encoder(t)), 1500)
	text := toc.Text()
	golden.Check(t, "toc.sensitivity.md", text)
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

func TestTOCFoldedGolden(t *testing.T) {
	t.Parallel()
	enc := encoder(t)
	fsys := coldtree.FS(t, coldtree.Large())
	toc, _ := buildTOC(t, tocOptions(fsys, enc), 1500)
	if toc.Folded == 0 || toc.Documents != 364 {
		t.Fatalf("folded %d, documents %d", toc.Folded, toc.Documents)
	}
	golden.Check(t, "toc.folded.md", toc.Text())
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
	toc, _ := buildTOC(t, tocOptions(coldtree.FS(t, coldtree.Large()), enc), 1500)
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
		small, _ := buildTOC(t, tocOptions(coldtree.FS(t, coldtree.Large()), enc), tc.limit)
		if !strings.Contains(small.Text(), tc.want) || (tc.want == "") != small.Omitted {
			t.Errorf("limit %d: omitted %v:\n%s", tc.limit, small.Omitted, small.Text())
		}
	}
}

func TestTOCEmptyAndMissing(t *testing.T) {
	t.Parallel()
	enc := encoder(t)
	for _, fsys := range []afero.Fs{afero.NewMemMapFs(), coldtree.FS(t, []coldtree.File{{Path: "cold/.keep", Data: "", Age: 0}})} {
		toc, warns := buildTOC(t, tocOptions(fsys, enc), 1500)
		if toc.Text() != "- cold/ — no documents\n" || len(warns) != 0 {
			t.Fatalf("empty cold/: %q %v", toc.Text(), warns)
		}
	}
}

func TestColdIndexFile(t *testing.T) {
	t.Parallel()
	when := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	f := tiers.ColdFile{Path: "cold/a\tb.md", Size: 10, ModTime: when}
	x := NewIndex("cl100k_base", nil)
	x.put(f, Entry{Tokens: 7, Sens: "confidential", Summary: "tab\there\nnewline \\ back", Heading: "H", Huge: true}, when.Add(time.Hour))
	racy := tiers.ColdFile{Path: "cold/racy.md", Size: 1, ModTime: when}
	x.put(racy, Entry{Tokens: 1}, when.Add(time.Second))
	data := x.Marshal()
	y := NewIndex("cl100k_base", data)
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
		"corrupt":        {append([]byte("wake cold index v7 o200k_base\n"), "x\ty\n"...), f},
		// v5 read front matter after a byte-order mark as none.
		"v5":           {bytes.Replace(data, []byte("index v7 "), []byte("index v6 "), 1), f},
		"changed size": {data, tiers.ColdFile{Path: f.Path, Size: 11, ModTime: when}},
		"changed time": {data, tiers.ColdFile{Path: f.Path, Size: 10, ModTime: when.Add(time.Nanosecond)}},
	} {
		if _, ok := NewIndex("o200k_base", tc.data).lookup(tc.file); ok && name != "changed size" && name != "changed time" {
			t.Errorf("%s: entry trusted", name)
		}
		if _, ok := NewIndex("cl100k_base", tc.data).lookup(tc.file); ok && name != "other encoding" {
			t.Errorf("%s: entry trusted", name)
		}
	}
}

// TestColdIndexChangeTime proves the index tells a document edited with
// its size kept and its modification time set back by its change time,
// and that an entry of an older index, which has none, is trusted by size
// and time as before and learns it, saved once.
func TestColdIndexChangeTime(t *testing.T) {
	t.Parallel()
	when := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	f := tiers.ColdFile{Path: "cold/a.md", Size: 10, ModTime: when, CTime: 100}
	x := NewIndex("cl100k_base", nil)
	x.put(f, Entry{Tokens: 7, Summary: "Alpha"}, when.Add(time.Hour))
	data := x.Marshal()
	if e, ok := NewIndex("cl100k_base", data).lookup(f); !ok || e.CTime != 100 || e.Summary != "Alpha" {
		t.Fatalf("round trip: %+v %v\n%s", e, ok, data)
	}
	touched := f
	touched.CTime = 101 // rewritten, size kept, the time set back
	if _, ok := NewIndex("cl100k_base", data).lookup(touched); ok {
		t.Error("a document rewritten with its size and time kept was trusted")
	}
	// An older wake's line: no change time.
	old := []byte("wake cold index v7 cl100k_base\ncold/a.md\t10\t" + strconv.FormatInt(when.UnixNano(), 10) + "\t7\t\t\tAlpha\t\t\t\t\t\t\t\n")
	y := NewIndex("cl100k_base", old)
	if y.Dirty() {
		t.Fatal("an older index read as damaged")
	}
	if e, ok := y.lookup(f); !ok || e.Summary != "Alpha" || e.CTime != 100 || !y.Dirty() {
		t.Fatalf("older entry: %+v trusted %v, dirty %v", e, ok, y.Dirty())
	}
	if e, ok := NewIndex("cl100k_base", y.Marshal()).lookup(touched); ok {
		t.Errorf("after learning its change time, a rewritten document was trusted: %+v", e)
	}
	// A stat without a change time trusts size and time.
	noC := f
	noC.CTime = 0
	if _, ok := NewIndex("cl100k_base", data).lookup(noC); !ok {
		t.Error("a file system without change times: the entry was not trusted")
	}
}

func FuzzColdIndex(f *testing.F) {
	x := NewIndex("cl100k_base", nil)
	x.put(tiers.ColdFile{Path: "cold/a.md", Size: 3}, Entry{Tokens: 2, Summary: "s\tt"}, time.Now())
	f.Add(x.Marshal())
	f.Add([]byte("wake cold index v7 cl100k_base\ncold/a.md\t1\t2\t3\t\t\t\t\t\t\t\t\t\t\n"))
	f.Add([]byte("wake cold index v7 cl100k_base\ncold/a.md\t1\t2\t3\tbt@42\t\t\t\t\t\t\t\t\t\n"))
	f.Add([]byte("wake cold index v7 cl100k_base\ncold/a.md\t1\t2\t3\tbt#7@42\t\t\t\t\t\t\t\t\t\n"))
	f.Add([]byte("wake cold index v7 cl100k_base\ncold/s.md\t1\t2\t3\t\tsecret\tsum\thead\t\t2026\t\t\tnext\trisk\n" +
		"cold/b.md\t1\t2\t3\t\tx\tsum\thead\tcannot unmarshal !!str `CAN`ARY` into bool\t\t\t\t\t\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		y := NewIndex("cl100k_base", data)
		again := NewIndex("cl100k_base", y.Marshal())
		if len(again.entries) != len(y.entries) {
			t.Fatalf("%d entries re-read as %d", len(y.entries), len(again.entries))
		}
		for p, e := range y.entries {
			if a := again.entries[p]; a == nil || a.Size != e.Size || a.MTime != e.MTime || a.CTime != e.CTime || a.Ino != e.Ino || a.Tokens != e.Tokens || a.Binary != e.Binary ||
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
		fsys := coldtree.FS(t, []coldtree.File{{Path: "cold/a.md", Data: "# A\n\nSome text.\n", Age: tc.age}, {Path: "cold/b.md", Data: "# B\n", Age: tc.age}})
		c := budget.NewCache(enc.Name(), enc, nil)
		o := tocOptions(fsys, c)
		if tc.index {
			o.Index = NewIndex(enc.Name(), nil)
		}
		toc, _ := buildTOC(t, o, NoFold)
		if c.CountTransient("# A\n\nSome text.\n") == 0 || toc.DocTokens == 0 {
			t.Fatal("nothing counted")
		}
		// Misses are of the texts asked for (the lines a miss keeps are not
		// among them): the listing's own text is always remembered, one.
		_, misses := c.Stats()
		if grew := misses > 1; grew != tc.grows {
			t.Errorf("%s: the content cache learned %d texts", tc.name, misses)
		}
	}
}

// TestTOCSessionMonths: of a long cold/sessions/, the newest month's
// records are listed one by one, newest first, and each older month is a
// line that folding turns into a count, the oldest month first; the
// newest records are the last thing folding takes, after every other
// directory.
func TestTOCSessionMonths(t *testing.T) {
	t.Parallel()
	enc := encoder(t)
	files := coldtree.Large()
	for m := 6; m <= 11; m++ {
		for d := 1; d <= 25; d += 3 {
			name := fmt.Sprintf("cold/sessions/2026-%02d-%02dT10-00-00Z.md", m, d)
			files = append(files, coldtree.File{Path: name, Data: fmt.Sprintf("---\nsummary: Session of 2026-%02d-%02d\n---\n", m, d), Age: 0})
		}
	}
	// Two records of one second: the "-2" is the newer.
	files = append(files, coldtree.File{Path: "cold/sessions/2026-11-25T10-00-00Z-2.md", Data: "---\nsummary: The newest\n---\n"})
	full, _ := buildTOC(t, tocOptions(coldtree.FS(t, files), enc), NoFold)
	text := full.Text()
	newest := strings.Index(text, "2026-11-25T10-00-00Z-2.md")
	if newest < 0 || newest > strings.Index(text, "2026-11-25T10-00-00Z.md") || newest > strings.Index(text, "2026-11-01T10-00-00Z.md") {
		t.Fatalf("the newest record is not listed first:\n%s", text)
	}
	oct, jun := strings.Index(text, "cold/sessions/2026-10-* — 9 documents"), strings.Index(text, "cold/sessions/2026-06-* — 9 documents")
	if oct < 0 || jun < oct || newest > oct {
		t.Fatalf("older months are not lines of their own, newest first:\n%s", text)
	}
	// A budget that folds some of the months: the oldest fold first, and
	// the newest month stays listed one by one.
	var sawPartial bool
	for limit := 2000; limit >= 200; limit -= 50 {
		toc, _ := buildTOC(t, tocOptions(coldtree.FS(t, files), enc), limit)
		var folded []string
		for _, l := range toc.Lines {
			if l.Folded && strings.HasPrefix(l.Path, "cold/sessions/2026-") {
				folded = append(folded, l.Path)
			}
		}
		slices.Sort(folded)
		for i, p := range folded {
			if want := fmt.Sprintf("cold/sessions/2026-%02d-*", 6+i); p != want {
				t.Fatalf("limit %d: folded months %v: not the oldest first", limit, folded)
			}
		}
		listed := strings.Contains(toc.Text(), "2026-11-25T10-00-00Z-2.md")
		if !listed && !strings.Contains(toc.Text(), "- cold/sessions/ — 57 documents, 779 tokens (folded)") {
			t.Fatalf("limit %d: the newest record is folded away while a month is not:\n%s", limit, toc.Text())
		}
		for _, l := range toc.Lines {
			if l.Dir && !l.Folded && l.Path != "cold/" && l.Path != "cold/sessions/" && !strings.HasPrefix(l.Path, "cold/sessions/2026-") && !listed {
				t.Fatalf("limit %d: %s is listed while the newest records are folded:\n%s", limit, l.Path, toc.Text())
			}
		}
		sawPartial = sawPartial || len(folded) > 0 && len(folded) < 6 && listed
	}
	if !sawPartial {
		t.Fatal("no budget folded some months and kept the newest listed")
	}
}
