package store

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/tiers"
)

// TestArchivedIDsRecord checks the archive's IDs read through the record
// against the archive parsed: after an append, a hand edit in place with
// the size and modification time put back, a cut archive, one replaced
// by another file, a deleted one and a damaged record; and that a record
// whose key matches is what is read.
func TestArchivedIDsRecord(t *testing.T) {
	for _, osfs := range []bool{false, true} {
		t.Run(fmt.Sprintf("os=%v", osfs), func(t *testing.T) {
			var fs afero.Fs = afero.NewMemMapFs()
			root := "/r"
			if osfs {
				fs, root = afero.NewOsFs(), t.TempDir()
			}
			name := filepath.Join(root, filepath.FromSlash(DecisionsArchive))
			fs.MkdirAll(filepath.Dir(name), 0o755)
			fs.MkdirAll(filepath.Join(root, tiers.StateDir), 0o755)
			entry := func(i int) string {
				return fmt.Sprintf("[2026-01-%02d] DECISION: Keep m%d\nWhy: it works\nStatus: reversed\nID: d-%04x\n\n", 1+i%28, i, i)
			}
			var text strings.Builder
			for i := range 200 {
				text.WriteString(entry(i))
			}
			write := func(s string) {
				t.Helper()
				f, err := fs.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o644)
				if err != nil {
					t.Fatal(err)
				}
				f.WriteString(s)
				f.Close()
			}
			check := func(step string) {
				t.Helper()
				ar, err := ReadDecisionsArchive(fs, root)
				if err != nil {
					t.Fatal(err)
				}
				want := ar.IDs()
				got, err := ArchivedDecisionIDs(fs, root)
				if err != nil {
					t.Fatal(err)
				}
				if len(got) != len(want) {
					t.Fatalf("%s: %d IDs through the record, %d parsed", step, len(got), len(want))
				}
				for id := range want {
					if !got.Has(id) {
						t.Fatalf("%s: %s missing through the record", step, id)
					}
				}
			}
			check("no archive")
			write(text.String())
			check("first")
			if _, ok := readArchivedIDs(fs, root, name); !ok {
				t.Fatal("no record written, or not trusted")
			}
			check("unchanged")
			text.WriteString(entry(500))
			write(text.String())
			check("appended")
			// Edited by hand in place, the size and modification time put
			// back: an ID changed, a digit for a digit.
			fi, _ := fs.Stat(name)
			edited := strings.Replace(text.String(), "ID: d-0001\n", "ID: d-0009\n", 1)
			if osfs {
				time.Sleep(10 * time.Millisecond)
			}
			write(edited)
			fs.Chtimes(name, fi.ModTime(), fi.ModTime())
			check("edited in place")
			// Cut, replaced by another file, deleted.
			write(text.String()[:len(text.String())/2])
			check("cut")
			fs.Remove(name)
			afero.WriteFile(fs, name+".new", []byte(strings.Replace(text.String(), "ID: d-0002\n", "ID: d-0003\n", 1)), 0o644)
			fs.Rename(name+".new", name)
			check("replaced")
			fs.Remove(name)
			check("deleted")
			write(text.String())
			check("back")
			// A damaged record is one there is not.
			rec := filepath.Join(root, tiers.StateDir, ArchivedIDsFile)
			b, _ := afero.ReadFile(fs, rec)
			afero.WriteFile(fs, rec, append(b[:len(b)-3], "zz\n"...), 0o644)
			if _, ok := readArchivedIDs(fs, root, name); ok {
				t.Fatal("a damaged record was read")
			}
			check("damaged record")
			// A record whose key matches is read, not the archive.
			ids, _ := readArchivedIDs(fs, root, name)
			ids.Add("d-f00d")
			e, _ := readArchivedKey(fs, root)
			saveArchivedIDs(fs, root, ids, e)
			if got, _ := ArchivedDecisionIDs(fs, root); !got.Has("d-f00d") {
				t.Error("a record whose key matches was not read")
			}
		})
	}
}
