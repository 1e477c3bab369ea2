package cold

import (
	"bytes"
	"fmt"
	"slices"
	"testing"

	"github.com/wakeproto/wake/internal/fsrecord"
)

// marshalFormatted is Marshal as it was written before it appended field
// by field: the two must write the same bytes.
func (x *Index) marshalFormatted() []byte {
	var b bytes.Buffer
	b.WriteString(coldIndexHeader + x.encoding + "\n")
	paths := make([]string, 0, len(x.entries))
	for p, e := range x.entries {
		if (!x.scanned || e.seen) && !e.racy {
			paths = append(paths, p)
		}
	}
	slices.Sort(paths)
	for _, p := range paths {
		e := x.entries[p]
		flags := ""
		if e.Binary {
			flags += "b"
		}
		if e.Huge {
			flags += "h"
		}
		if e.SourceOfTruth {
			flags += "t"
		}
		if e.Ino != 0 {
			flags += fmt.Sprintf("#%d", e.Ino)
		}
		fmt.Fprintf(&b, "%s\t%d\t%d\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", esc(p), e.Size, e.MTime, e.Tokens, fsrecord.WithChangeTime(flags, e.CTime),
			esc(e.Sens), esc(e.Summary), esc(e.Heading), esc(e.MetaErr), esc(e.Session), esc(e.MemoryType), esc(e.ProjectID), esc(e.Next), esc(e.Risk))
	}
	return b.Bytes()
}

func TestMarshalAsFormatted(t *testing.T) {
	t.Parallel()
	x := NewIndex("cl100k_base", nil)
	x.entries["cold/sessions/2026-11-22T03-24-20Z-k3f9qa.md"] = &Entry{Size: 120, MTime: 1795870207102358303, CTime: 1795870207103649785, Tokens: 40, Ino: 1234567,
		Sens: "internal", Summary: "a\ttab and a \\ backslash", Heading: "Session", Session: "2026-11-22T03:24:20Z", Next: "ship\nit", Risk: "the VAT\r"}
	x.entries["cold/a b.md"] = &Entry{Size: 1, MTime: -5, Tokens: 0, Binary: true, Huge: true, SourceOfTruth: true, MetaErr: "yaml: `x`", MemoryType: "fact", ProjectID: "p"}
	x.entries["cold/racy.md"] = &Entry{Size: 2, racy: true}
	x.entries["cold/z.md"] = &Entry{}
	got, want := x.Marshal(), x.marshalFormatted()
	if !bytes.Equal(got, want) {
		t.Fatalf("Marshal:\n%q\nwant:\n%q", got, want)
	}
	if y := NewIndex("cl100k_base", got); len(y.entries) != 3 || y.Dirty() {
		t.Fatalf("read back: %d entries, dirty %v", len(y.entries), y.Dirty())
	}
}
