package store

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/tiers"
)

// TestWrittenIDsRecord checks the answer read through the record of a
// last answer against the ledger read whole: after appends, a torn last
// line and its closing, a hand edit within what the record covers, a cut
// ledger and one replaced by another file.
func TestWrittenIDsRecord(t *testing.T) {
	for _, osfs := range []bool{false, true} {
		t.Run(fmt.Sprintf("os=%v", osfs), func(t *testing.T) {
			var fs afero.Fs = afero.NewMemMapFs()
			root := "/r"
			if osfs {
				fs, root = afero.NewOsFs(), t.TempDir()
			}
			name := filepath.Join(root, tiers.LedgerPath)
			var lines []string
			line := func(i int, ids ...string) string {
				b, _ := json.Marshal(Entry{At: ledgerT0.Add(time.Duration(i) * time.Minute), Op: "decide", Paths: []string{tiers.DecisionsPath}, ChangeSummary: fmt.Sprintf("d %d %s", i, strings.Repeat("y", i%97)), DecisionIDs: ids})
				return string(b)
			}
			add := func(from, to int) {
				for i := from; i < to; i++ {
					if i%3 == 0 {
						lines = append(lines, line(i, fmt.Sprintf("d-%04x", i), fmt.Sprintf("d-%04x", i/2)))
					} else {
						lines = append(lines, line(i))
					}
				}
			}
			write := func(text string) {
				t.Helper()
				// In place, as an append or an editor that keeps the file.
				f, err := fs.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o644)
				if err != nil {
					t.Fatal(err)
				}
				f.WriteString(text)
				f.Close()
			}
			check := func(step string, save bool) {
				t.Helper()
				data, _ := afero.ReadFile(fs, name)
				want := scanWrittenIDs(data, nil, tiers.IDSet{})
				got, rec, err := writtenDecisionIDs(fs, root)
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("%s: %d IDs through the record, %d read whole:\n%v\n%v", step, len(got), len(want), got, want)
				}
				if save {
					saveWrittenIDs(fs, root, rec)
				}
			}
			fs.MkdirAll(filepath.Join(root, tiers.StateDir), 0o755)
			add(0, 300)
			write(strings.Join(lines, "\n") + "\n")
			check("first", true)
			if readWrittenIDs(fs, root) == nil {
				t.Fatal("no record written")
			}
			check("unchanged", true)
			add(300, 320)
			write(strings.Join(lines, "\n") + "\n")
			check("appended", true)
			// A torn last line naming an ID, then the line closed.
			torn := line(320, "d-torn")
			write(strings.Join(lines, "\n") + "\n" + torn[:len(torn)-5])
			check("torn", true)
			write(strings.Join(lines, "\n") + "\n" + torn + "\n")
			check("closed", true)
			lines = append(lines, torn)
			// A line naming IDs edited by hand, early and late.
			for _, i := range []int{3, len(lines) - 2} {
				lines[i] = strings.Replace(lines[i], `"decision_ids":["`, `"decision_ids":["d-hand","`, 1)
				write(strings.Join(lines, "\n") + "\n")
				check(fmt.Sprintf("edited line %d", i), true)
			}
			// Cut, then grown back past the record's end with other lines.
			lines = lines[:100]
			write(strings.Join(lines, "\n") + "\n")
			check("cut", true)
			add(1000, 1400)
			write(strings.Join(lines, "\n") + "\n")
			check("regrown", true)
			// Replaced by another file, of the same size.
			data, _ := afero.ReadFile(fs, name)
			other := strings.Replace(string(data), `"d-03e8"`, `"d-9999"`, 1)
			fs.Remove(name)
			afero.WriteFile(fs, name, []byte(other), 0o644)
			check("replaced", false)
			// A damaged record is one there is not.
			rec := filepath.Join(root, tiers.StateDir, WrittenIDsFile)
			b, _ := afero.ReadFile(fs, rec)
			afero.WriteFile(fs, rec, append(b[:len(b)-3], "}}}"...), 0o644)
			if readWrittenIDs(fs, root) != nil {
				t.Fatal("a damaged record was read")
			}
			check("damaged record", false)
		})
	}
}

// TestWrittenIDsRecordRoundTrip: a record reads back as it was written,
// a change summary holding tabs whole, and an empty one as none.
func TestWrittenIDsRecordRoundTrip(t *testing.T) {
	fs, root := afero.NewMemMapFs(), "/r"
	at := ledgerT0.Add(1500 * time.Millisecond)
	want := &writtenIDs{ledgerMark: ledgerMark{ino: 1, dev: 2, size: 300, tail: "abc"}, IDs: []WrittenID{
		{ID: "d-0001", At: at, Op: "decide", ChangeSummary: "a\tb\tc"},
		{ID: "d-0002", At: at.Add(time.Hour), Op: "reverse", ChangeSummary: ""},
	}}
	saveWrittenIDs(fs, root, want)
	got := readWrittenIDs(fs, root)
	if got == nil || got.ino != 1 || got.dev != 2 || got.size != 300 || got.tail != "abc" || len(got.IDs) != 2 {
		t.Fatalf("read back %+v", got)
	}
	for i, w := range want.IDs {
		if g := got.IDs[i]; g.ID != w.ID || !g.At.Equal(w.At) || g.Op != w.Op || g.ChangeSummary != w.ChangeSummary {
			t.Errorf("entry %d: %+v, want %+v", i, g, w)
		}
	}
	saveWrittenIDs(fs, root, &writtenIDs{ledgerMark: ledgerMark{ino: 1, dev: 2, size: 0, tail: "abc"}})
	if got := readWrittenIDs(fs, root); got == nil || got.IDs != nil {
		t.Fatalf("an empty record read back as %+v", got)
	}
}
