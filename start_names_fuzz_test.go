package wake

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/cold"
	"github.com/wakeproto/wake/tiers"
)

// FuzzKeptNames proves the names a recorded start keeps read back as
// written: each path, escaped or not, with its size and times, in the
// order the rotation takes them; and that whatever file readNames takes,
// whole by its sum (a file damaged from outside, its sum made to match),
// the cached start's rotation reads without a panic.
func FuzzKeptNames(f *testing.F) {
	f.Add("a.md\x00b\\t.md\x00c\n.md", "cold/b", []byte("cold/a.md\t-"))
	f.Add("s/x.md\x00s-x/y.md\x00\\", "", []byte("cold/a.md\t1 2 3\ncold/b.md"))
	f.Add("\t\x00\\\\n", "cold/\\", []byte("\n\n\t\\"))
	f.Fuzz(func(t *testing.T, list, after string, damaged []byte) {
		var paths []string
		for _, n := range strings.Split(list, "\x00") {
			paths = append(paths, "cold/"+n) // as namesOf lists them
		}
		paths = slices.Compact(slices.Sorted(slices.Values(paths)))
		var body []byte
		for i, p := range paths {
			body = fmt.Appendf(append(appendName(body, p), '\t'), "%d %d %d\n", i, -i, 2*i)
		}
		for _, k := range []int{1, 2, len(paths)/2 + 1, len(paths) + 1} {
			got := pickNames(body, after, k, nil)
			want := cold.Rotation(slices.Values(paths), after, k)
			if len(got) != len(want) {
				t.Fatalf("picked %d names of %q after %q, want %q", len(got), paths, after, want)
			}
			for j, kn := range got {
				i := slices.Index(paths, kn.path)
				if kn.path != want[j] || !kn.known || kn.size != int64(i) || kn.mtime != int64(-i) || kn.ctime != int64(2*i) {
					t.Fatalf("picked %+v, want %q as kept", kn, want[j])
				}
			}
		}

		// A file whose sum matches, whatever its body.
		fsys := afero.NewMemMapFs()
		file := append([]byte(fmt.Sprintf("%stie %s\n", namesHead, bodySum(damaged))), damaged...)
		afero.WriteFile(fsys, "/r/"+tiers.StateDir+"/"+namesFile, file, 0o644)
		if names, ok := readNames(fsys, "/r", "tie", bodySum(damaged)); ok {
			pickNames(names, after, 3, nil)
			pickNames(names, "", 3, nil)
		} else if bytes.HasSuffix(damaged, []byte{'\n'}) {
			t.Fatalf("whole names %q were not taken", damaged)
		}
	})
}
