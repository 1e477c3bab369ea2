package cold

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/budget"
	"github.com/wakeproto/wake/internal/coldtree"
	"github.com/wakeproto/wake/store"
	"github.com/wakeproto/wake/tiers"
)

func TestColdPath(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ arg, want, err string }{
		{"cold/notes/vat.md", "cold/notes/vat.md", ""},
		{"notes/vat.md", "cold/notes/vat.md", ""},
		{"./notes//vat.md", "cold/notes/vat.md", ""},
		{"cold/notes/../sessions/a.md", "cold/sessions/a.md", ""},
		{"../main.md", "", "outside cold/ (it resolves to main.md)"},
		{"cold/../main.md", "", "outside cold/"},
		{"notes/../../warm/decisions.md", "", "outside cold/"},
		{"..", "", "outside cold/"},
		{".", "", "outside cold/"},
		{"cold", "cold/cold", ""}, // relative to cold/, like any other name
		{"/etc/passwd", "", "absolute paths are refused"},
		{"/r/cold/notes/vat.md", "", "absolute paths are refused"},
		{" ", "", "empty path"},
	} {
		got, err := ColdPath(tc.arg)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("ColdPath(%q) = %q, %v; want an error containing %q", tc.arg, got, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("ColdPath(%q) = %q, %v; want %q", tc.arg, got, err, tc.want)
		}
	}
}

// longDoc is a cold document of several sections, far over a small cap.
func longDoc() string {
	var b strings.Builder
	b.WriteString("---\nsummary: How the importer was rebuilt\n---\n# Importer rebuild\n\nThe importer was rewritten in three stages. Each stage shipped alone.\n\n")
	for _, s := range []string{"Parsing", "Validation", "Commit"} {
		b.WriteString("## " + s + "\n\n")
		b.WriteString(s + " came first in its stage! " + strings.Repeat("More detail about "+s+" that the summary leaves out. ", 60) + "\n\n")
		b.WriteString("```go\nfunc " + s + "() {}\n```\n\n")
	}
	return b.String()
}

func pullOptions(fsys afero.Fs, c budget.Counter, cold int) Options {
	o := tocOptions(fsys, c)
	o.Config.Budget.Cold = cold
	return o
}

func TestPullWholeThenSummaryThenRefused(t *testing.T) {
	t.Parallel()
	enc := encoder(t)
	fsys := coldtree.FS(t, []coldtree.File{{Path: "cold/importer.md", Data: longDoc(), Age: 0}, {Path: "cold/small.md", Data: "# Small\n\nShort.\n", Age: 0}})
	docTokens := enc.Count(longDoc())
	o := pullOptions(fsys, enc, docTokens+100)
	var s store.ColdSession

	p, err := PullCold(o, "cold/importer.md", s)
	if err != nil || !p.Whole || p.Text != longDoc() || p.Tokens != docTokens || p.Left != 100 || p.Cap != "budget.cold" {
		t.Fatalf("whole pull: %+v, %v", p, err)
	}
	s.Pulled += p.Tokens

	// 100 tokens left: the same document again comes as a summary that fits.
	p, err = PullCold(o, "cold/importer.md", s)
	if err != nil {
		t.Fatal(err)
	}
	if p.Whole || p.Tokens > 100 || enc.Count(p.Text) != p.Tokens || p.Left != 100-p.Tokens {
		t.Fatalf("summary pull: %+v", p)
	}
	for _, want := range []string{"[wake: cold/importer.md is " + budget.Thousands(docTokens) + " tokens, more than the 100 tokens left (budget.cold); this is an extractive summary", "Summary: How the importer was rebuilt"} {
		if !strings.Contains(p.Text, want) {
			t.Errorf("summary lacks %q:\n%s", want, p.Text)
		}
	}
	if strings.Contains(p.Text, "More detail") || strings.Contains(p.Text, "func Parsing") {
		t.Fatalf("the summary carries more than first sentences:\n%s", p.Text)
	}

	// With room for more of it, the summary keeps every heading and first
	// sentence, and still never the whole file.
	roomy := pullOptions(fsys, enc, docTokens-1)
	p, err = PullCold(roomy, "cold/importer.md", store.ColdSession{})
	if err != nil || p.Whole {
		t.Fatalf("over the cap by one token: %+v, %v", p, err)
	}
	for _, want := range []string{"# Importer rebuild", "The importer was rewritten in three stages.", "## Parsing", "Parsing came first in its stage!", "## Commit", "Commit came first in its stage!"} {
		if !strings.Contains(p.Text, want+"\n") {
			t.Errorf("summary lacks %q:\n%s", want, p.Text)
		}
	}

	// 20 tokens left: not even the summary fits; refused with what is left.
	s.Pulled = o.Config.Budget.Cold - 20
	_, err = PullCold(o, "cold/importer.md", s)
	var perr *PullError
	if !errors.As(err, &perr) || !strings.Contains(err.Error(), "not even its summary fits: 20 tokens left this session (budget.cold)") {
		t.Fatalf("got %v", err)
	}
	// A small document still fits in what is left.
	if p, err := PullCold(o, "cold/small.md", s); err != nil || !p.Whole {
		t.Fatalf("small pull: %+v %v", p, err)
	}
}

// TestPullMemoryMax proves the memory maximum binds when the last load left
// less room than the cold budget.
func TestPullMemoryMax(t *testing.T) {
	t.Parallel()
	enc := encoder(t)
	fsys := coldtree.FS(t, []coldtree.File{{Path: "cold/importer.md", Data: longDoc(), Age: 0}})
	o := pullOptions(fsys, enc, 20000)
	s := store.ColdSession{LoadTokens: o.Config.Budget.MemoryMax - 300, Pulled: 100}
	p, err := PullCold(o, "cold/importer.md", s)
	if err != nil || p.Whole || p.Cap != "budget.memory_max" || p.Tokens > 200 || !strings.Contains(p.Text, "tokens left (budget.memory_max)") {
		t.Fatalf("pull under memory_max: %+v, %v", p, err)
	}
	s.Pulled = 300
	if _, err := PullCold(o, "cold/importer.md", s); err == nil || !strings.Contains(err.Error(), "0 tokens left this session (budget.memory_max)") {
		t.Fatalf("got %v", err)
	}
}

func TestPullSensitivity(t *testing.T) {
	t.Parallel()
	enc := encoder(t)
	fsys := coldtree.FS(t, []coldtree.File{
		{Path: "cold/keys.md", Data: "---\nsummary: API keys\nsensitivity: secret\n---\nsk-123\n", Age: 0},
		{Path: "cold/pay.md", Data: "---\nsummary: Salary bands for 2026\nsensitivity: confidential\n---\n# Salaries\n\nBen: 1\n", Age: 0},
		{Path: "cold/bare.md", Data: "---\nsensitivity: confidential\n---\nBen: 1\n", Age: 0},
		{Path: "cold/broken.md", Data: "---\nsummary: [x\nsensitivity: secret\n---\nsk-456\n", Age: 0},
		{Path: "cold/scan.pdf", Data: "%PDF\x00", Age: 0},
	})
	o := pullOptions(fsys, enc, 20000)
	for path, want := range map[string]string{
		"cold/keys.md":    "cold/keys.md: marked sensitivity: secret; wake never prints it",
		"cold/broken.md":  "its front matter cannot be read",
		"cold/scan.pdf":   "refused: binary file",
		"cold/missing.md": "no such cold document",
		"cold":            "a directory",
	} {
		p, err := PullCold(o, path, store.ColdSession{})
		if err == nil || !strings.Contains(err.Error(), want) || p.Text != "" {
			t.Errorf("%s: %+v, %v; want %q", path, p, err, want)
		}
	}
	p, err := PullCold(o, "cold/pay.md", store.ColdSession{})
	if err != nil || !p.Confidential || p.Whole || !strings.Contains(p.Text, "Summary: Salary bands for 2026") || strings.Contains(p.Text, "Ben") || p.Tokens != enc.Count(p.Text) {
		t.Fatalf("confidential: %+v, %v", p, err)
	}
	if p, err := PullCold(o, "cold/bare.md", store.ColdSession{}); err != nil || strings.Contains(p.Text, "Ben") || !strings.Contains(p.Text, "(it has none)") {
		t.Fatalf("confidential without a summary: %+v, %v", p, err)
	}
}

// TestPullSymlinkOut proves a cold path that reaches outside the root
// through a symlink is refused without reading the target.
func TestPullSymlinkOut(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	root, outside := filepath.Join(dir, "root"), filepath.Join(dir, "outside")
	os.MkdirAll(filepath.Join(root, "cold"), 0o755)
	os.MkdirAll(outside, 0o755)
	os.WriteFile(filepath.Join(outside, "passwords.md"), []byte("hunter2\n"), 0o644)
	if err := os.Symlink(filepath.Join(outside, "passwords.md"), filepath.Join(root, "cold", "pw.md")); err != nil {
		t.Skipf("symlinks unavailable: %v", err)
	}
	os.Symlink(outside, filepath.Join(root, "cold", "out"))
	o := Options{FS: afero.NewOsFs(), Root: root, Config: tiers.DefaultConfig(), Counter: encoder(t)}
	for _, rel := range []string{"cold/pw.md", "cold/out/passwords.md"} {
		p, err := PullCold(o, rel, store.ColdSession{})
		if err == nil || !strings.Contains(err.Error(), "leads outside the memory root") || strings.Contains(p.Text, "hunter2") {
			t.Errorf("%s: %+v, %v", rel, p, err)
		}
	}
}

func TestPullHugeIsSummarised(t *testing.T) {
	t.Parallel()
	line := "Filler line that goes on. " + strings.Repeat("x", 60) + "\n"
	huge := "---\nsummary: A runaway export\n---\n# Export\n\nFirst sentence of the export. More.\n\n" + strings.Repeat(line, tiers.MaxDocBytes/len(line)+10)
	fsys := coldtree.FS(t, []coldtree.File{{Path: "cold/export.md", Data: huge, Age: 0}})
	p, err := PullCold(pullOptions(fsys, encoder(t), 10_000_000), "cold/export.md", store.ColdSession{})
	if err != nil || p.Whole || !p.Huge || !strings.Contains(p.Text, "is over 4 MiB") || !strings.Contains(p.Text, "First sentence of the export.") {
		t.Fatalf("huge: %v %+v", err, p)
	}
}

// TestColdDocumentsKeepNoLines proves a cold document pulled, or listed
// while the cold index does not keep its count, is remembered by the
// content cache as one text: none of its lines is kept alone, since no
// start counts it again in part, and every start loads that cache.
func TestColdDocumentsKeepNoLines(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	b.WriteString("# Notes\n\n")
	for i := range 40 {
		fmt.Fprintf(&b, "- Finding %d of the audit, written out at length so that the line is a long one.\n", i)
	}
	line := "- Finding 7 of the audit, written out at length so that the line is a long one.\n"
	for _, tc := range []struct {
		name string
		run  func(o Options) error
	}{
		{"pull", func(o Options) error { _, err := PullCold(o, "cold/notes.md", store.ColdSession{}); return err }},
		{"listing, just written", func(o Options) error { _, _, err := BuildTOC(o, NoFold); return err }},
	} {
		fsys := coldtree.FS(t, []coldtree.File{{Path: "cold/notes.md", Data: b.String(), Age: 0}})
		c := budget.NewCache(tiers.EncodingCL100K, encoder(t), nil)
		o := pullOptions(fsys, c, 100000)
		o.Index = NewIndex(tiers.EncodingCL100K, nil)
		if err := tc.run(o); err != nil {
			t.Fatal(err)
		}
		enc := encoder(t)
		next := budget.NewCache(tiers.EncodingCL100K, enc, c.Marshal())
		if next.CountTransient(b.String()); enc.Built() {
			t.Errorf("%s: the document's count was not kept", tc.name)
		}
		if next.CountTransient(line); !enc.Built() {
			t.Errorf("%s: a line of the document was kept alone", tc.name)
		}
	}
}
