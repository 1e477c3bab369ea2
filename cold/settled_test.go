package cold

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/tiers"
)

// settledRoot lays n documents out under cold/notes/ of a real directory
// (the inode numbers a trusting scan goes by are the operating system's)
// and scans it once through the index, saved: d00.md to d(n-1).md.
func settledRoot(t *testing.T, n int) (afero.Fs, string) {
	t.Helper()
	root := t.TempDir()
	for i := range n {
		p := filepath.Join(root, "cold", "notes", fmt.Sprintf("d%02d.md", i))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(fmt.Sprintf("# Note %d\n\nText.\n", i)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	fsys := afero.NewOsFs()
	settledScan(t, fsys, root, OpenIndex, later)
	return fsys, root
}

// later is a clock two days after the documents were written: all of
// them settled.
func later() time.Time { return time.Now().Add(48 * time.Hour) }

// settledScan scans root through the index open returns, at the clock
// now, and saves it.
func settledScan(t *testing.T, fsys afero.Fs, root string, open func(afero.Fs, string, string) *Index, now func() time.Time) *Index {
	t.Helper()
	o := Options{FS: fsys, Root: root, Config: tiers.DefaultConfig(), Counter: encoder(t), Now: now}
	o.Index = open(fsys, root, o.Config.Encoding)
	if warns := Scan(o); len(warns) != 0 {
		t.Fatalf("warnings: %v", warns)
	}
	if err := SaveIndex(fsys, root, o.Index); err != nil {
		t.Fatal(err)
	}
	return o.Index
}

// editInPlace rewrites the document at rel in place, its inode kept, with
// another size.
func editInPlace(t *testing.T, root, rel string) {
	t.Helper()
	f, err := os.OpenFile(filepath.Join(root, filepath.FromSlash(rel)), os.O_WRONLY|os.O_TRUNC, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString("# Edited in place\n\nLonger text than before.\n"); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

func withVerifyPerScan(t *testing.T, n int) {
	old := verifyPerScan
	verifyPerScan = n
	t.Cleanup(func() { verifyPerScan = old })
}

// TestSettledScanSeesListingChanges proves a trusting scan sees at once
// what changes a directory's listing: a document added, one removed, one
// replaced by a rename over it with its size and times set back as they
// were, though none of them is in the rotation.
func TestSettledScanSeesListingChanges(t *testing.T) {
	withVerifyPerScan(t, 1)
	fsys, root := settledRoot(t, 10)
	notes := filepath.Join(root, "cold", "notes")
	if err := os.WriteFile(filepath.Join(notes, "new.md"), []byte("# New\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(notes, "d05.md")); err != nil {
		t.Fatal(err)
	}
	old, err := os.Stat(filepath.Join(notes, "d07.md"))
	if err != nil {
		t.Fatal(err)
	}
	tmp := filepath.Join(notes, ".d07.tmp")
	if err := os.WriteFile(tmp, []byte("# Note X\n\nText.\n"), 0o644); err != nil { // the same size
		t.Fatal(err)
	}
	if err := os.Chtimes(tmp, old.ModTime(), old.ModTime()); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, filepath.Join(notes, "d07.md")); err != nil {
		t.Fatal(err)
	}
	x := settledScan(t, fsys, root, OpenIndexSettled, later)
	found, learnt := x.Found(), x.Learnt()
	if _, ok := found["cold/notes/new.md"]; !ok {
		t.Error("an added document was not found")
	}
	if _, ok := found["cold/notes/d05.md"]; ok {
		t.Error("a removed document was found")
	}
	if _, ok := learnt["cold/notes/d07.md"]; !ok {
		t.Error("a document replaced under its name, its size and time kept, was not read again")
	}
	if len(found) != 10 || len(learnt) != 2 {
		t.Errorf("found %d, read %d: %v", len(found), len(learnt), learnt)
	}
}

// TestSettledScanRotation proves a document rewritten in place, its inode
// kept, is not seen by a trusting scan until the rotation reaches it, and
// then within ceil(documents / verifyPerScan) scans; a scan that trusts
// nothing (`wake cold`'s) sees it at once.
func TestSettledScanRotation(t *testing.T) {
	linuxOnly(t)
	withVerifyPerScan(t, 3)
	fsys, root := settledRoot(t, 10)
	editInPlace(t, root, "cold/notes/d09.md")
	if _, ok := scanOnce(t, fsys, root, OpenIndex, later).Learnt()["cold/notes/d09.md"]; !ok {
		t.Fatal("a full scan did not see the edit")
	}
	// From the first document, three a scan: d09 is the fourth's.
	if got := seenAt(t, fsys, root, "cold/notes/d09.md", later); got != 4 {
		t.Fatalf("the edit in place was seen by trusting scan %d, want 4", got)
	}
}

// TestSettledScanRecent proves a document modified within settledAge is
// lstat'ed by every scan, rotation or not: an edit in place of one just
// written (and so of one whose time is within the racy window) is seen at
// once.
func TestSettledScanRecent(t *testing.T) {
	withVerifyPerScan(t, 1)
	fsys, root := settledRoot(t, 10)
	editInPlace(t, root, "cold/notes/d09.md")
	if got := seenAt(t, fsys, root, "cold/notes/d09.md", time.Now); got != 1 {
		t.Fatalf("the edit in place of a recent document was seen by scan %d, want 1", got)
	}
}

// TestSettledScanCorruptRecords proves a corrupt rotation record starts
// the rotation from the first document, and a corrupt index has a trusting
// scan read every document.
func TestSettledScanCorruptRecords(t *testing.T) {
	linuxOnly(t)
	withVerifyPerScan(t, 3)
	fsys, root := settledRoot(t, 10)
	state := filepath.Join(root, tiers.StateDir)
	for range 2 {
		scanOnce(t, fsys, root, OpenIndexSettled, later)
	}
	if err := os.WriteFile(filepath.Join(state, VerifiedFile), []byte("wake cold verified v1\ncold/notes/d05.md"), 0o644); err != nil { // cut short
		t.Fatal(err)
	}
	editInPlace(t, root, "cold/notes/d01.md")
	if got := seenAt(t, fsys, root, "cold/notes/d01.md", later); got != 1 {
		t.Fatalf("after a corrupt rotation record, the first document's edit was seen by scan %d, want 1", got)
	}
	if err := os.WriteFile(filepath.Join(state, IndexFile), []byte("wake cold index v7 "+tiers.EncodingCL100K+"\nx\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if n := len(scanOnce(t, fsys, root, OpenIndexSettled, later).Learnt()); n != 10 {
		t.Fatalf("a corrupt index: %d documents read, want 10", n)
	}
}

func linuxOnly(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("elsewhere directories are listed without inode numbers: every scan lstats every document")
	}
}

// scanOnce scans root through the index open returns without saving it.
func scanOnce(t *testing.T, fsys afero.Fs, root string, open func(afero.Fs, string, string) *Index, now func() time.Time) *Index {
	t.Helper()
	o := Options{FS: fsys, Root: root, Config: tiers.DefaultConfig(), Counter: encoder(t), Now: now}
	o.Index = open(fsys, root, o.Config.Encoding)
	if warns := Scan(o); len(warns) != 0 {
		t.Fatalf("warnings: %v", warns)
	}
	return o.Index
}

// seenAt runs trusting scans, each saved, until one reads the document
// at rel, and returns its number (0 after twenty).
func seenAt(t *testing.T, fsys afero.Fs, root, rel string, now func() time.Time) int {
	t.Helper()
	for i := 1; i <= 20; i++ {
		if _, ok := settledScan(t, fsys, root, OpenIndexSettled, now).Learnt()[rel]; ok {
			return i
		}
	}
	return 0
}

// TestRotationOrder proves the rotation picks, without sorting the index,
// what going round the sorted paths from the last one taken picks.
func TestRotationOrder(t *testing.T) {
	for _, tc := range []struct{ n, k int }{{10, 3}, {10, 10}, {5, 8}, {200, 64}, {1, 1}} {
		x := NewIndex("cl100k_base", nil)
		var paths []string
		for i := range tc.n {
			p := fmt.Sprintf("cold/%03d.md", (i*37)%tc.n) // not in order
			x.entries[p] = &Entry{loaded: true}
			paths = append(paths, p)
		}
		slices.Sort(paths)
		x.settled = &settled{}
		old := verifyPerScan
		verifyPerScan = tc.k
		next := 0
		for scan := range 2*tc.n/tc.k + 2 {
			got := x.rotation()
			var want []string
			for j := range min(tc.k, tc.n) {
				want = append(want, paths[(next+j)%tc.n])
			}
			next = (next + min(tc.k, tc.n)) % tc.n
			if len(got) != len(want) || x.settled.next != want[len(want)-1] {
				t.Fatalf("n %d k %d scan %d: %v, next %q; want %v", tc.n, tc.k, scan, got, x.settled.next, want)
			}
			for _, p := range want {
				if _, ok := got[p]; !ok {
					t.Fatalf("n %d k %d scan %d: %v lacks %s", tc.n, tc.k, scan, got, p)
				}
			}
			x.settled.after = x.settled.next
		}
		verifyPerScan = old
	}
}
