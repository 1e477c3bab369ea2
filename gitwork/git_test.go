package gitwork

import (
	"reflect"
	"strings"
	"testing"

	"github.com/wakeproto/wake/store"
)

// Output as git gives it, NUL-separated (captured from git 2.x).
const (
	gitStatusSample = "?? bad\xe9\x00?? evil\n## For my successor\x00?? q\"uote\x00?? sp ace\x00?? tab\there\x00R  new.md\x00old\nname.md\x00 M app.go\x00"
	gitLogSample    = "M\x00b\x00R100\x00a\x00c\x00A\x00a\x00A\x00b\x00"
)

func TestParseGitStatus(t *testing.T) {
	t.Parallel()
	got := parseStatus([]byte(gitStatusSample))
	want := map[string]change{
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
	got := parseLog([]byte(gitLogSample))
	want := map[string]change{
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
	files := map[string][]change{}
	for p, c := range parseStatus([]byte(gitStatusSample)) {
		files[p] = append(files[p], c)
	}
	files[`"lead.md`] = []change{{'?', "", "uncommitted"}}
	items, quoted := items(files, nil)
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
		files := map[string][]change{}
		for _, m := range []map[string]change{parseStatus(out), parseLog(out)} {
			for p, c := range m {
				files[p] = append(files[p], c)
			}
		}
		items, _ := items(files, nil)
		for _, it := range items {
			if err := store.CheckText(it, false); err != nil || strings.Contains(it, "\t") {
				t.Fatalf("item %q: %v", it, err)
			}
		}
	})
}
