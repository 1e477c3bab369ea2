package fsrecord

import (
	"io"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/spf13/afero"
)

func TestKeyRoundTrip(t *testing.T) {
	key := []Entry{
		{Path: "/r/main.md", Identity: Identity{Exists: true, Size: 12, MTime: 1795386865708537796, Mode: 0o644, Inode: 10363891, Dev: 65024, CTime: 1795386865708537797}},
		{Path: "/r/cold", Identity: Identity{Exists: true, Dir: true, Listed: true, Mode: uint32(os.ModeDir | 0o755), Hash: "abc"}},
		{Path: "/r/odd\tname\n\"x\\", Identity: Identity{Link: true}},
		{Path: "/r/missing.md"},
	}
	got, err := ParseKey(AppendKey(nil, key))
	if err != nil || !reflect.DeepEqual(got, key) {
		t.Fatalf("round trip: %v\n%#v\nwant\n%#v", err, got, key)
	}
	for _, bad := range []string{"/r/x\te\t1\t2\t3\t4\t5\t6\th", "/r/x\tq\t1\t2\t3\t4\t5\t6\th\n", "/r/x\te\tone\t2\t3\t4\t5\t6\th\n", "\"/r/x\te\t1\t2\t3\t4\t5\t6\t\n", "/r/x\te\t1\t2\t3\t4\t5\tsix\th\n", "/r/x\te\t1\t2\t3\t4\t5\th\n"} {
		if _, err := ParseKey([]byte(bad)); err == nil {
			t.Errorf("ParseKey(%q) took it", bad)
		}
	}
}

// TestKeySeesChanges proves a key holds what the run read, and that a
// change to any of it is seen: content edited in place within the racy
// window (same size, same time), a file appearing, a directory's names.
func TestKeySeesChanges(t *testing.T) {
	mem := afero.NewMemMapFs()
	afero.WriteFile(mem, "/r/a.md", []byte("alpha"), 0o644)
	afero.WriteFile(mem, "/r/d/x.md", []byte("x"), 0o644)
	stamp := time.Now()
	mem.Chtimes("/r/a.md", stamp, stamp)
	rec := New(mem, func(name string) bool { return name == "/r/skip.md" })
	afero.ReadFile(rec, "/r/a.md")
	afero.ReadDir(rec, "/r/d")
	rec.Stat("/r/b.md")
	afero.ReadFile(rec, "/r/skip.md")
	key, ok := rec.Key(time.Now())
	if !ok || len(key) != 3 {
		t.Fatalf("key %v (%v), want a.md, b.md and d", key, ok)
	}
	if key[0].Hash == "" {
		t.Error("a file modified a moment ago was not hashed")
	}
	if !Unchanged(mem, key) {
		t.Fatal("nothing changed, yet the key does not hold")
	}
	for name, change := range map[string]func(){
		"edited in place": func() { afero.WriteFile(mem, "/r/a.md", []byte("ALPHA"), 0o644); mem.Chtimes("/r/a.md", stamp, stamp) },
		"appeared":        func() { afero.WriteFile(mem, "/r/b.md", nil, 0o644) },
		"listed anew":     func() { afero.WriteFile(mem, "/r/d/y.md", nil, 0o644) },
	} {
		snap := afero.NewMemMapFs()
		afero.Walk(mem, "/", func(p string, fi os.FileInfo, err error) error {
			if err == nil && !fi.IsDir() {
				data, _ := afero.ReadFile(mem, p)
				afero.WriteFile(snap, p, data, fi.Mode())
				snap.Chtimes(p, fi.ModTime(), fi.ModTime())
			}
			return nil
		})
		change()
		if Unchanged(mem, key) {
			t.Errorf("%s: the key still holds", name)
		}
		mem = snap
	}
}

// TestKeyRefusesWhatTheRunChanged proves a run that changed a file it read
// is not kept.
func TestKeyRefusesWhatTheRunChanged(t *testing.T) {
	mem := afero.NewMemMapFs()
	afero.WriteFile(mem, "/r/boot.md", []byte("old"), 0o644)
	rec := New(mem, nil)
	afero.ReadFile(rec, "/r/boot.md")
	afero.WriteFile(rec, "/r/boot.md", []byte("new text"), 0o644)
	if _, ok := rec.Key(time.Now()); ok {
		t.Error("a run that rewrote a file it read was kept")
	}
}

// TestSettle proves Settle drops the content hash of a regular file only
// once its racy window has closed, and leaves the rest of the key as is.
func TestSettle(t *testing.T) {
	now := time.Now()
	key := []Entry{
		{Path: "/r/old.md", Identity: Identity{Exists: true, Size: 1, MTime: now.Add(-RacyWindow - time.Second).UnixNano(), Mode: 0o644, Hash: "h1"}},
		{Path: "/r/new.md", Identity: Identity{Exists: true, Size: 1, MTime: now.Add(-time.Second).UnixNano(), Mode: 0o644, Hash: "h2"}},
		{Path: "/r/d", Identity: Identity{Exists: true, Dir: true, Listed: true, Mode: uint32(os.ModeDir | 0o755), Hash: "names"}},
		{Path: "/r/plain.md", Identity: Identity{Exists: true, Size: 1, MTime: 1, Mode: 0o644}},
	}
	orig := append([]Entry(nil), key...)
	got, ok := Settle(key, now)
	if !ok {
		t.Fatal("nothing settled")
	}
	want := append([]Entry(nil), key...)
	want[0].Hash = ""
	if !reflect.DeepEqual(got, want) {
		t.Errorf("settled\n%#v\nwant\n%#v", got, want)
	}
	if !reflect.DeepEqual(key, orig) {
		t.Error("Settle changed the key it was given")
	}
	if _, ok := Settle(key[1:], now); ok {
		t.Error("settled a key with nothing past its window")
	}
}

// TestObserveAtIsObserve: the identity a regular file's stat relative to
// its directory gives is the one Observe gives by its path, special mode
// bits included; what is not a regular file is left to Observe; and
// Unchanged through it still sees a file rewritten in place.
func TestObserveAtIsObserve(t *testing.T) {
	dir := t.TempDir()
	fsys := afero.NewOsFs()
	write := func(name string, mode os.FileMode) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(name), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, mode); err != nil {
			t.Fatal(err)
		}
		return p
	}
	files := []string{write("a.md", 0o644), write("b.md", 0o600), write("c.md", 0o755|os.ModeSetuid|os.ModeSetgid|os.ModeSticky)}
	d, err := fsys.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	for _, p := range files {
		got, ok := observeAt(d, filepath.Base(p))
		if runtime.GOOS == "linux" && !ok {
			t.Fatalf("%s: no fast path", p)
		}
		if want := Observe(fsys, p, false); ok && got != want {
			t.Errorf("%s: observeAt %+v, Observe %+v", p, got, want)
		}
	}
	if err := os.Symlink(files[0], filepath.Join(dir, "link.md")); err != nil {
		t.Fatal(err)
	}
	if _, ok := observeAt(d, "link.md"); ok {
		t.Error("a symbolic link took the fast path")
	}
	var key []Entry
	for _, p := range files {
		key = append(key, Entry{Path: p, Identity: Observe(fsys, p, false)})
	}
	if !Unchanged(fsys, key) {
		t.Fatal("an unchanged key reads as changed")
	}
	if err := os.WriteFile(files[1], []byte("B.md"), 0o600); err != nil { // same size
		t.Fatal(err)
	}
	if Unchanged(fsys, key) {
		t.Error("a file rewritten in place reads as unchanged")
	}
}

// TestNoChangeTime: where a stat has no change time, a file's content is
// what keeps it, however old: an edit that keeps the size and sets the
// modification time back is seen, and settling keeps the hash. Where
// there is one, the same edit is seen by its change time (on the real
// disk; a MemMapFs has none).
func TestNoChangeTime(t *testing.T) {
	osFs := afero.NewOsFs()
	for _, have := range []bool{false, haveCTime} {
		t.Run(map[bool]string{false: "none", true: "ctime"}[have], func(t *testing.T) {
			defer func(h bool) { haveCTime = h }(haveCTime)
			haveCTime = have
			name := filepath.Join(t.TempDir(), "main.md")
			old := time.Now().Add(-time.Hour)
			if err := os.WriteFile(name, []byte("alpha"), 0o644); err != nil {
				t.Fatal(err)
			}
			os.Chtimes(name, old, old)
			now := time.Now()
			e, err := Take(osFs, name, false, now)
			if err != nil {
				t.Fatal(err)
			}
			if (e.Hash != "") == have {
				t.Fatalf("haveCTime %v: an hour-old file taken with hash %q", have, e.Hash)
			}
			key := []Entry{e}
			if settled, ok := Settle(key, now); ok {
				key = settled
			}
			if (key[0].Hash != "") == have {
				t.Fatalf("haveCTime %v: settling left hash %q", have, key[0].Hash)
			}
			if !Unchanged(osFs, key) {
				t.Fatal("an untouched file is not unchanged")
			}
			if err := os.WriteFile(name, []byte("omega"), 0o644); err != nil {
				t.Fatal(err)
			}
			os.Chtimes(name, old, old)
			if have && runtime.GOOS != "linux" && runtime.GOOS != "darwin" {
				t.Skip("the change time is checked on linux and darwin")
			}
			if Unchanged(osFs, key) {
				t.Errorf("haveCTime %v: an edit of the same size with its time set back was not seen", have)
			}
		})
	}
}

// renameOnOpen renames repl over target just after target is opened: an
// editor's atomic save landing between a run's open and whatever follows.
type renameOnOpen struct {
	afero.Fs
	target, repl string
	done         bool
}

func (r *renameOnOpen) Open(name string) (afero.File, error) {
	f, err := r.Fs.Open(name)
	if !r.done && name == r.target {
		r.done = true
		if err := r.Fs.Rename(r.repl, r.target); err != nil {
			panic(err)
		}
	}
	return f, err
}

// TestKeySeesAFileSwappedAsItIsOpened proves a run that read a file
// renamed over its path as it opened it is not kept: the run read the old
// file, whose identity is not the one the path has now.
func TestKeySeesAFileSwappedAsItIsOpened(t *testing.T) {
	dir := t.TempDir()
	target, repl := filepath.Join(dir, "CLAUDE.md"), filepath.Join(dir, "CLAUDE.md.new")
	os.WriteFile(target, []byte("@.wake/boot.md\n"), 0o644)
	os.WriteFile(repl, []byte("no import here\n"), 0o644)
	// Written long ago as far as their times say: not hashed when noted,
	// so the run's open is the first.
	old := time.Now().Add(-time.Hour)
	os.Chtimes(target, old, old)
	os.Chtimes(repl, old, old)
	swap := &renameOnOpen{Fs: afero.NewOsFs(), target: target, repl: repl}
	rec := New(swap, nil)
	data, err := afero.ReadFile(rec, target)
	if err != nil || string(data) != "@.wake/boot.md\n" || !swap.done {
		t.Fatalf("the run read %q (%v), swapped %v", data, err, swap.done)
	}
	if _, ok := rec.Key(time.Now().Add(time.Hour)); ok {
		t.Error("a run that read a file swapped as it opened it was kept")
	}
}

// TestKeySeesARacyFileChangedAfterItWasRead proves a file within the racy
// window, changed after the run read it with nothing on its identity to
// show it (same size, the time put back, no change time), keeps nothing:
// it is hashed when first touched as well as for the key.
func TestKeySeesARacyFileChangedAfterItWasRead(t *testing.T) {
	mem := afero.NewMemMapFs()
	stamp := time.Now()
	afero.WriteFile(mem, "/r/main.md", []byte("alpha"), 0o644)
	mem.Chtimes("/r/main.md", stamp, stamp)
	rec := New(mem, nil)
	if data, _ := afero.ReadFile(rec, "/r/main.md"); string(data) != "alpha" {
		t.Fatalf("read %q", data)
	}
	afero.WriteFile(mem, "/r/main.md", []byte("ALPHA"), 0o644)
	mem.Chtimes("/r/main.md", stamp, stamp)
	if _, ok := rec.Key(time.Now()); ok {
		t.Error("a run that read a racy file changed after it was read was kept")
	}
	// Unchanged, it is kept.
	rec = New(mem, nil)
	afero.ReadFile(rec, "/r/main.md")
	if key, ok := rec.Key(time.Now()); !ok || key[0].Hash == "" {
		t.Errorf("an unchanged racy file: key %v, kept %v", key, ok)
	}
}

// TestStampedDirectory proves a stamped directory is keyed by its stamp:
// its listing is given for inode numbers, its names are kept only while
// its times are racy, and a file renamed over one of its names (the same
// names, another inode) changes the key, as an unstamped directory's
// names alone would not show.
func TestStampedDirectory(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("inode numbers and change times as Linux gives them")
	}
	dir := t.TempDir()
	d, plain := filepath.Join(dir, "d"), filepath.Join(dir, "p")
	for _, p := range []string{filepath.Join(d, "a.md"), filepath.Join(d, "b.md"), filepath.Join(plain, "c.md")} {
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte("text"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rec := New(afero.NewOsFs(), nil)
	rec.Stamped = func(name string) bool { return name == d }
	for name, wantListing := range map[string]bool{d: true, plain: false} {
		f, err := rec.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		if got := ListingFile(f) != nil; got != wantListing {
			t.Errorf("%s: a listing file given: %v, want %v", name, got, wantListing)
		}
		f.Close()
	}
	racy, ok := rec.Key(time.Now())
	if !ok || len(racy) != 2 {
		t.Fatalf("key %v (%v)", racy, ok)
	}
	settled, ok := rec.Key(time.Now().Add(time.Minute))
	if !ok || len(settled) != 2 || settled[0].Path != d {
		t.Fatalf("key %v (%v)", settled, ok)
	}
	if s := settled[0]; !s.Listed || s.CTime == 0 || s.MTime == 0 || s.Inode == 0 || s.Hash != "" {
		t.Errorf("a settled stamped directory's entry %+v: want its stamp and no names", s)
	}
	if r := racy[0]; r.CTime == 0 || r.Hash == "" {
		t.Errorf("a racy stamped directory's entry %+v: want its stamp and names", r)
	}
	if settled[1].CTime != 0 || settled[1].Hash == "" {
		t.Errorf("an unstamped directory's entry %+v: want its names only", settled[1])
	}
	if dropped, ok := Settle(racy, time.Now().Add(time.Minute)); !ok || dropped[0].Hash != "" || dropped[1].Hash == "" {
		t.Errorf("settled later, the racy key is %+v (%v): want the stamped directory's names dropped", dropped, ok)
	}
	for _, key := range [][]Entry{racy, settled} {
		if !Unchanged(rec.Fs, key) {
			t.Fatal("nothing changed, yet the key does not hold")
		}
	}
	tmp := filepath.Join(d, ".b.md.new")
	if err := os.WriteFile(tmp, []byte("TEXT"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, filepath.Join(d, "b.md")); err != nil {
		t.Fatal(err)
	}
	if Unchanged(rec.Fs, settled) {
		t.Error("a file renamed over a name of a stamped directory left its key holding")
	}
}

// TestRacyFileKeyedByWhatWasRead proves a racy file is keyed by the
// pieces the run read of it: a change to what it read (its size and time
// kept) is seen, before the key is taken and after; one to bytes it never
// read is no change to what the run made of it, and a large file read at
// its tail is not read whole again at every look.
func TestRacyFileKeyedByWhatWasRead(t *testing.T) {
	mem := afero.NewMemMapFs()
	data := make([]byte, 100<<10)
	for i := range data {
		data[i] = byte('a' + i%26)
	}
	stamp := time.Now()
	write := func(at int, b byte) {
		t.Helper()
		data[at] = b
		if err := afero.WriteFile(mem, "/r/ledger", data, 0o644); err != nil {
			t.Fatal(err)
		}
		mem.Chtimes("/r/ledger", stamp, stamp)
	}
	write(0, 'a')
	record := func() *FS {
		rec := New(mem, nil)
		f, err := rec.Open("/r/ledger")
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if _, err := f.Seek(90<<10, io.SeekStart); err != nil {
			t.Fatal(err)
		}
		buf := make([]byte, 4<<10)
		for {
			if _, err := f.Read(buf); err != nil {
				break
			}
		}
		return rec
	}
	key, ok := record().Key(time.Now())
	if !ok || len(key) != 1 || !strings.HasPrefix(key[0].Hash, "p92160+10240=") || strings.Contains(key[0].Hash, ",") {
		t.Fatalf("key %+v (%v): want the one piece read, from 90 KB to the end", key, ok)
	}
	if !Unchanged(mem, key) {
		t.Fatal("nothing changed, yet the key does not hold")
	}
	write(10, 'Z')
	if !Unchanged(mem, key) {
		t.Error("a byte the run never read changed the key")
	}
	write(95<<10, 'Z')
	if Unchanged(mem, key) {
		t.Error("a byte the run read changed with the file's size and time kept, and the key holds")
	}
	rec := record()
	write(99<<10, 'Y')
	if _, ok := rec.Key(time.Now()); ok {
		t.Error("a byte the run read changed before the key was taken, and the key was kept")
	}
}

// listCounter counts the opens of one directory through it (a listing).
type listCounter struct {
	afero.Fs
	dir   string
	lists atomic.Int32
}

func (l *listCounter) Open(name string) (afero.File, error) {
	if name == l.dir {
		l.lists.Add(1)
	}
	return l.Fs.Open(name)
}

func (l *listCounter) LstatIfPossible(name string) (os.FileInfo, bool, error) {
	return l.Fs.(afero.Lstater).LstatIfPossible(name)
}

// TestUnchangedStatsFirst proves a key is refused on a changed stat
// before a racy stamped directory's names are listed, and that the
// names are still compared when every stat holds.
func TestUnchangedStatsFirst(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("inode numbers and change times as Linux gives them")
	}
	dir := t.TempDir()
	d, f := filepath.Join(dir, "d"), filepath.Join(dir, "f.md")
	os.MkdirAll(d, 0o755)
	for _, p := range []string{filepath.Join(d, "a.md"), f} {
		if err := os.WriteFile(p, []byte("text"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rec := New(afero.NewOsFs(), nil)
	rec.Stamped = func(name string) bool { return name == d }
	dd, err := rec.Open(d)
	if err != nil {
		t.Fatal(err)
	}
	dd.Close()
	if _, err := rec.Stat(f); err != nil {
		t.Fatal(err)
	}
	key, ok := rec.Key(time.Now())
	if !ok || len(key) != 2 || key[0].Path != d || key[0].Hash == "" {
		t.Fatalf("key %+v (%v): want the racy stamped directory first, with its names", key, ok)
	}
	lc := &listCounter{Fs: afero.NewOsFs(), dir: d}
	if held := Unchanged(lc, key); !held || lc.lists.Load() != 1 {
		t.Fatalf("nothing changed: held %v, listed %d times, want once", held, lc.lists.Load())
	}
	lc.lists.Store(0)
	if err := os.WriteFile(f, []byte("longer text"), 0o644); err != nil {
		t.Fatal(err)
	}
	if Unchanged(lc, key) {
		t.Fatal("a file grown left the key holding")
	}
	if n := lc.lists.Load(); n != 0 {
		t.Errorf("the key was refused after listing the directory %d times, want none", n)
	}
}
