package tiers_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/internal/fsrecord"
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

// slowFs is the operating system's file system under another type, so
// that the reader takes the common way: each directory on a document's
// path checked, then the whole path opened.
type slowFs struct{ *afero.OsFs }

// TestColdReaderBeneathMatchesTheCommonWay proves a document opened
// beneath the root in one openat2 reads as the common way reads it, for
// each kind of entry a cold tier may hold: a plain document, one in a
// nested directory, symlinks inside and leading out (relative and
// absolute, to a file and to a directory), a named pipe (never waited
// on), a directory named as a document, an empty file and a missing one;
// and that through a recording of the file system a plain document is
// noted by its own path alone, no lstat of each directory on the way (the
// way that costs a first load three system calls a document).
func TestColdReaderBeneathMatchesTheCommonWay(t *testing.T) {
	dir := t.TempDir()
	root := filepath.Join(dir, "root")
	outside := filepath.Join(dir, "outside")
	for _, d := range []string{"cold/a/b", "cold/dir.md"} {
		if err := os.MkdirAll(filepath.Join(root, filepath.FromSlash(d)), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(outside, 0o755); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"root/cold/plain.md":    "---\nsummary: Plain\n---\n# Plain\n",
		"root/cold/a/b/deep.md": "# Deep\n",
		"root/cold/empty.md":    "",
		"outside/secret.md":     "# TOP SECRET\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(name)), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for link, target := range map[string]string{
		"cold/rel-in.md":  "plain.md",
		"cold/abs-in.md":  filepath.Join(root, "cold", "plain.md"),
		"cold/rel-out.md": "../../outside/secret.md",
		"cold/abs-out.md": filepath.Join(outside, "secret.md"),
		"cold/linkdir":    "a",
	} {
		if err := os.Symlink(target, filepath.Join(root, filepath.FromSlash(link))); err != nil {
			t.Fatal(err)
		}
	}
	fifo := filepath.Join(root, "cold", "pipe.md")
	if err := unixMkfifo(fifo); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	rels := []string{"cold/plain.md", "cold/a/b/deep.md", "cold/empty.md", "cold/rel-in.md", "cold/abs-in.md",
		"cold/rel-out.md", "cold/abs-out.md", "cold/linkdir/b/deep.md", "cold/pipe.md", "cold/dir.md", "cold/gone.md"}
	read := func(fsys afero.Fs, rel string) tiers.Doc {
		t.Helper()
		r, err := tiers.NewColdReader(fsys, root)
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		d, _, err := r.ReadInto(rel, nil)
		if err != nil {
			t.Fatalf("%s: %v", rel, err)
		}
		d.Content = append([]byte(nil), d.Content...)
		return d
	}
	for _, rel := range rels {
		fast, slow := read(afero.NewOsFs(), rel), read(slowFs{&afero.OsFs{}}, rel)
		if fast.Missing != slow.Missing || fast.Skipped != slow.Skipped || string(fast.Content) != string(slow.Content) ||
			fast.Size != slow.Size || !fast.ModTime.Equal(slow.ModTime) || fast.Huge != slow.Huge {
			t.Errorf("%s: beneath the root %+v, the common way %+v", rel, fast, slow)
		}
		if strings.Contains(string(fast.Content), "SECRET") {
			t.Errorf("%s: read from outside the root", rel)
		}
	}

	rec := fsrecord.New(afero.NewOsFs(), nil)
	if d := read(rec, "cold/a/b/deep.md"); string(d.Content) != "# Deep\n" {
		t.Fatalf("through a recording: %q", d.Content)
	}
	key, _ := rec.Key(time.Now())
	var noted []string // under cold/: the root itself is resolved once a reader
	for _, e := range key {
		if strings.HasPrefix(e.Path, filepath.Join(root, "cold")) {
			noted = append(noted, e.Path)
		}
	}
	if want := []string{filepath.Join(root, "cold", "a", "b", "deep.md")}; !slices.Equal(noted, want) {
		t.Errorf("the recording noted %q under cold/, want the document alone: %q", noted, want)
	}
}
