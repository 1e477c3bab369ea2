package wake

import (
	"fmt"
	"math/rand/v2"
	"path"
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
		for _, d := range dirs {
			// The walk lists every directory: each is in the key.
			td.keyed[d] = true
			fsys.MkdirAll("/r/"+d, 0o755)
			for range r.IntN(8) {
				p := path.Join(d, fmt.Sprintf("%c%d.md", 'a'+r.IntN(4), r.IntN(5)))
				if slices.Contains(all, p) || td.keyed[p] {
					continue
				}
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
		paths, ok := namesOf(fsys, "/r", dirs)
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
// file or another head leaves the start to list the directories.
func TestNamesTiedToTheStamps(t *testing.T) {
	fsys := afero.NewMemMapFs()
	m := &Memory{root: "/r", o: Options{FS: fsys}}
	key := []fsrecord.Entry{
		{Path: "/r/cold", Identity: fsrecord.Identity{Exists: true, Dir: true, Listed: true, CTime: 5, MTime: 5, Inode: 9}},
		{Path: "/r/cold/b", Identity: fsrecord.Identity{Exists: true, Dir: true, Listed: true, CTime: 6, MTime: 6, Inode: 10}},
		{Path: "/r/main.md", Identity: fsrecord.Identity{Exists: true, CTime: 6, MTime: 6, Inode: 11}},
	}
	for _, p := range []string{"/r/cold/a.md", "/r/cold/b/c.md", "/r/cold/.tmp"} {
		afero.WriteFile(fsys, p, nil, 0o644)
	}
	m.saveNames(key)
	_, tie := m.stampedDirs(key)
	body, ok := readNames(fsys, "/r", tie)
	if want := "cold/a.md\ncold/b\ncold/b/c.md\n"; !ok || string(body) != want {
		t.Fatalf("kept names %q (%v), want %q", body, ok, want)
	}
	// The key's order and a settled directory's dropped names do not
	// change the tie.
	settled := []fsrecord.Entry{key[2], key[1], key[0]}
	settled[1].Hash = "names"
	if _, again := m.stampedDirs(settled); again != tie {
		t.Error("the tie changed with the key's order or a directory's names")
	}
	touched := slices.Clone(key)
	touched[1].CTime++
	if _, other := m.stampedDirs(touched); other == tie {
		t.Fatal("a directory's new change time kept the tie")
	} else if _, ok := readNames(fsys, "/r", other); ok {
		t.Error("the names kept under other stamps were taken")
	}
	name := "/r/" + tiers.StateDir + "/" + namesFile
	data, _ := afero.ReadFile(fsys, name)
	for _, bad := range [][]byte{data[:len(data)-1], append([]byte("wake start names 0\n"), data[len(namesHead):]...)} {
		afero.WriteFile(fsys, name, bad, 0o644)
		if _, ok := readNames(fsys, "/r", tie); ok {
			t.Errorf("damaged names %q were taken", bad)
		}
	}
}
