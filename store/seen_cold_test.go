package store

import (
	"bytes"
	"fmt"
	"maps"
	"os"
	"strings"
	"testing"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/tiers"
)

// TestSeenColdChanges proves the record of the cold documents is written
// whole only when its changes grow large: a few changes go to the changes
// file and the record stays as it was, a reader gets the records back
// with the changes applied (a document changed, added, forgotten), many
// changes write it whole under a new generation, and changes that follow
// another generation (the record written whole since) are not applied.
func TestSeenColdChanges(t *testing.T) {
	t.Parallel()
	fsys := afero.NewMemMapFs()
	const root = "/r"
	rec := func(i int) *seenRecord {
		return &seenRecord{Size: int64(100 + i), MTime: int64(i), Hash: fmt.Sprintf("%064x", i), Lines: i}
	}
	read := func() *seen {
		t.Helper()
		s := newSeen()
		s.loaded = true
		s.readCold(fsys, root)
		if !s.coldOK {
			t.Fatal("the record of the cold documents did not read")
		}
		return s
	}
	file := func(name string) []byte {
		b, _ := afero.ReadFile(fsys, root+"/"+tiers.StateDir+"/"+name)
		return b
	}
	s := newSeen()
	s.coldRead = true
	for i := range 200 {
		s.set(fmt.Sprintf("cold/sessions/s%03d.md", i), rec(i), nil)
	}
	if err := s.saveCold(fsys, root); err != nil {
		t.Fatal(err)
	}
	whole := file(SeenColdFile)
	if !bytes.HasPrefix(whole, []byte(seenColdHeaderGen)) {
		t.Fatalf("the record was not written whole with a generation: %.60q", whole)
	}

	// A change, an addition, a document forgotten: three lines apart.
	s = read()
	s.set("cold/sessions/s007.md", rec(1007), nil)
	s.set("cold/sessions/s200.md", rec(200), nil)
	s.set("cold/sessions/s009.md", nil, nil)
	if err := s.saveCold(fsys, root); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(file(SeenColdFile), whole) {
		t.Error("three changes rewrote the whole record")
	}
	if n := bytes.Count(file(SeenColdChangesFile), []byte("\n")); n != 4 {
		t.Errorf("the changes file has %d lines, want a header and 3:\n%s", n, file(SeenColdChangesFile))
	}
	got := read()
	if !maps.Equal(got.files, s.files) || !maps.Equal(got.refs, s.refs) {
		t.Fatalf("read back with its changes, the record differs: %d records, want %d", len(got.files), len(s.files))
	}

	// Many changes: written whole again, under a new generation.
	for i := range 40 {
		got.set(fmt.Sprintf("cold/sessions/s%03d.md", 100+i), rec(2000+i), nil)
	}
	got.set("cold/sessions/s007.md", rec(5007), nil)
	if err := got.saveCold(fsys, root); err != nil {
		t.Fatal(err)
	}
	again := file(SeenColdFile)
	if bytes.Equal(again, whole) || string(again[:len(seenColdHeaderGen)+16]) == string(whole[:len(seenColdHeaderGen)+16]) {
		t.Fatal("44 changes of 200 records did not write the record whole under a new generation")
	}
	if back := read(); !maps.Equal(back.files, got.files) {
		t.Fatal("the record written whole does not read back as it was")
	}
	// The changes file still follows the old generation: not applied.
	if !strings.Contains(string(file(SeenColdChangesFile)), "s009.md\t-") {
		t.Fatalf("the old changes file is gone:\n%s", file(SeenColdChangesFile))
	}
	if back := read(); back.files["cold/sessions/s007.md"] != *rec(5007) || len(back.coldChanged) != 0 {
		t.Error("changes of another generation were applied")
	}

	// A damaged changes file leaves the record unreadable, as a damaged
	// record does.
	s = read()
	s.set("cold/sessions/s001.md", rec(3001), nil)
	if err := s.saveCold(fsys, root); err != nil {
		t.Fatal(err)
	}
	name := root + "/" + tiers.StateDir + "/" + SeenColdChangesFile
	afero.WriteFile(fsys, name, append(file(SeenColdChangesFile), "not a line\n"...), 0o644)
	bad := newSeen()
	bad.loaded = true
	bad.readCold(fsys, root)
	if bad.coldOK {
		t.Error("a damaged changes file was taken")
	}
}

// hookOnOpen runs hook once, before the first open of name.
type hookOnOpen struct {
	afero.Fs
	name string
	hook func()
}

func (h *hookOnOpen) Open(name string) (afero.File, error) {
	if name == h.name && h.hook != nil {
		hook := h.hook
		h.hook = nil
		hook()
	}
	return h.Fs.Open(name)
}

func (h *hookOnOpen) OpenFile(name string, flag int, perm os.FileMode) (afero.File, error) {
	if name == h.name && h.hook != nil && flag == os.O_RDONLY {
		hook := h.hook
		h.hook = nil
		hook()
	}
	return h.Fs.OpenFile(name, flag, perm)
}

// TestSeenColdReadWhileWritten proves a reader of the record of the cold
// documents never loses a change written before it began, when another
// wake writes the record whole, then a change, while it reads.
func TestSeenColdReadWhileWritten(t *testing.T) {
	t.Parallel()
	base := afero.NewMemMapFs()
	const root = "/r"
	rec := func(i int) *seenRecord {
		return &seenRecord{Size: int64(100 + i), MTime: int64(i), Hash: fmt.Sprintf("%064x", i), Lines: i}
	}
	read := func(fsys afero.Fs) *seen {
		s := newSeen()
		s.loaded = true
		s.readCold(fsys, root)
		return s
	}
	s := newSeen()
	s.coldRead = true
	for i := range 200 {
		s.set(fmt.Sprintf("cold/sessions/s%03d.md", i), rec(i), nil)
	}
	if err := s.saveCold(base, root); err != nil {
		t.Fatal(err)
	}
	// A hand-off's own record, in the changes, before the reader begins.
	s = read(base)
	s.set("cold/sessions/s999.md", rec(999), nil)
	if err := s.saveCold(base, root); err != nil {
		t.Fatal(err)
	}
	fsys := &hookOnOpen{Fs: base, name: root + "/" + tiers.StateDir + "/" + SeenColdChangesFile}
	fsys.hook = func() {
		w := read(base)
		for i := range 40 {
			w.set(fmt.Sprintf("cold/sessions/s%03d.md", i), rec(3000+i), nil)
		}
		if err := w.saveCold(base, root); err != nil { // whole, a new generation
			t.Error(err)
		}
		w.set("cold/sessions/s100.md", rec(4100), nil)
		if err := w.saveCold(base, root); err != nil { // a change of it
			t.Error(err)
		}
	}
	r := read(fsys)
	if !r.coldOK {
		t.Fatal("the record did not read")
	}
	if _, ok := r.files["cold/sessions/s999.md"]; !ok {
		t.Error("a change written before the reader began was lost to it")
	}
}
