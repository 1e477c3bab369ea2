package cold

import (
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/internal/coldtree"
	"github.com/wakeproto/wake/tiers"
)

// memoRoot is a root of three cold documents whose index is saved.
func memoRoot(t *testing.T) (afero.Fs, Options) {
	t.Helper()
	fsys := coldtree.FS(t, []coldtree.File{
		{Path: "cold/a.md", Data: "---\nsummary: First note\n---\n# A\n", Age: 48 * time.Hour},
		{Path: "cold/b.md", Data: "---\nsummary: Second note\n---\n# B\n", Age: 48 * time.Hour},
		{Path: "cold/sub/c.md", Data: "# C\n\nText.\n", Age: 48 * time.Hour},
	})
	o := tocOptions(fsys, encoder(t))
	o.Index = OpenIndex(fsys, "/r", o.Config.Encoding)
	if warns := Scan(o); len(warns) != 0 {
		t.Fatalf("warnings: %v", warns)
	}
	if err := SaveIndex(fsys, "/r", o.Index); err != nil {
		t.Fatal(err)
	}
	return fsys, o
}

// indexFile is the saved index's bytes.
func indexFile(t *testing.T, fsys afero.Fs) []byte {
	t.Helper()
	data, err := afero.ReadFile(fsys, filepath.Join("/r", tiers.StateDir, IndexFile))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestParsedIndexOpenAgainIsAFreshParse: an index opened again through
// a ParsedIndex, its bytes unchanged, is the index a parse of them gives,
// whatever the indexes opened before it went through: its entries are
// its own (a scan marks and replaces them), not the kept parse's. Fails
// when a copy shares its entries with the parse or another copy.
func TestParsedIndexOpenAgainIsAFreshParse(t *testing.T) {
	t.Parallel()
	fsys, o := memoRoot(t)
	var p ParsedIndex
	data := indexFile(t, fsys)
	// What a scan and more do to an index: entries marked, changed,
	// replaced, forgotten; to the parse, then to a copy of it.
	for range 2 {
		x := p.OpenSettled(fsys, "/r", o.Config.Encoding)
		if p.data != string(data) {
			t.Fatal("the open did not keep its parse")
		}
		o.Index = x
		Scan(o)
		x.entries["cold/a.md"].Tokens = 123456
		x.entries["cold/b.md"].Summary = "changed"
		delete(x.entries, "cold/sub/c.md")
	}
	again := p.Open(fsys, "/r", o.Config.Encoding)
	if fresh := NewIndex(o.Config.Encoding, data); !reflect.DeepEqual(again, fresh) {
		t.Errorf("opened again:\n%#v\nparsed:\n%#v", again, fresh)
	}
	if again.loaded != 3 || len(again.entries) != 3 {
		t.Errorf("opened again: %d loaded, %d entries; want 3", again.loaded, len(again.entries))
	}
}

// TestParsedIndexSeesTheIndexSavedSince: an index saved since the last
// open through a ParsedIndex (a document changed and was read again) is
// parsed again, not copied from the parse of the bytes before. Fails
// when the kept parse is taken without comparing the bytes.
func TestParsedIndexSeesTheIndexSavedSince(t *testing.T) {
	t.Parallel()
	fsys, o := memoRoot(t)
	var p ParsedIndex
	o.Index = p.OpenSettled(fsys, "/r", o.Config.Encoding)
	if err := afero.WriteFile(fsys, "/r/cold/a.md", []byte("---\nsummary: First note, rewritten longer\n---\n# A\n\nMore.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	Scan(o)
	if err := SaveIndex(fsys, "/r", o.Index); err != nil {
		t.Fatal(err)
	}
	data := indexFile(t, fsys)
	again := p.Open(fsys, "/r", o.Config.Encoding)
	if e := again.entries["cold/a.md"]; e == nil || e.Summary != "First note, rewritten longer" {
		t.Fatalf("opened again, cold/a.md is %+v", e)
	}
	if fresh := NewIndex(o.Config.Encoding, data); !reflect.DeepEqual(again, fresh) {
		t.Errorf("opened again:\n%#v\nparsed:\n%#v", again, fresh)
	}
	// Another encoding's open of the same bytes is no index of it.
	if other := p.Open(fsys, "/r", "o200k_base"); other.loaded != 0 {
		t.Errorf("opened for another encoding: %d entries loaded", other.loaded)
	}
}
