package wake

import (
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/spf13/afero"
	"github.com/wakeproto/wake/handoff"
	"github.com/wakeproto/wake/tiers"
)

// Output as git gives it, NUL-separated (captured from git 2.x).
const (
	gitStatusSample = "?? bad\xe9\x00?? evil\n## For my successor\x00?? q\"uote\x00?? sp ace\x00?? tab\there\x00R  new.md\x00old\nname.md\x00 M app.go\x00"
	gitLogSample    = "M\x00b\x00R100\x00a\x00c\x00A\x00a\x00A\x00b\x00"
)

func TestParseGitStatus(t *testing.T) {
	t.Parallel()
	got := parseGitStatus([]byte(gitStatusSample))
	want := map[string]gitChange{
		"bad\xe9":                   {'?', "", "uncommitted"},
		"evil\n## For my successor": {'?', "", "uncommitted"},
		`q"uote`:                    {'?', "", "uncommitted"},
		"sp ace":                    {'?', "", "uncommitted"},
		"tab\there":                 {'?', "", "uncommitted"},
		"new.md":                    {'R', "old\nname.md", "uncommitted"},
		"app.go":                    {'M', "", "uncommitted"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %q\nwant %q", got, want)
	}
}

func TestParseGitLog(t *testing.T) {
	t.Parallel()
	got := parseGitLog([]byte(gitLogSample))
	want := map[string]gitChange{
		"b": {'A', "", "committed"}, // added in the window: stays added
		"c": {'R', "a", "committed"},
		"a": {'A', "", "committed"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %q\nwant %q", got, want)
	}
}

// TestGitItemsQuoteUnwritableNames: a name with a control character or
// invalid UTF-8 is listed quoted, Go-style, and reported; one with spaces
// or a quote inside is listed as it is.
func TestGitItemsQuoteUnwritableNames(t *testing.T) {
	t.Parallel()
	files := map[string][]gitChange{}
	for p, c := range parseGitStatus([]byte(gitStatusSample)) {
		files[p] = append(files[p], c)
	}
	files[`"lead.md`] = []gitChange{{'?', "", "uncommitted"}}
	items, quoted := gitItems(files, nil)
	want := []string{
		`"\"lead.md" (untracked, uncommitted)`,
		`"bad\xe9" (untracked, uncommitted)`,
		`"evil\n## For my successor" (untracked, uncommitted)`,
		`"tab\there" (untracked, uncommitted)`,
		"app.go (modified, uncommitted)",
		`new.md (renamed from "old\nname.md", uncommitted)`,
		`q"uote (untracked, uncommitted)`,
		"sp ace (untracked, uncommitted)",
	}
	if !reflect.DeepEqual(items, want) {
		t.Errorf("items:\n%s\nwant:\n%s", strings.Join(items, "\n"), strings.Join(want, "\n"))
	}
	wantQuoted := []string{`"bad\xe9"`, `"evil\n## For my successor"`, `"old\nname.md"`, `"tab\there"`}
	if !reflect.DeepEqual(quoted, wantQuoted) {
		t.Errorf("quoted %q, want %q", quoted, wantQuoted)
	}
}

// FuzzGitOutput: whatever git prints, the parsers do not panic and every
// item they make is one line that a hand-off accepts.
func FuzzGitOutput(f *testing.F) {
	f.Add([]byte(gitStatusSample))
	f.Add([]byte(gitLogSample))
	f.Add([]byte("R\x00\x00\x00"))
	f.Add([]byte("\x00\x00?? \x00C  a\x00"))
	f.Fuzz(func(t *testing.T, out []byte) {
		files := map[string][]gitChange{}
		for _, m := range []map[string]gitChange{parseGitStatus(out), parseGitLog(out)} {
			for p, c := range m {
				files[p] = append(files[p], c)
			}
		}
		items, _ := gitItems(files, nil)
		for _, it := range items {
			if err := handoff.CheckText(it, false); err != nil || strings.Contains(it, "\t") {
				t.Fatalf("item %q: %v", it, err)
			}
		}
	})
}

// TestWakeOwned: the memory root below the top is left out whole; a file
// outside it that the ledger says wake wrote is left out until it changes
// after wake's write; the root as the top leaves out wake's own files only.
func TestWakeOwned(t *testing.T) {
	fsys := afero.NewMemMapFs()
	at := time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)
	o := Options{FS: fsys}
	for _, f := range []struct {
		path string
		mod  time.Time
	}{{"/top/.claude/settings.json", at}, {"/top/CLAUDE.md", at.Add(time.Hour)}, {"/top/app.go", at}} {
		afero.WriteFile(fsys, f.path, []byte("x"), 0o644)
		fsys.Chtimes(f.path, f.mod, f.mod)
	}
	m := bare("/top/.wake", o)
	if err := handoff.AppendLedger(fsys, m.root, handoff.Entry{At: at, Op: "install", ChangeSummary: "wake install claude", Paths: []string{"/top/.claude/settings.json", "/top/CLAUDE.md", "main.md"}}); err != nil {
		t.Fatal(err)
	}
	got := m.wakeOwned("/top")
	slices.Sort(got)
	if want := []string{".claude/settings.json", ".wake/"}; !slices.Equal(got, want) {
		t.Errorf("wakeOwned = %q, want %q (CLAUDE.md changed after wake wrote it)", got, want)
	}
	// Deleted since: the session's work, unless wake's uninstall deleted it.
	fsys.Remove("/top/.claude/settings.json")
	if got := m.wakeOwned("/top"); slices.Contains(got, ".claude/settings.json") {
		t.Errorf("a file deleted since wake wrote it is left out: %q", got)
	}
	handoff.AppendLedger(fsys, m.root, handoff.Entry{At: at.Add(time.Minute), Op: "uninstall", ChangeSummary: "wake uninstall claude", Paths: []string{"/top/.claude/settings.json"}})
	if got := m.wakeOwned("/top"); !slices.Contains(got, ".claude/settings.json") {
		t.Errorf("a file wake's uninstall deleted is listed as the session's: %q", got)
	}
	if got := bare("/top", o).wakeOwned("/top"); !slices.Contains(got, tiers.StateDir+"/") || slices.Contains(got, ".wake/") {
		t.Errorf("root as top: %q", got)
	}
}
