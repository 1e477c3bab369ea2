// Package golden compares test output with golden files under testdata/,
// rewritten by go test -update, as go/printer's tests do: shared by the
// packages whose outputs have golden files.
package golden

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sergi/go-diff/diffmatchpatch"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// Check compares got with testdata/name of the test's package, showing a
// line diff on a mismatch, and rewrites the file instead under -update.
func Check(t testing.TB, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test with -update to create it)", err)
	}
	if string(want) != got {
		dmp := diffmatchpatch.New()
		a, b, lines := dmp.DiffLinesToChars(string(want), got)
		diffs := dmp.DiffCharsToLines(dmp.DiffMain(a, b, false), lines)
		var d strings.Builder
		for _, df := range diffs {
			prefix := map[diffmatchpatch.Operation]string{diffmatchpatch.DiffDelete: "-", diffmatchpatch.DiffInsert: "+", diffmatchpatch.DiffEqual: " "}[df.Type]
			for _, l := range strings.SplitAfter(strings.TrimSuffix(df.Text, "\n"), "\n") {
				if df.Type != diffmatchpatch.DiffEqual {
					d.WriteString(prefix + strings.TrimSuffix(l, "\n") + "\n")
				}
			}
		}
		t.Errorf("%s differs (-want +got; go test ./boot -update rewrites it):\n%s", path, d.String())
	}
}
