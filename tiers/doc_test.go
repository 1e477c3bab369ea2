package tiers

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/afero"
)

func TestReadDocCases(t *testing.T) {
	t.Parallel()
	fs := afero.NewMemMapFs()
	files := map[string]string{
		"/r/main.md":              "---\nsummary: the main file\n---\n# P\n",
		"/r/warm/bin.md":          "abc\x00def",
		"/r/warm/latin1.md":       "ok\ncaf\xe9\n",
		"/r/warm/badfm.md":        "---\nsummary: [unclosed\n---\nbody\n",
		"/r/warm/badsens.md":      "---\nsensitivity: top\n---\nbody\n",
		"/r/warm/nofm.md":         "# Just a heading\n",
		"/r/warm/unterminated.md": "---\nsummary: x\nno closing\n",
	}
	for name, data := range files {
		afero.WriteFile(fs, name, []byte(data), 0o644)
	}
	fs.MkdirAll("/r/warm/dir.md", 0o755)

	d := mustRead(t, fs, "main.md")
	if d.Meta.Summary != "the main file" || string(d.Content) != files["/r/main.md"] || d.Size != int64(len(files["/r/main.md"])) {
		t.Errorf("main.md: %+v", d)
	}
	if d := mustRead(t, fs, "recent/latest.md"); !d.Missing || d.Readable() {
		t.Errorf("missing file: %+v", d)
	}
	if d := mustRead(t, fs, "warm/bin.md"); !strings.Contains(d.Skipped, "NUL byte at offset 3") || d.Content != nil {
		t.Errorf("binary file: %+v", d)
	}
	d = mustRead(t, fs, "warm/latin1.md")
	if !d.Readable() || string(d.Content) != files["/r/warm/latin1.md"] || len(d.Warnings) != 1 || !strings.Contains(d.Warnings[0], "warm/latin1.md:2: invalid UTF-8") {
		t.Errorf("invalid UTF-8: %+v", d)
	}
	for _, name := range []string{"warm/badfm.md", "warm/badsens.md"} {
		if d := mustRead(t, fs, name); !d.Readable() || len(d.Warnings) != 1 || !strings.Contains(d.Warnings[0], name) {
			t.Errorf("%s: %+v", name, d)
		}
	}
	// An unclosed block hides its keys (a sensitivity among them), so it is
	// an error the policy treats as secret, never "no front matter".
	if d := mustRead(t, fs, "warm/unterminated.md"); len(d.Warnings) != 1 || !strings.Contains(d.Warnings[0], "warm/unterminated.md: front matter opened at line 1 is never closed") {
		t.Errorf("unterminated front matter: %+v", d)
	}
	if d := mustRead(t, fs, "warm/dir.md"); d.Skipped == "" {
		t.Errorf("directory read as a document: %+v", d)
	}
}

func TestReadDocHuge(t *testing.T) {
	t.Parallel()
	fs := afero.NewMemMapFs()
	line := strings.Repeat("word ", 19) + "end\n"
	big := strings.Repeat(line, MaxDocBytes/len(line)+10)
	afero.WriteFile(fs, "/r/warm/decisions.md", []byte(big), 0o644)
	d := mustRead(t, fs, "warm/decisions.md")
	if !d.Huge || d.Size != int64(len(big)) || len(d.Content) > HeadBytes || !bytes.HasSuffix(d.Content, []byte("end\n")) {
		t.Fatalf("huge: huge=%v size=%d head=%d", d.Huge, d.Size, len(d.Content))
	}
}

func TestReadDocSymlinks(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	root := filepath.Join(dir, "root")
	outside := filepath.Join(dir, "outside")
	for _, d := range []string{filepath.Join(root, "warm"), filepath.Join(root, "recent"), outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(outside, "secret.md"), []byte("secret\n"), 0o644)
	os.WriteFile(filepath.Join(root, "main.md"), []byte("inside\n"), 0o644)
	links := map[string]string{
		filepath.Join(root, "warm", "decisions.md"): filepath.Join(outside, "secret.md"),
		filepath.Join(root, "warm", "relative.md"):  "../../outside/secret.md",
		filepath.Join(root, "warm", "inside.md"):    "../main.md",
		filepath.Join(root, "warm", "chain.md"):     "inside.md",
		filepath.Join(root, "warm", "dangling.md"):  "nowhere.md",
		filepath.Join(root, "cold"):                 outside,
	}
	for link, target := range links {
		if err := os.Symlink(target, link); err != nil {
			t.Skipf("symlinks unavailable: %v", err)
		}
	}
	fs := afero.NewOsFs()
	for _, rel := range []string{"warm/decisions.md", "warm/relative.md", "cold/secret.md"} {
		d, err := ReadDoc(fs, root, rel)
		if err != nil || !strings.Contains(d.Skipped, "leads outside the memory root") || d.Content != nil {
			t.Errorf("%s: followed a link out of the root: %+v, %v", rel, d, err)
		}
	}
	for _, rel := range []string{"warm/inside.md", "warm/chain.md"} {
		d, err := ReadDoc(fs, root, rel)
		if err != nil || string(d.Content) != "inside\n" {
			t.Errorf("%s: link inside the root not followed: %+v, %v", rel, d, err)
		}
	}
	if d, err := ReadDoc(fs, root, "warm/dangling.md"); err != nil || !d.Missing {
		t.Errorf("dangling link: %+v, %v", d, err)
	}
}

func mustRead(t *testing.T, fs afero.Fs, rel string) Doc {
	t.Helper()
	d, err := ReadDoc(fs, "/r", rel)
	if err != nil {
		t.Fatalf("%s: %v", rel, err)
	}
	return d
}

func FuzzFrontMatter(f *testing.F) {
	for _, s := range []string{"---\nsummary: x\n---\nbody", "---\n---\n", "---\r\nsummary: y\r\n---\r\n", "no front matter", "---\n: :\n---\n", "---\nsensitivity: secret\n---"} {
		f.Add([]byte(s))
	}
	for _, tc := range secretSpellings {
		f.Add([]byte(tc.doc))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, body, err := ParseFrontMatter(data)
		if err == nil && !bytes.HasSuffix(data, body) {
			t.Fatalf("body %q is not a suffix of %q", body, data)
		}
		if err != nil {
			if !bytes.Equal(body, data) || m != (FrontMatter{}) {
				t.Fatalf("an error kept keys %+v or cut the body", m)
			}
			return
		}
		if lvl, ok := normalLevel(m.Sensitivity); !ok || lvl != m.Sensitivity {
			t.Fatalf("level %q", m.Sensitivity)
		}
		// A document read as having no front matter has no keys.
		if _, _, ok := SplitFrontMatter(data); !ok && m != (FrontMatter{}) {
			t.Fatalf("keys without a block: %+v", m)
		}
	})
}
