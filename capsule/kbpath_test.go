package capsule

import (
	"strings"
	"testing"
)

// TestBuildKnowledgeBaseOnceAFile: a file the last summary names and git
// status lists again (spelt ./x, `x`, or x with another status) is one
// item of the Knowledge Base, not two; other files are all there.
func TestBuildKnowledgeBaseOnceAFile(t *testing.T) {
	src := someSources()
	src.Changed = []string{"memory.go (modified, committed)", "`./capsule/build.go` — the dedupe", "docs/a.md (added, committed)", "docs/a.md (added, committed)"}
	src.Files = []string{"capsule/build.go (modified, uncommitted)", "memory.go (modified, uncommitted)", "new.go (added, uncommitted)"}
	kb := Build(src, opts(t, 5000)).Capsule.Section(KnowledgeBase)
	for _, p := range []string{"memory.go", "capsule/build.go", "docs/a.md", "new.go"} {
		n := 0
		for _, l := range strings.Split(kb, "\n") {
			if changedPath(l) == p {
				n++
			}
		}
		if n != 1 {
			t.Errorf("%s is listed %d times in the Knowledge Base, want once:\n%s", p, n, kb)
		}
	}
	if !strings.Contains(kb, "- memory.go (modified, committed) · git now: modified, uncommitted") {
		t.Errorf("the summary's item does not say what git says of the file now:\n%s", kb)
	}
}

func TestChangedPath(t *testing.T) {
	for in, want := range map[string]string{
		"- memory.go (modified, committed)": "memory.go",
		"`./a/b.go` — note":                 "a/b.go",
		"a//b/../c.go: why":                 "a/c.go",
		"- ":                                "",
	} {
		if got := changedPath(in); got != want {
			t.Errorf("changedPath(%q) = %q, want %q", in, got, want)
		}
	}
}
