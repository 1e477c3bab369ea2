// Package coldtree makes cold tiers for tests: a few documents, or a
// deterministic archive of hundreds, under /r on an in-memory file system.
package coldtree

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spf13/afero"
)

// T0 is the clock the trees' ages are measured from.
var T0 = time.Date(2026, 11, 22, 3, 24, 20, 0, time.UTC)

// File is a cold document for a test root: its path under the root,
// content and age.
type File struct {
	Path string
	Data string
	Age  time.Duration
}

// FS lays files out under /r on an in-memory file system, each modified
// its age before T0.
func FS(t testing.TB, files []File) afero.Fs {
	t.Helper()
	fsys := afero.NewMemMapFs()
	for _, f := range files {
		name := filepath.Join("/r", f.Path)
		if err := afero.WriteFile(fsys, name, []byte(f.Data), 0o644); err != nil {
			t.Fatal(err)
		}
		when := T0.Add(-f.Age)
		fsys.Chtimes(name, when, when)
	}
	return fsys
}

// Large is a deterministic archive of years/months with ten documents
// each, plus a few loose documents and a deep corner.
func Large() []File {
	var files []File
	n := 0
	for y := 2023; y <= 2025; y++ {
		for m := 1; m <= 12; m++ {
			for i := range 10 {
				n++
				age := time.Duration(n) * time.Hour
				if y == 2025 {
					age = time.Duration(400-n) * time.Minute
				}
				files = append(files, File{
					fmt.Sprintf("cold/%d/%02d/note-%02d.md", y, m, i),
					fmt.Sprintf("---\nsummary: Note %d of %d-%02d on component %d\n---\n# Note\n\n%s\n", i, y, m, n%13, strings.Repeat("Some archived detail. ", n%7+1)),
					age,
				})
			}
		}
	}
	files = append(files,
		File{"cold/sessions/2026-11-20T09-00-00Z.md", "---\nsummary: Rounding fixed.\n---\n", time.Hour},
		File{"cold/sessions/2026-11-19T09-00-00Z.md", "---\nsummary: Importer rewritten.\n---\n", 25 * time.Hour},
		File{"cold/index.md", "# Archive index\n", 3 * time.Hour},
		File{"cold/research/a/b/c/deep.md", "# Deep\n", 3 * time.Hour},
	)
	return files
}
