package store

import (
	"fmt"
	"testing"

	"github.com/spf13/afero"
)

// BenchmarkReadCold reads the record of a thousand cold documents, as a
// hand-off noting its own session record does.
func BenchmarkReadCold(b *testing.B) {
	fsys := afero.NewMemMapFs()
	s := newSeen()
	s.coldRead = true
	for i := range 1000 {
		s.set(fmt.Sprintf("cold/sessions/2026-01-%02dT09-00-00Z-%06d.md", i%28+1, i), &seenRecord{Size: int64(400 + i), MTime: 1795899120658342307 + int64(i), CTime: 1795911535503014287, Hash: fmt.Sprintf("%064x", i), Lines: 20, Mark: int64(1000 * i), Sig: true}, nil)
	}
	if err := s.saveCold(fsys, "/r"); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		r := newSeen()
		r.loaded = true
		r.readCold(fsys, "/r")
		if !r.coldOK {
			b.Fatal("not read")
		}
	}
}
