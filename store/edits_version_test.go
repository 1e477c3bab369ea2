package store

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/tiers"
)

// TestVersionOfMatchesRead proves that the version the scan of cold/ takes
// of a document it read (VersionOf, with the front matter it parsed, or
// without) is the one a look reading the document itself takes: the same
// hash, level, line count and signature.
func TestVersionOfMatchesRead(t *testing.T) {
	t.Parallel()
	long := "---\nsummary: " + strings.Repeat("long ", 4000) + "\n---\n# Long\n"
	docs := map[string]string{
		"cold/plain.md":    "---\nsummary: Plain\n---\n# Plain\n\nSome text.\n## Part\nMore.\n",
		"cold/none.md":     "# No front matter\n\ntext\n",
		"cold/conf.md":     "---\nsensitivity: confidential\n---\n# Salaries\n\nBen: 1\n",
		"cold/secret.md":   "---\nsensitivity: secret\n---\nsk-123\n",
		"cold/broken.md":   "---\nsummary: [unclosed\n---\n# Broken\n",
		"cold/empty.md":    "",
		"cold/long.md":     long,
		"cold/crlf.md":     "---\r\nsummary: CRLF\r\n---\r\n# CRLF\r\nline\r\n",
		"cold/big.md":      "# Big\n" + strings.Repeat("a line of the body\n", 2000),
		"cold/unclosed.md": "---\nsummary: never closed\n# Heading\n",
	}
	fsys := afero.NewMemMapFs()
	now := time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC)
	for rel, data := range docs {
		afero.WriteFile(fsys, "/r/"+rel, []byte(data), 0o644)
	}
	for rel, data := range docs {
		want, _, err := readVersion(fsys, "/r", rel, now)
		if err != nil || want == nil {
			t.Fatalf("%s: %v %v", rel, want, err)
		}
		want.rec.Size, want.rec.MTime, want.rec.Racy = 0, 0, false
		h := tiers.ParseColdHead([]byte(data), true)
		heads := map[string]*tiers.ColdHead{"parsed here": nil}
		if len(data) <= tiers.ColdHeadBytes {
			heads["parsed by the scan"] = &h
		}
		for how, head := range heads {
			got := VersionOf([]byte(data), head).v
			if got.rec != want.rec || !reflect.DeepEqual(got.sig, want.sig) {
				t.Errorf("%s, front matter %s: VersionOf %+v %v, read %+v %v", rel, how, got.rec, got.sig, want.rec, want.sig)
			}
		}
	}
}
