package store

import (
	"bytes"
	"fmt"
	"maps"
	"slices"
	"testing"

	"github.com/wakeproto/wake/internal/fsrecord"
	"github.com/wakeproto/wake/tiers"
)

// marshalFormatted is seen.marshal as it was written before it appended
// field by field: the two must write the same bytes.
func (s *seen) marshalFormatted(cold bool) []byte {
	var b bytes.Buffer
	if cold {
		b.WriteString(seenColdHeader)
	} else {
		fmt.Fprintf(&b, "%s%d\n", seenHeader, s.mark)
	}
	for _, p := range slices.Sorted(maps.Keys(s.files)) {
		if isColdDoc(p) != cold {
			continue
		}
		r := s.files[p]
		flags := ""
		if r.Racy {
			flags += "r"
		}
		if r.Sig {
			flags += "l"
		}
		switch r.Level {
		case tiers.Secret:
			flags += "s"
		case tiers.Confidential:
			flags += "c"
		}
		fmt.Fprintf(&b, "%s\t%d\t%d\t%s\t%d\t%d\t%s\n", escTab(p), r.Size, r.MTime, r.Hash, r.Lines, r.Mark, fsrecord.WithChangeTime(flags, r.CTime))
	}
	return b.Bytes()
}

func TestSeenMarshalAsFormatted(t *testing.T) {
	t.Parallel()
	s := newSeen()
	s.mark = 4096
	s.files = map[string]seenRecord{
		tiers.MainPath:          {Size: 10, MTime: 1795870207102358303, CTime: 1795870207103649785, Hash: "0d5be904ebe557fd", Lines: 3, Sig: true, Mark: 12},
		warmDirKey:              {MTime: 5},
		coldIndexKey:            {Hash: "00ff"},
		"cold/a\tb.md":          {Size: 1, MTime: -1, Hash: "ab", Racy: true, Level: tiers.Secret},
		"cold/sessions/x.md":    {Size: 2, Hash: "cd", Lines: 1, Sig: true, Level: tiers.Confidential, CTime: 7},
		tiers.DecisionsPath:     {},
		"cold/notes/back\\s.md": {Racy: true, Sig: true, Hash: "ef"},
	}
	for _, cold := range []bool{false, true} {
		if got, want := s.marshal(cold), s.marshalFormatted(cold); !bytes.Equal(got, want) {
			t.Fatalf("marshal(%v):\n%q\nwant:\n%q", cold, got, want)
		}
	}
}
