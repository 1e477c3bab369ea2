package tiers_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/tiers"
)

// TestColdReaderSymlinks proves the reader refuses what leads outside the
// root: a symlinked document in a plain directory, read after a plain
// document there, and a document under a symlinked directory, also after
// a document read through a plain directory that was then swapped for a
// symlink leading outside; and still reads what a symlink inside the root
// leads to.
func TestColdReaderSymlinks(t *testing.T) {
	dir := t.TempDir()
	root := filepath.Join(dir, "root")
	outside := filepath.Join(dir, "outside")
	for _, d := range []string{filepath.Join(root, "cold", "plain"), filepath.Join(outside, "d")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(name, text string) {
		if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(root, "cold", "plain", "doc.md"), "# inside\n")
	write(filepath.Join(outside, "secret.md"), "# TOP SECRET\n")
	write(filepath.Join(outside, "d", "doc.md"), "# TOP SECRET\n")
	for link, target := range map[string]string{
		"cold/plain/out.md": filepath.Join(outside, "secret.md"),
		"cold/outdir":       filepath.Join(outside, "d"),
		"cold/alias":        "plain",
		"cold/plain/in.md":  "doc.md",
	} {
		if err := os.Symlink(target, filepath.Join(root, filepath.FromSlash(link))); err != nil {
			t.Fatal(err)
		}
	}
	r, err := tiers.NewColdReader(afero.NewOsFs(), root)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ rel, skipped, content string }{
		{rel: "cold/plain/doc.md", content: "# inside\n"},
		{rel: "cold/plain/out.md", skipped: "symlink cold/plain/out.md leads outside the memory root"},
		{rel: "cold/outdir/doc.md", skipped: "symlink cold/outdir leads outside the memory root"},
		{rel: "cold/outdir/doc.md", skipped: "symlink cold/outdir leads outside the memory root"},
		{rel: "cold/alias/doc.md", content: "# inside\n"},
		{rel: "cold/plain/in.md", content: "# inside\n"},
		{rel: "cold/plain/gone.md"},
	} {
		d, _, err := r.ReadInto(c.rel, nil)
		if err != nil {
			t.Fatalf("%s: %v", c.rel, err)
		}
		switch {
		case c.skipped != "" && !strings.HasPrefix(d.Skipped, c.skipped):
			t.Errorf("%s: skipped %q, want %q", c.rel, d.Skipped, c.skipped)
		case c.skipped == "" && d.Skipped != "":
			t.Errorf("%s: skipped: %s", c.rel, d.Skipped)
		case string(d.Content) != c.content:
			t.Errorf("%s: read %q, want %q", c.rel, d.Content, c.content)
		case c.content == "" && c.skipped == "" && !d.Missing:
			t.Errorf("%s: not missing", c.rel)
		}
	}
}

// TestColdReaderDirectorySwapped proves a directory read from once and
// then swapped for a symlink leading outside the root is not followed by
// the same reader (a scan's reader lasts seconds on a first load).
func TestColdReaderDirectorySwapped(t *testing.T) {
	dir := t.TempDir()
	root := filepath.Join(dir, "root")
	d := filepath.Join(root, "cold", "d")
	outside := filepath.Join(dir, "outside")
	for _, p := range []string{d, outside} {
		if err := os.MkdirAll(p, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(d, "a.md"), []byte("# inside\n"), 0o644)
	os.WriteFile(filepath.Join(outside, "b.md"), []byte("# TOP SECRET\n"), 0o644)
	r, err := tiers.NewColdReader(afero.NewOsFs(), root)
	if err != nil {
		t.Fatal(err)
	}
	if doc, _, err := r.ReadInto("cold/d/a.md", nil); err != nil || string(doc.Content) != "# inside\n" {
		t.Fatalf("cold/d/a.md: %q, %v", doc.Content, err)
	}
	if err := os.Rename(d, filepath.Join(dir, "kept")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, d); err != nil {
		t.Fatal(err)
	}
	doc, _, err := r.ReadInto("cold/d/b.md", nil)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(doc.Content), "SECRET") || !strings.Contains(doc.Skipped, "leads outside the memory root") {
		t.Errorf("read through a directory swapped for a symlink leading outside: %q (skipped %q)", doc.Content, doc.Skipped)
	}
}
