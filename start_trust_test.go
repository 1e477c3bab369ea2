package wake

import (
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

// TestTrustedDocsPickIsTheRotation proves the cached start's rotation,
// which lists only the directories whose paths can be next, picks what
// the rotation over every document in path order picks: random trees of
// nested directories (a directory's files sorting among its
// subdirectories' paths), random keyed documents left out, random points
// to go on from.
func TestTrustedDocsPickIsTheRotation(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	for round := range 200 {
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
		td := trustedDocs{fsys: fsys, root: "/r", keyed: map[string]bool{}, dirs: dirs}
		var all []string
		newlines := false
		for _, d := range dirs {
			// The walk lists every directory: each is in the key.
			td.keyed[d] = true
			fsys.MkdirAll("/r/"+d, 0o755)
			for range r.IntN(8) {
				p := path.Join(d, fmt.Sprintf("%c%d.md", 'a'+r.IntN(4), r.IntN(5)))
				if r.IntN(12) == 0 {
					p = path.Join(d, fmt.Sprintf("%c\n%d.md", 'a'+r.IntN(4), r.IntN(5)))
				}
				if slices.Contains(all, p) || td.keyed[p] {
					continue
				}
				newlines = newlines || strings.Contains(p, "\n")
				afero.WriteFile(fsys, "/r/"+p, nil, 0o644)
				if r.IntN(4) == 0 {
					td.keyed[p] = true
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
		got := td.pick(after, "", k)
		if len(got) < k && after != "" {
			got = append(got, td.pick("", after, k-len(got))...)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("round %d: dirs %q, documents %q, after %q, k %d: picked %q, want %q", round, dirs, all, after, k, got, want)
		}
		// The names a recorded start keeps pick the same.
		paths, ok := namesOf(fsys, "/r", dirs, nil)
		if !ok && newlines {
			continue // the starts list the directories
		}
		if !ok {
			t.Fatalf("round %d: the directories were not listed", round)
		}
		names := []byte(strings.Join(paths, "\n"))
		if len(paths) > 0 {
			names = append(names, '\n')
		}
		if got := pickNames(names, after, k, td.keyed); !slices.Equal(got, want) {
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
	m.saveNames(key)
	_, _, tie := m.stampedDirs(key)
	body, ok := readNames(fsys, root, tie)
	if want := "cold/a.md\ncold/b\ncold/b/c.md\n"; !ok || string(body) != want {
		t.Fatalf("kept names %q (%v), want %q", body, ok, want)
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
	} else if _, ok := readNames(fsys, root, other); ok {
		t.Error("the names kept under other stamps were taken")
	}
	name := filepath.Join(root, tiers.StateDir, namesFile)
	data, _ := os.ReadFile(name)
	zeroed := slices.Clone(data)
	copy(zeroed[len(zeroed)-8:], make([]byte, 7))
	for _, bad := range [][]byte{data[:len(data)-1], data[:len(data)-len("cold/b/c.md\n")], zeroed, append([]byte("wake start names 0\n"), data[len(namesHead):]...)} {
		os.WriteFile(name, bad, 0o644)
		if _, ok := readNames(fsys, root, tie); ok {
			t.Errorf("damaged names %q were taken", bad)
		}
	}

	// A document added after the key was taken: the names are not kept
	// under its stamps, and those kept before under them are not taken.
	m.saveNames(key)
	if _, ok := readNames(fsys, root, tie); !ok {
		t.Fatal("the names were not kept again")
	}
	os.WriteFile(filepath.Join(root, "cold", "b", "d.md"), nil, 0o644)
	m.saveNames(key)
	if _, ok := readNames(fsys, root, tie); ok {
		t.Error("names listed after their directory changed, or those kept before, were taken under the old stamps")
	}
	// A racy directory is keyed by its names as well: names that are
	// not those are not kept either.
	racy := []fsrecord.Entry{stamp("cold"), stamp("cold/b")}
	_, _, racyTie := m.stampedDirs(racy)
	racy[1].Hash = fsrecord.NamesHash([]string{"c.md", "d.md"})
	m.saveNames(racy)
	if _, ok := readNames(fsys, root, racyTie); !ok {
		t.Error("the names of a racy directory, as keyed, were not kept")
	}
	racy[1].Hash = "not the names"
	m.saveNames(racy)
	if _, ok := readNames(fsys, root, racyTie); ok {
		t.Error("names other than the racy directory's keyed names were taken")
	}
}
