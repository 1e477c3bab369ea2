package wake

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/cold"
	"github.com/wakeproto/wake/internal/fsrecord"
	"github.com/wakeproto/wake/tiers"
)

// TestKeptNamesPickTheRotation proves the cached start's rotation, which
// finds its documents by a binary search in the names a recorded start
// kept, picks what the rotation over every document in path order picks:
// random trees of nested directories (a directory's files sorting among
// its subdirectories' paths), names holding a tab, a newline or a
// backslash, random keyed documents left out, random points to go on
// from; and that each name's size and times come back as kept.
func TestKeptNamesPickTheRotation(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	odd := []string{"", "", "", "\n", "\t", "\\", "\\t"}
	for round := range 300 {
		fsys := afero.NewMemMapFs()
		dirs := []string{"cold"}
		for range r.IntN(6) {
			parent := dirs[r.IntN(len(dirs))]
			name := fmt.Sprintf("%c%d", 'a'+r.IntN(4), r.IntN(3))
			if r.IntN(3) == 0 {
				name += "-x" // a byte below "/": "a0-x/" sorts before "a0/"
			}
			dirs = append(dirs, path.Join(parent, name))
		}
		dirs = slices.Compact(slices.Sorted(slices.Values(dirs)))
		slices.SortFunc(dirs, func(a, b string) int { return strings.Compare(a+"/", b+"/") })
		keyed := map[string]bool{}
		var all []string
		for _, d := range dirs {
			// The walk lists every directory: each is in the key.
			keyed[d] = true
			fsys.MkdirAll("/r/"+d, 0o755)
			for range r.IntN(8) {
				p := path.Join(d, fmt.Sprintf("%c%s%d.md", 'a'+r.IntN(4), odd[r.IntN(len(odd))], r.IntN(5)))
				if slices.Contains(all, p) || keyed[p] {
					continue
				}
				afero.WriteFile(fsys, "/r/"+p, nil, 0o644)
				if r.IntN(4) == 0 {
					keyed[p] = true
					continue
				}
				all = append(all, p)
			}
		}
		after := ""
		if len(all) > 0 && r.IntN(4) > 0 {
			after = all[r.IntN(len(all))]
			if r.IntN(2) == 0 {
				after = after[:len(after)-1]
			}
		}
		k := 1 + r.IntN(6)
		want := cold.Rotation(slices.Values(all), after, k)
		paths, ok := namesOf(fsys, "/r", dirs, nil)
		if !ok {
			t.Fatalf("round %d: the directories were not listed", round)
		}
		stat := func(p string) (int64, int64, int64) { return int64(len(p)), int64(round), -int64(len(p)) }
		var names []byte
		for _, p := range paths {
			names = append(appendName(names, p), '\t')
			if keyed[p] && r.IntN(2) == 0 {
				names = append(names, '-')
			} else {
				size, mtime, ctime := stat(p)
				names = fmt.Appendf(names, "%d %d %d", size, mtime, ctime)
			}
			names = append(names, '\n')
		}
		picked := pickNames(names, after, k, keyed)
		var got []string
		for _, kn := range picked {
			got = append(got, kn.path)
			if size, mtime, ctime := stat(kn.path); !kn.known || kn.size != size || kn.mtime != mtime || kn.ctime != ctime {
				t.Fatalf("round %d: %q kept as %+v, want %d %d %d", round, kn.path, kn, size, mtime, ctime)
			}
		}
		if !slices.Equal(got, want) {
			t.Fatalf("round %d: names %q, after %q, k %d: picked %q from the kept names, want %q", round, paths, after, k, got, want)
		}
	}
}

// TestNamesTiedToTheStamps proves the kept names are taken only for the
// stamps they were listed under: a directory's other stamp, a damaged
// file (cut, a line zeroed) or another head leaves the start to list the
// directories; and that names listed after the key, the directory
// changed since, are not kept.
func TestNamesTiedToTheStamps(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("inode numbers and change times as Linux gives them")
	}
	fsys := afero.NewOsFs()
	root := t.TempDir()
	m := &Memory{root: root, o: Options{FS: fsys}}
	for _, p := range []string{"cold/a.md", "cold/b/c.md", "cold/.tmp", "main.md"} {
		os.MkdirAll(filepath.Join(root, filepath.Dir(p)), 0o755)
		os.WriteFile(filepath.Join(root, p), nil, 0o644)
	}
	stamp := func(rel string) fsrecord.Entry {
		p := filepath.Join(root, rel)
		return fsrecord.Entry{Path: p, Identity: fsrecord.Stamp(fsys, p)}
	}
	key := []fsrecord.Entry{stamp("cold"), stamp("cold/b"), {Path: filepath.Join(root, "main.md"), Identity: fsrecord.Identity{Exists: true, CTime: 6, MTime: 6, Inode: 11}}}
	save := func(key []fsrecord.Entry) string {
		body, tie, ok := m.namesBody(key, cold.NewIndex(tiers.EncodingCL100K, nil))
		m.saveNames(body, tie, ok)
		if !ok {
			return "none"
		}
		return bodySum(body)
	}
	sum := save(key)
	_, _, tie := m.stampedDirs(key)
	body, ok := readNames(fsys, root, tie, sum)
	if want := "cold/a.md\t-\ncold/b\t-\ncold/b/c.md\t-\n"; !ok || string(body) != want {
		t.Fatalf("kept names %q (%v), want %q", body, ok, want)
	}
	if _, ok := readNames(fsys, root, tie, "0-00000000"); ok {
		t.Error("names other than those a start was recorded with were taken")
	}
	// The key's order and a settled directory's dropped names do not
	// change the tie.
	settled := []fsrecord.Entry{key[2], key[1], key[0]}
	settled[1].Hash = "names"
	if _, _, again := m.stampedDirs(settled); again != tie {
		t.Error("the tie changed with the key's order or a directory's names")
	}
	touched := slices.Clone(key)
	touched[1].CTime++
	if _, _, other := m.stampedDirs(touched); other == tie {
		t.Fatal("a directory's new change time kept the tie")
	} else if _, ok := readNames(fsys, root, other, sum); ok {
		t.Error("the names kept under other stamps were taken")
	}
	name := filepath.Join(root, tiers.StateDir, namesFile)
	data, _ := os.ReadFile(name)
	// A key with no stamped directory keeps nothing and leaves the file.
	if _, _, ok := m.namesBody(key, nil); ok {
		t.Error("names were kept without an index to say what the scan knew")
	}
	if body, tie, ok := m.namesBody(key[2:], cold.NewIndex(tiers.EncodingCL100K, nil)); tie != "" || ok {
		t.Errorf("a key without cold/ kept names %q tied to %q", body, tie)
	} else if m.saveNames(body, tie, ok); !bytes.Equal(mustReadFile(t, name), data) {
		t.Error("a key without cold/ rewrote the names")
	}
	zeroed := slices.Clone(data)
	copy(zeroed[len(zeroed)-8:], make([]byte, 7))
	for _, bad := range [][]byte{data[:len(data)-1], data[:len(data)-len("cold/b/c.md\t-\n")], zeroed, append([]byte("wake start names 0\n"), data[len(namesHead):]...)} {
		os.WriteFile(name, bad, 0o644)
		if _, ok := readNames(fsys, root, tie, sum); ok {
			t.Errorf("damaged names %q were taken", bad)
		}
	}

	// A document added after the key was taken: the names are not kept
	// under its stamps; those kept before stay tied to the old stamps,
	// which no key taken now holds.
	if sum = save(key); sum == "none" {
		t.Fatal("the names were not kept again")
	}
	os.WriteFile(filepath.Join(root, "cold", "b", "d.md"), nil, 0o644)
	if save(key) != "none" {
		t.Error("names listed after their directory changed were kept")
	}
	if _, _, now := m.stampedDirs([]fsrecord.Entry{stamp("cold"), stamp("cold/b")}); now == tie {
		t.Fatal("the directory's stamp did not change with a document added")
	} else if _, ok := readNames(fsys, root, now, sum); ok {
		t.Error("names kept under the old stamps were taken under the new ones")
	}
	// A racy directory is keyed by its names as well: names that are
	// not those are not kept either.
	racy := []fsrecord.Entry{stamp("cold"), stamp("cold/b")}
	_, _, racyTie := m.stampedDirs(racy)
	racy[1].Hash = fsrecord.NamesHash([]string{"c.md", "d.md"})
	if sum = save(racy); sum == "none" {
		t.Fatal("the names of a racy directory, as keyed, were not kept")
	}
	if _, ok := readNames(fsys, root, racyTie, sum); !ok {
		t.Error("the names of a racy directory, as keyed, were not taken")
	}
	racy[1].Hash = "not the names"
	before := mustReadFile(t, name)
	if save(racy) != "none" {
		t.Error("names other than the racy directory's keyed names were kept")
	}
	// Left as they were: only an entry recorded with them takes them,
	// once its key (the racy directory's names) holds.
	if !bytes.Equal(mustReadFile(t, name), before) {
		t.Error("names that could not be kept overwrote those kept before")
	}
}

func mustReadFile(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
