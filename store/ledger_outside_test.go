package store

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/tiers"
)

// TestOutsideWritesRecord checks the answer read through the record of
// a last answer against the ledger read whole: after appends, a torn last
// line and its closing, a hand edit within what the record covers, a cut
// ledger, one replaced by another file, and a damaged record.
func TestOutsideWritesRecord(t *testing.T) {
	for _, osfs := range []bool{false, true} {
		t.Run(fmt.Sprintf("os=%v", osfs), func(t *testing.T) {
			var fs afero.Fs = afero.NewMemMapFs()
			root := "/r"
			if osfs {
				fs, root = afero.NewOsFs(), t.TempDir()
			}
			name := filepath.Join(root, tiers.LedgerPath)
			var lines []string
			line := func(i int) string {
				e := Entry{At: ledgerT0.Add(time.Duration(i/2) * time.Minute), Op: "decide", Paths: []string{tiers.DecisionsPath}, ChangeSummary: fmt.Sprintf("d %d %s", i, strings.Repeat("y", i%97))}
				switch i % 7 {
				case 0:
					e.Op, e.Paths = "install", []string{"/top/CLAUDE.md", fmt.Sprintf("/top/f%d", i%5), "main.md", "../AGENTS.md", fmt.Sprintf("~/.claude/s%d.json", i%3)}
				case 3:
					e.Op, e.Paths = "uninstall", []string{fmt.Sprintf("/top/f%d", i%5)}
				}
				b, _ := json.Marshal(e)
				return string(b)
			}
			add := func(from, to int) {
				for i := from; i < to; i++ {
					lines = append(lines, line(i))
				}
			}
			write := func(text string) {
				t.Helper()
				f, err := fs.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o644)
				if err != nil {
					t.Fatal(err)
				}
				f.WriteString(text)
				f.Close()
			}
			check := func(step string) {
				t.Helper()
				entries, _, err := ReadLedger(fs, root)
				if err != nil {
					t.Fatal(err)
				}
				want := map[string]OutsideWrite{}
				for _, e := range entries {
					for _, p := range e.Paths {
						outside := filepath.IsAbs(filepath.FromSlash(p)) || strings.HasPrefix(p, "../") || strings.HasPrefix(p, "~/")
						if outside && !e.At.Before(want[p].At) {
							want[p] = OutsideWrite{At: e.At, Op: e.Op}
						}
					}
				}
				got := OutsideWrites(fs, root)
				if len(want) > 0 && (want["../AGENTS.md"].Op == "" || want["~/.claude/s0.json"].Op == "") {
					t.Fatalf("%s: the paths beside the root and under home are not read: %v", step, want)
				}
				if len(got) != len(want) {
					t.Fatalf("%s: %d paths through the record, %d read whole:\n%v\n%v", step, len(got), len(want), got, want)
				}
				for p, w := range want {
					if g, ok := got[p]; !ok || !g.At.Equal(w.At) || g.Op != w.Op {
						t.Fatalf("%s: %s: %v through the record, %v read whole", step, p, g, w)
					}
				}
			}
			fs.MkdirAll(filepath.Join(root, tiers.StateDir), 0o755)
			check("no ledger")
			add(0, 300)
			write(strings.Join(lines, "\n") + "\n")
			check("first")
			rec := readOutsideWrites(fs, root)
			if rec == nil || len(rec.last) == 0 {
				t.Fatal("no record written")
			}
			check("unchanged")
			add(300, 320)
			write(strings.Join(lines, "\n") + "\n")
			check("appended")
			if r := readOutsideWrites(fs, root); r == nil || r.size <= rec.size {
				t.Fatalf("the record was not carried on after an append: %+v", r)
			}
			// A torn last line naming a path, then the line closed.
			torn := line(320)
			write(strings.Join(lines, "\n") + "\n" + torn[:len(torn)-5])
			check("torn")
			write(strings.Join(lines, "\n") + "\n" + torn + "\n")
			check("closed")
			lines = append(lines, torn)
			// A line edited by hand, early and late.
			for _, i := range []int{7, len(lines) - 2} {
				lines[i] = strings.Replace(lines[i], `"paths":["`, `"paths":["/top/hand","`, 1)
				write(strings.Join(lines, "\n") + "\n")
				check(fmt.Sprintf("edited line %d", i))
			}
			// Cut, then grown back past the record's end with other lines.
			lines = lines[:100]
			write(strings.Join(lines, "\n") + "\n")
			check("cut")
			add(1000, 1400)
			write(strings.Join(lines, "\n") + "\n")
			check("regrown")
			// Replaced by another file, of the same size, differing in its
			// last line; and on a file system with inodes, differing in its
			// first line only (renamed over the ledger, so another inode).
			data, _ := afero.ReadFile(fs, name)
			i := strings.LastIndex(string(data), `"/top/`)
			other := string(data[:i]) + `"/top/x` + string(data[i+len(`"/top/x`):])
			fs.Remove(name)
			afero.WriteFile(fs, name, []byte(other), 0o644)
			check("replaced, the last line other")
			if osfs {
				other = strings.Replace(other, `"/top/f0"`, `"/top/g0"`, 1)
				afero.WriteFile(fs, name+".new", []byte(other), 0o644)
				fs.Rename(name+".new", name)
				check("replaced, the first line other")
			}
			// A damaged record is one there is not.
			p := filepath.Join(root, tiers.StateDir, OutsideWritesFile)
			b, _ := afero.ReadFile(fs, p)
			afero.WriteFile(fs, p, append(b[:len(b)-3], "}}}"...), 0o644)
			if readOutsideWrites(fs, root) != nil {
				t.Fatal("a damaged record was read")
			}
			check("damaged record")
			// A record whose key does not match is not trusted: one of the
			// same ledger, said to cover more than there is.
			r := readOutsideWrites(fs, root)
			r.size += 10
			r.last["/top/forged"] = OutsideWrite{At: ledgerT0, Op: "install"}
			saveOutsideWrites(fs, root, r)
			check("record beyond the end")
		})
	}
}

// TestLedgerPathsAreMachineFree: a file outside the root is named in the
// ledger relative to the root's directory or the home directory where it
// is under one, and named so it resolves to where it was; a name that
// would leave them resolves to nothing.
func TestLedgerPathsAreMachineFree(t *testing.T) {
	root, home := filepath.FromSlash("/work/p/.wake"), filepath.FromSlash("/home/ava")
	for _, c := range []struct{ path, want string }{
		{"/work/p/.wake/main.md", "main.md"},
		{"/work/p/CLAUDE.md", "../CLAUDE.md"},
		{"/work/p/.claude/settings.json", "../.claude/settings.json"},
		{"/home/ava/.claude/settings.json", "~/.claude/settings.json"},
		{"/etc/wake/x", "/etc/wake/x"},
	} {
		abs := filepath.FromSlash(c.path)
		got := LedgerPath(root, home, abs)
		if got != c.want {
			t.Errorf("LedgerPath(%s) = %q, want %q", c.path, got, c.want)
		}
		back, ok := OutsidePath(root, home, got)
		if inside := c.want == "main.md"; ok == inside || !inside && back != abs {
			t.Errorf("OutsidePath(%q) = %q %v, want %q", got, back, ok, abs)
		}
	}
	for _, p := range []string{"../../etc/passwd", "~/../../etc/passwd", "main.md", "warm/decisions.md"} {
		if abs, ok := OutsidePath(root, home, p); ok {
			t.Errorf("OutsidePath(%q) = %q, want none", p, abs)
		}
	}
	if _, ok := OutsidePath(root, "", "~/.claude/settings.json"); ok {
		t.Error("a path under an unknown home resolved")
	}
}
