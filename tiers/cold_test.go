package tiers

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/spf13/afero"
)

func TestScanCold(t *testing.T) {
	t.Parallel()
	fs := afero.NewMemMapFs()
	when := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	contents := map[string]string{
		"/r/cold/b.md":                "b",
		"/r/cold/a/z.md":              "zz",
		"/r/cold/a/deep/x.txt":        "xxx",
		"/r/cold/.a.md.tmp-123":       "temporary",
		"/r/cold/.git/config":         "hidden",
		"/r/warm/active_tasks.md":     "not cold",
		"/r/cold/sessions/2026-01.md": "s",
	}
	for name, data := range contents {
		afero.WriteFile(fs, name, []byte(data), 0o644)
		fs.Chtimes(name, when, when)
	}
	files, warns, err := ScanCold(fs, "/r")
	if err != nil || len(warns) != 0 {
		t.Fatalf("err %v warnings %v", err, warns)
	}
	var got []string
	for _, f := range files {
		got = append(got, f.Path)
		if !f.ModTime.Equal(when) || f.Size != int64(len(contents["/r/"+f.Path])) {
			t.Errorf("%s: size %d time %v", f.Path, f.Size, f.ModTime)
		}
	}
	want := "cold/a/deep/x.txt cold/a/z.md cold/b.md cold/sessions/2026-01.md"
	if strings.Join(got, " ") != want {
		t.Fatalf("got %v, want %s", got, want)
	}
	if files, warns, err := ScanCold(afero.NewMemMapFs(), "/r"); files != nil || warns != nil || err != nil {
		t.Fatalf("missing cold/: %v %v %v", files, warns, err)
	}
}

// TestScanColdSymlinks proves the scan follows a link only to a file inside
// the root, and skips links leading out, links to directories and dangling
// links with a warning each.
func TestScanColdSymlinks(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	root, outside := filepath.Join(dir, "root"), filepath.Join(dir, "outside")
	for _, d := range []string{filepath.Join(root, "cold", "notes"), outside} {
		os.MkdirAll(d, 0o755)
	}
	os.WriteFile(filepath.Join(outside, "secret.md"), []byte("secret\n"), 0o644)
	os.WriteFile(filepath.Join(root, "main.md"), []byte("inside\n"), 0o644)
	os.WriteFile(filepath.Join(root, "cold", "notes", "real.md"), []byte("real\n"), 0o644)
	links := map[string]string{
		"cold/out.md":      filepath.Join(outside, "secret.md"),
		"cold/relout.md":   "../../outside/secret.md",
		"cold/main.md":     "../main.md",
		"cold/outdir":      outside,
		"cold/notes-again": "notes",
		"cold/gone.md":     "nowhere.md",
	}
	for rel, target := range links {
		if err := os.Symlink(target, filepath.Join(root, rel)); err != nil {
			t.Skipf("symlinks unavailable: %v", err)
		}
	}
	files, warns, err := ScanCold(afero.NewOsFs(), root)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range files {
		got = append(got, f.Path)
	}
	if strings.Join(got, " ") != "cold/main.md cold/notes/real.md" {
		t.Fatalf("files %v", got)
	}
	all := strings.Join(warns, "\n")
	for _, want := range []string{
		"cold/out.md: skipped: symlink cold/out.md leads outside the memory root",
		"cold/relout.md: skipped: symlink cold/relout.md leads outside the memory root",
		"cold/outdir: skipped: symlink cold/outdir leads outside the memory root",
		"cold/notes-again: skipped: symlink to a directory; not followed",
		"cold/gone.md: skipped: dangling symlink",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("no warning %q in:\n%s", want, all)
		}
	}
	if len(warns) != 5 {
		t.Errorf("%d warnings:\n%s", len(warns), all)
	}

	// cold/ itself a link out of the root: nothing listed.
	root2 := filepath.Join(dir, "root2")
	os.MkdirAll(root2, 0o755)
	os.Symlink(outside, filepath.Join(root2, "cold"))
	files, warns, err = ScanCold(afero.NewOsFs(), root2)
	if err != nil || len(files) != 0 || len(warns) != 1 || !strings.Contains(warns[0], "leads outside the memory root") {
		t.Fatalf("cold/ linked out: %v %v %v", files, warns, err)
	}
}

func TestParseColdHead(t *testing.T) {
	t.Parallel()
	long := "---\nsummary: s\n" + strings.Repeat("k: v\n", ColdHeadBytes/5+10) + "---\n# H\n"
	for _, tc := range []struct {
		name    string
		data    string
		whole   bool
		summary string
		heading string
		sens    string
		metaErr string
		binary  bool
	}{
		{"summary and heading", "---\nsummary: The doc\nsensitivity: confidential\n---\n<!-- # not this -->\n# Title\n", true, "The doc", "Title", "confidential", "", false},
		{"heading only", "intro\n\n```\n# code\n```\n## Second level\n", true, "", "Second level", "", "", false},
		{"nothing", "plain text\n", true, "", "", "", "", false},
		{"binary", "abc\x00", true, "", "", "", "", true},
		{"bad yaml", "---\nsummary: [x\n---\n# T\n", true, "", "T", "", "malformed front matter", false},
		{"bad sensitivity", "---\nsensitivity: top\n---\n", true, "", "", "", "sensitivity is not public", false},
		{"misspelt sensitivity", "---\nsensitivity: secrte\n---\n", true, "", "", "", "sensitivity \"secrte\"", false},
		{"front matter past the head", long, false, "", "", "", "runs past the first 16 KiB", false},
		{"unclosed in a whole small file", "---\nsensitivity: secret\n# H\n", true, "", "H", "", "front matter opened at line 1 is never closed", false},
	} {
		h := ParseColdHead([]byte(tc.data), tc.whole)
		if h.Meta.Summary != tc.summary || h.Heading != tc.heading || h.Meta.Sensitivity != tc.sens || h.Binary != tc.binary ||
			(tc.metaErr == "") != (h.MetaErr == "") || !strings.Contains(h.MetaErr, tc.metaErr) {
			t.Errorf("%s: got %+v", tc.name, h)
		}
	}
	// Only the head is looked at: a heading past it is not found.
	far := strings.Repeat("text line\n", ColdHeadBytes/10+5) + "# Far\n"
	if h := ParseColdHead([]byte(far), true); h.Heading != "" {
		t.Fatalf("found %q past the head", h.Heading)
	}
}

func FuzzParseColdHead(f *testing.F) {
	for _, s := range []string{"---\nsummary: x\n---\n# H\n", "# only\n", "---\n", "\x00", "---\nsensitivity: secret\n---\n"} {
		f.Add([]byte(s), true)
	}
	f.Fuzz(func(t *testing.T, data []byte, whole bool) {
		h := ParseColdHead(data, whole)
		if h.Binary && (h.Heading != "" || h.Meta.Summary != "") {
			t.Fatalf("binary head with fields: %+v", h)
		}
		if strings.Contains(h.Heading, "\n") {
			t.Fatalf("multi-line heading %q", h.Heading)
		}
	})
}

func TestReadHead(t *testing.T) {
	t.Parallel()
	fs := afero.NewMemMapFs()
	big := "---\nsummary: big\nsensitivity: confidential\n---\n# Big\n" + strings.Repeat("x", 4*ColdHeadBytes)
	afero.WriteFile(fs, "/r/cold/big.md", []byte(big), 0o644)
	afero.WriteFile(fs, "/r/cold/small.md", []byte("# Small\n"), 0o644)
	h, ok, err := ReadHead(fs, "/r", "cold/big.md")
	if err != nil || !ok || h.Meta.Summary != "big" || h.Meta.Level() != Confidential || h.Heading != "Big" {
		t.Fatalf("big: %+v %v %v", h, ok, err)
	}
	if h, ok, err := ReadHead(fs, "/r", "cold/small.md"); err != nil || !ok || h.Heading != "Small" {
		t.Fatalf("small: %+v %v %v", h, ok, err)
	}
	for _, rel := range []string{"cold/missing.md", "cold"} {
		if _, ok, err := ReadHead(fs, "/r", rel); ok || err != nil {
			t.Errorf("%s: ok %v err %v", rel, ok, err)
		}
	}
}

// hiddenOS is the operating system's file system behind a wrapper whose
// files are not *os.File, so that the walk of cold/ takes its common path
// (an lstat of each whole path through the afero.Fs), not statAt.
type hiddenOS struct{ afero.Fs }

type hiddenFile struct{ afero.File }

func (h hiddenOS) Open(name string) (afero.File, error) {
	f, err := h.Fs.Open(name)
	if err != nil {
		return nil, err
	}
	return hiddenFile{f}, nil
}

func (h hiddenOS) LstatIfPossible(name string) (os.FileInfo, bool, error) {
	return h.Fs.(afero.Lstater).LstatIfPossible(name)
}

func (h hiddenOS) ReadlinkIfPossible(name string) (string, error) {
	return h.Fs.(afero.LinkReader).ReadlinkIfPossible(name)
}

// TestScanColdOrderAndStatAt proves the walk lists files in the order of
// their whole paths, with names that sort differently from their paths
// ("a-b" before "a/", "a.md" after "a-b/..." but before "a/..."), over
// several chunks of a directory; and that the lstat relative to an open
// directory gives what the lstat of each path does.
func TestScanColdOrderAndStatAt(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	var want []string
	write := func(rel string, age time.Duration) {
		name := filepath.Join(root, filepath.FromSlash(rel))
		os.MkdirAll(filepath.Dir(name), 0o755)
		if err := os.WriteFile(name, []byte(rel+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		when := time.Date(2026, 1, 2, 3, 4, 5, 123456789, time.UTC).Add(-age)
		os.Chtimes(name, when, when)
		want = append(want, rel)
	}
	for _, rel := range []string{"cold/a/x.md", "cold/a-b/y.md", "cold/a.md", "cold/a0", "cold/a/b/c.md", "cold/a/b-/d.md", "cold/a/b.md", "cold/Z.md"} {
		write(rel, time.Hour)
	}
	for i := range 3*scanChunk + 7 {
		write(fmt.Sprintf("cold/many/%d.md", i), time.Duration(i)*time.Second)
	}
	os.Symlink("../a.md", filepath.Join(root, "cold", "many", "link.md"))
	want = append(want, "cold/many/link.md")
	slices.Sort(want)

	fast, fastWarns, err := ScanCold(afero.NewOsFs(), root)
	if err != nil {
		t.Fatal(err)
	}
	slow, slowWarns, err := ScanCold(hiddenOS{afero.NewOsFs()}, root)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range fast {
		got = append(got, f.Path)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("listed\n%v\nwant\n%v", got, want)
	}
	if len(fastWarns) != 0 || len(slowWarns) != 0 {
		t.Fatalf("warnings %v %v", fastWarns, slowWarns)
	}
	if len(slow) != len(fast) {
		t.Fatalf("the common path lists %d files, statAt %d", len(slow), len(fast))
	}
	for i := range fast {
		if fast[i].Path != slow[i].Path || fast[i].Size != slow[i].Size || !fast[i].ModTime.Equal(slow[i].ModTime) {
			t.Errorf("statAt %+v, lstat %+v", fast[i], slow[i])
		}
	}
}

// TestScanColdKnown proves a walk takes from known the regular files it
// vouches for, by the inode number their directory lists, and lstats the
// rest: the listing is the same as ScanCold's, each file with its inode
// number; a known that vouches for nothing gives ScanCold's listing.
func TestScanColdKnown(t *testing.T) {
	t.Parallel()
	if runtime.GOOS != "linux" {
		t.Skip("directories are listed with inode numbers on Linux only")
	}
	root := t.TempDir()
	for i := range scanChunk + 3 {
		name := filepath.Join(root, "cold", "s", fmt.Sprintf("%03d.md", i))
		os.MkdirAll(filepath.Dir(name), 0o755)
		if err := os.WriteFile(name, []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.Symlink("s/000.md", filepath.Join(root, "cold", "link.md"))
	fsys := afero.NewOsFs()
	want, _, err := ScanCold(fsys, root)
	if err != nil {
		t.Fatal(err)
	}
	inos := map[string]uint64{}
	for _, f := range want {
		if f.Ino == 0 && f.Path != "cold/link.md" {
			t.Fatalf("%s: no inode number", f.Path)
		}
		inos[f.Path] = f.Ino
	}
	none, _, err := ScanColdKnown(fsys, root, func(string, uint64) (ColdFile, Vouch) { return ColdFile{}, Unknown })
	if err != nil || !slices.Equal(none, want) {
		t.Fatalf("vouching for nothing: %v %v", none, err)
	}
	var asked sync.Map
	vouched := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
	got, _, err := ScanColdKnown(fsys, root, func(rel string, ino uint64) (ColdFile, Vouch) {
		asked.Store(rel, ino)
		if strings.HasSuffix(rel, "7.md") {
			return ColdFile{Size: 99, ModTime: vouched}, Vouched
		}
		return ColdFile{Size: 99, ModTime: vouched}, Unknown
	})
	if err != nil || len(got) != len(want) {
		t.Fatalf("%d files, want %d: %v", len(got), len(want), err)
	}
	for i, f := range got {
		ino, ok := asked.Load(f.Path)
		switch {
		case f.Path == "cold/link.md":
			if ok {
				t.Errorf("a symlink was taken from known")
			}
		case !ok || ino != inos[f.Path]:
			t.Errorf("%s: known asked with inode %v, want %d", f.Path, ino, inos[f.Path])
		case strings.HasSuffix(f.Path, "7.md"):
			if f.Size != 99 || !f.ModTime.Equal(vouched) || f.Ino != inos[f.Path] {
				t.Errorf("%s: not taken from known: %+v", f.Path, f)
			}
		case f != want[i]:
			t.Errorf("%s: %+v, want %+v", f.Path, f, want[i])
		}
	}
}
