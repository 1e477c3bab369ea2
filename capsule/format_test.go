package capsule

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"
)

func sample() Capsule {
	c := New(FrontMatter{
		Branch: "feature/capsules", SourceSession: "s-42",
		CreatedAt:        time.Date(2026, 11, 22, 22, 30, 0, 0, time.UTC),
		PrimaryObjective: `Ship "capsules": # not a comment`, TokenBudget: 1200, Version: Version,
		Files: []FileHash{{Path: "capsule/format.go", SHA256: strings.Repeat("ab", 32)}},
	})
	c.Set(MissionSnapshot, "- **Focus:** capsules\n- **Next:** the builder")
	c.Set(KnowledgeBase, "```\n# not a section\n```\n- capsule/format.go")
	return c
}

func TestRenderParseRoundTrip(t *testing.T) {
	c := sample()
	data := Render(c)
	got, err := Parse(data)
	if err != nil {
		t.Fatalf("Parse(Render(c)): %v\n%s", err, data)
	}
	for i := range got.Sections {
		got.Sections[i].Line = 0
	}
	if !reflect.DeepEqual(got, c) {
		t.Errorf("round trip:\n got %+v\nwant %+v\n%s", got, c, data)
	}
	if !strings.Contains(string(data), "# "+Risks+"\n\n"+Empty+"\n") {
		t.Errorf("an empty section is not written as %q:\n%s", Empty, data)
	}
	if !strings.HasPrefix(string(data), "---\nbranch: feature/capsules\nsource_session: s-42\ncreated_at: 2026-11-22T22:30:00Z\n") {
		t.Errorf("front matter does not start with its keys in order:\n%s", data)
	}
}

func TestParseErrors(t *testing.T) {
	good := string(Render(sample()))
	for _, tc := range []struct {
		name string
		src  string
		want []string // messages with their lines, in order
	}{
		{"no front matter", "# Mission Snapshot\n", []string{"line 1: no front matter"}},
		{"unclosed", "---\nbranch: x\n", []string{"line 1: no front matter"}},
		{"unknown key", strings.Replace(good, "version: \"1\"\n", "version: \"1\"\nauthor: me\n", 1),
			[]string{"line 8: front matter key \"author\" is not a capsule key"}},
		{"missing key", strings.Replace(good, "source_session: s-42\n", "", 1),
			[]string{"line 1: front matter has no source_session"}},
		{"key out of order", strings.Replace(good, "branch: feature/capsules\nsource_session: s-42\n", "source_session: s-42\nbranch: feature/capsules\n", 1),
			[]string{"line 3: front matter key branch is out of order"}},
		{"bad time", strings.Replace(good, "2026-11-22T22:30:00Z", "yesterday", 1),
			[]string{"line 4: front matter key created_at: \"yesterday\" is not a UTC time"}},
		{"bad budget", strings.Replace(good, "token_budget: 1200", "token_budget: lots", 1),
			[]string{"line 6: front matter key token_budget: \"lots\" is not a positive number"}},
		{"section out of order", strings.Replace(strings.Replace(good, "# Active Workstreams\n", "# Pending Actionz\n", 1), "# Pending Actions\n", "# Active Workstreams\n", 1),
			[]string{"is not one of the capsule's", "section \"Pending Actions\" is missing"}},
		{"swapped", swap(good, ActiveWorkstreams, PendingActions),
			[]string{"section \"Active Workstreams\" is out of order: it comes before \"Pending Actions\""}},
		{"duplicate", good + "\n# Knowledge Base\n\nmore\n",
			[]string{"section \"Knowledge Base\" is repeated (first at line 28)"}},
		{"text first", strings.Replace(good, "---\n# Mission", "---\nhello\n# Mission", 1),
			[]string{"text before the first section"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse([]byte(tc.src))
			var es Errors
			if !errors.As(err, &es) {
				t.Fatalf("error %v, want Errors", err)
			}
			if len(es) < len(tc.want) {
				t.Fatalf("errors %v, want %d", es, len(tc.want))
			}
			for i, w := range tc.want {
				if !strings.Contains(es[i].Error(), w) {
					t.Errorf("error %d = %q, want it to contain %q (all: %v)", i, es[i], w, es)
				}
			}
		})
	}
}

// swap exchanges the headings a and b of a rendered capsule.
func swap(s, a, b string) string {
	s = strings.Replace(s, "# "+a+"\n", "# @@\n", 1)
	s = strings.Replace(s, "# "+b+"\n", "# "+a+"\n", 1)
	return strings.Replace(s, "# @@\n", "# "+b+"\n", 1)
}

func TestParseLines(t *testing.T) {
	c, err := Parse(Render(sample()))
	if err != nil {
		t.Fatal(err)
	}
	if c.Sections[0].Line != 11 {
		t.Errorf("Mission Snapshot at line %d, want 11 (after 10 lines of front matter)", c.Sections[0].Line)
	}
}

func TestBranchDir(t *testing.T) {
	for in, want := range map[string]string{
		"main":              "main",
		"feature/capsules":  "feature/capsules",
		"feat/a b:c":        "feat/a-b-c-36cbc7a7",
		".hidden/x":         "-hidden/x-4a1e5c9e",
		"../../etc":         "--/--/etc-74ccf3c5",
		"a//b/./c":          "a/b/c-7f9e2033",
		"":                  NoBranch,
		"archive":           "archive-",
		"archive/2026":      "archive-/2026",
		"x/archive":         "x/archive",
		"Archive":           "Archive-",
		"ARCHIVE/x":         "ARCHIVE-/x",
		"résumé":            "r-sum--e9f7b5b6",
		Detached:            Detached,
		"release/v1.2_rc-1": "release/v1.2_rc-1",
	} {
		if got := BranchDir(in); got != want {
			t.Errorf("BranchDir(%q) = %q, want %q", in, got, want)
		}
	}
	// Branches that differ only in what the path cannot hold get
	// directories of their own.
	seen := map[string]string{}
	for _, b := range []string{"fix/bug#1", "fix/bug-1", "fix/bug 1", "feature/ünïcøde", "feature/-n-c-de", "a//b", "a/b"} {
		d := BranchDir(b)
		if other, ok := seen[d]; ok {
			t.Errorf("branches %q and %q share the directory %q", other, b, d)
		}
		seen[d] = b
	}
}

func TestIDs(t *testing.T) {
	at := time.Date(2026, 11, 22, 22, 30, 0, 0, time.FixedZone("x", 3600))
	if s := Stamp(at, 1); s != "20261122T213000Z" {
		t.Errorf("Stamp = %q", s)
	}
	id := ID("main", Stamp(at, 2))
	if id != "main/20261122T213000Z-2" || PathOf(id) != "cold/capsules/main/20261122T213000Z-2.md" ||
		ArchivePathOf(id) != "cold/capsules/archive/main/20261122T213000Z-2.md" {
		t.Errorf("id %q, paths %q %q", id, PathOf(id), ArchivePathOf(id))
	}
	for p, want := range map[string]string{
		PathOf(id):                            id,
		ArchivePathOf(id):                     id,
		"cold/capsules/main/notes.md":         "",
		"cold/other/main/20261122T213000Z.md": "",
		"cold/capsules/20261122T213000Z.md":   "",
	} {
		got, ok := IDOfPath(p)
		if got != want || ok != (want != "") {
			t.Errorf("IDOfPath(%q) = %q, %v; want %q", p, got, ok, want)
		}
	}
}

// TestMemoryType (issue 28): a capsule wake writes says it is session
// material (memory_type: session), which the wake-up packet leaves out
// by default wherever the file lies; one written before the key parses
// still, and another type is refused, naming the line.
func TestMemoryType(t *testing.T) {
	c := sample()
	c.Front.MemoryType = MemoryType
	data := Render(c)
	if !strings.Contains(string(data), "version: \"1\"\nmemory_type: session\nfiles:\n") {
		t.Fatalf("memory_type is not written after version:\n%s", data)
	}
	got, err := Parse(data)
	if err != nil || got.Front.MemoryType != MemoryType {
		t.Fatalf("Parse: %q %v", got.Front.MemoryType, err)
	}
	old := strings.Replace(string(data), "memory_type: session\n", "", 1)
	if got, err := Parse([]byte(old)); err != nil || got.Front.MemoryType != "" {
		t.Errorf("a capsule without memory_type: %q %v", got.Front.MemoryType, err)
	}
	_, err = Parse([]byte(strings.Replace(string(data), "memory_type: session\n", "memory_type: decision\n", 1)))
	if err == nil || !strings.Contains(err.Error(), "line 8: front matter key memory_type: \"decision\"") {
		t.Errorf("another memory_type: %v", err)
	}
}
