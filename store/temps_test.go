package store

import (
	"context"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/spf13/afero"
)

// Recover removes the temporary files a crash left in the root's
// directories once they are older than StaleTempAge, and nothing else: a
// younger one may belong to a writer running now, and names that only look
// alike are the user's.
func TestRecoverRemovesStaleTemps(t *testing.T) {
	t.Parallel()
	fs := afero.NewMemMapFs()
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	old, fresh := now.Add(-StaleTempAge-time.Second), now.Add(-StaleTempAge+time.Minute)
	files := []struct {
		rel     string
		mtime   time.Time
		removed bool
	}{
		{".state/.tokens.json.tmp-0123456789ab", old, true},
		{".cold-session.json.tmp-a1b2c3d4e5f6", old, true},
		{".boot.md.tmp-00112233aabb", old, true},
		{"recent/.latest.md.tmp-ffffffffffff", old, true},
		{"warm/.decisions.md.tmp-0123456789ab", old, true},
		{"cold/sessions/.2026-11-20T10-00-00Z.md.tmp-0123456789ab", old, true},
		{".state/.decisions.pending.json.tmp-abcdefabcdef", old, true},
		// issue 23: a killed wake's temporary files in .state/seen/ were
		// never swept; nor were those of creation records.
		{".state/seen/.3c.tmp-0123456789ab", old, true},
		{".state/creates/.0123456789ab.json.tmp-0123456789ab", old, true},
		{".state/seen/.3d.tmp-0123456789ab", fresh, false},
		{".state/.tokens.json.tmp-0123456789ac", fresh, false},    // a writer may own it
		{"warm/.notes.md.tmp-0123456789AB", old, false},           // not wake's hex
		{"warm/notes.md.tmp-0123456789ab", old, false},            // no leading dot
		{"warm/.notes.md.tmp-0123456789a", old, false},            // too short
		{"warm/.tmp-0123456789ab", old, false},                    // no name
		{"cold/.x.md.tmp-0123456789ab", old, false},               // cold/ is the user's
		{"cold/sessions/deep/.x.md.tmp-0123456789ab", old, false}, // not a directory wake writes
		{"main.md", old, false},
	}
	for _, f := range files {
		p := filepath.Join(hoRoot, f.rel)
		if err := afero.WriteFile(fs, p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
		fs.Chtimes(p, f.mtime, f.mtime)
	}
	// A directory with a temporary file's name is not a file wake wrote.
	dir := filepath.Join(hoRoot, "warm/.dir.md.tmp-0123456789ab")
	fs.MkdirAll(dir, 0o755)
	fs.Chtimes(dir, old, old)
	s := &Store{FS: fs, Root: hoRoot, Now: func() time.Time { return now }, Locker: failLocker{}}
	if rec, err := Recover(context.Background(), s); err != nil || rec != nil {
		t.Fatalf("%v %v", rec, err)
	}
	var gone, want []string
	for _, f := range files {
		if _, err := fs.Stat(filepath.Join(hoRoot, f.rel)); err != nil {
			gone = append(gone, f.rel)
		}
		if f.removed {
			want = append(want, f.rel)
		}
	}
	sort.Strings(gone)
	sort.Strings(want)
	if len(gone) != len(want) {
		t.Fatalf("removed %v, want %v", gone, want)
	}
	for i := range gone {
		if gone[i] != want[i] {
			t.Fatalf("removed %v, want %v", gone, want)
		}
	}
	if _, err := fs.Stat(dir); err != nil {
		t.Fatal("a directory was removed")
	}
}
