package store

import (
	"strings"
	"testing"

	"github.com/wakeproto/wake/tiers"
)

// TestSeenSaveKeepsColdSignatures: a save that rewrites a bucket of line
// signatures without reading the cold documents' records (a tier file's
// new version) keeps the signatures only a cold record uses, and still
// drops the one no record uses any more.
func TestSeenSaveKeepsColdSignatures(t *testing.T) {
	t.Parallel()
	s := baselined(t)
	all := loadSeen(s.FS, s.Root)
	all.readCold(s.FS, s.Root)
	cold, ok := all.files["cold/notes/vat.md"]
	if !ok || !cold.Sig {
		t.Fatalf("the cold note's record: %v %+v", ok, cold)
	}
	w := loadSeen(s.FS, s.Root)
	old := w.files[tiers.TasksPath]
	if !old.Sig || old.Hash == cold.Hash {
		t.Fatalf("the tasks' record: %+v", old)
	}
	// A new version of the tasks whose signature falls in the cold note's
	// bucket.
	r := old
	r.Hash = cold.Hash[:2] + strings.Repeat("0", len(cold.Hash)-2)
	if _, ok := w.sig(s.FS, s.Root, old.Hash); !ok {
		t.Fatal("no signature of the tasks")
	}
	body := w.pack(s.FS, s.Root, bucketOf(old.Hash))[old.Hash]
	w.set(tiers.TasksPath, &r, body)
	if err := w.save(s.FS, s.Root); err != nil {
		t.Fatal(err)
	}
	if w.coldRead {
		t.Fatal("the save read the cold records into the record")
	}
	after := loadSeen(s.FS, s.Root)
	if _, ok := after.pack(s.FS, s.Root, bucketOf(cold.Hash))[cold.Hash]; !ok {
		t.Error("the cold note's signature was dropped")
	}
	if _, ok := after.pack(s.FS, s.Root, bucketOf(r.Hash))[r.Hash]; !ok {
		t.Error("the tasks' new signature was not written")
	}
	if _, ok := after.pack(s.FS, s.Root, bucketOf(old.Hash))[old.Hash]; ok && old.Hash != cold.Hash {
		t.Error("the tasks' old signature, which no record uses, was kept")
	}
}
