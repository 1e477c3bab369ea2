package startcache

import (
	"fmt"
	"strings"
	"testing"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/tiers"
)

// TestRoundTrip: what is written is read back, entry by entry, with its
// key and output; the most recent views are kept, the least recent go.
func TestRoundTrip(t *testing.T) {
	t.Parallel()
	fsys := afero.NewMemMapFs()
	var c Cache
	for i := range MaxViews + 2 {
		e := Entry{Name: fmt.Sprintf("view%d", i), Env: "env", Tokens: i, Post: []Notice{{Kind: "warning", Msg: "m"}}}
		e.Set([]byte(fmt.Sprintf("key%d", i)), []byte(strings.Repeat("out", i+1)))
		c = c.With(e)
	}
	// A view started again moves to the end, its old entry replaced.
	again := Entry{Name: "view3"}
	again.Set([]byte("key3b"), []byte("again"))
	c = c.With(again)
	if err := Write(fsys, "/r", c); err != nil {
		t.Fatal(err)
	}
	got, ok := Read(fsys, "/r")
	if !ok || len(got.Entries) != MaxViews {
		t.Fatalf("read %v: %d entries, want %d", ok, len(got.Entries), MaxViews)
	}
	// Eight views through a cache of six: view0 and view1 went; view3,
	// started again, is the most recent.
	if names := strings.Join(got.Names(), " "); names != "view2 view4 view5 view6 view7 view3" {
		t.Fatalf("views %s", names)
	}
	for _, e := range got.Entries {
		want := c.Lookup(e.Name)
		if want == nil || string(e.Key()) != string(want.Key()) || string(e.Output()) != string(want.Output()) || !e.Intact() {
			t.Fatalf("%s: key %q output %q", e.Name, e.Key(), e.Output())
		}
	}
	if e := got.Lookup("view3"); e == nil || string(e.Output()) != "again" {
		t.Fatal("the view started again is not its new output")
	}
}

// TestDamage: a file not of the cache, an entry whose offsets lie outside
// the file, and an output changed from outside are each a miss.
func TestDamage(t *testing.T) {
	t.Parallel()
	fsys := afero.NewMemMapFs()
	e := Entry{Name: "load"}
	e.Set([]byte("key"), []byte("the output"))
	if err := Write(fsys, "/r", Cache{Entries: []Entry{e}}); err != nil {
		t.Fatal(err)
	}
	name := "/r/" + tiers.StateDir + "/" + File
	data, _ := afero.ReadFile(fsys, name)
	if _, ok := Parse([]byte("not a cache\n{}\n")); ok {
		t.Error("a file without the magic line was read as a cache")
	}
	if c, ok := Parse([]byte(strings.Replace(string(data), `"len":10`, `"len":99`, 1))); !ok || c.Lookup("load") != nil {
		t.Error("an entry reaching past the file was kept")
	}
	c, ok := Parse([]byte(strings.Replace(string(data), "the output", "the 0utput", 1)))
	if !ok || c.Lookup("load") == nil || c.Lookup("load").Intact() {
		t.Error("an output changed from outside passed its CRC")
	}
}
