package transcript

import (
	"reflect"
	"strings"
	"testing"
)

// TestProjectEdits: only the files under the session's project (its
// working directory, or the directory Scope.Project gives for it) are
// its work, named relative to it; the others are only counted.
func TestProjectEdits(t *testing.T) {
	t.Parallel()
	edit := func(id, path string) string {
		return `{"type":"assistant","message":{"role":"assistant","content":[{"type":"tool_use","id":"` + id + `","name":"Write","input":{"file_path":"` + path + `"}}]},"timestamp":"2026-11-22T10:00:01Z"}` + "\n"
	}
	head := `{"type":"user","message":{"role":"user","content":"plan, then write"},"timestamp":"2026-11-22T10:00:00Z","cwd":"/repo/sub","sessionId":"s"}` + "\n"
	outside := edit("o1", "/root/.claude/plans/x.md") + edit("o2", "../../elsewhere/y.go") + edit("o3", "/root/.claude/plans/x.md")
	tr := head + outside + edit("i1", "/repo/sub/a.go") + edit("i2", "b.go") + edit("i3", "/repo/top.go")

	s, err := Read(strings.NewReader(tr), Claude, DefaultLimits(), Scope{})
	if err != nil {
		t.Fatal(err)
	}
	if want := []Edit{{"a.go", "Write"}, {"b.go", "Write"}}; !reflect.DeepEqual(s.Edits, want) || s.Outside != 3 {
		t.Errorf("under the working directory: %+v, %d outside", s.Edits, s.Outside)
	}
	top := Scope{Project: func(cwd string) string { return "/repo" }}
	s, err = Read(strings.NewReader(tr), Claude, DefaultLimits(), top)
	if err != nil {
		t.Fatal(err)
	}
	if want := []Edit{{"sub/a.go", "Write"}, {"sub/b.go", "Write"}, {"top.go", "Write"}}; !reflect.DeepEqual(s.Edits, want) || s.Outside != 2 {
		t.Errorf("under the git work tree: %+v, %d outside", s.Edits, s.Outside)
	}
	// A session whose only edits are outside did no work.
	for _, sc := range []Scope{{}, top} {
		s, _ := Read(strings.NewReader(head+outside), Claude, DefaultLimits(), sc)
		w, _ := ReadWork(strings.NewReader(head+outside), Claude, 0, sc)
		if s.DidWork() || w.DidWork() || s.Outside != 2 {
			t.Errorf("edits outside the project are work: %+v", s)
		}
	}
}
