package boot

import (
	"fmt"
	"strings"
	"testing"

	"github.com/wakeproto/wake/tiers"
)

// TestTasksKeepOpenItems: a task list over its share loses its done items
// before any open one, wherever they stand (the Done section, or checked
// off among open ones); the open ones all stay while done ones can go.
func TestTasksKeepOpenItems(t *testing.T) {
	t.Parallel()
	enc := encoder(t)
	var b strings.Builder
	b.WriteString("---\nsummary: tasks\n---\n# Active tasks\n\n## In progress\n")
	for i := range 40 {
		if i%2 == 0 {
			fmt.Fprintf(&b, "- [x] finished job %d, with a note on how it went and what it touched\n", i)
		} else {
			fmt.Fprintf(&b, "- [ ] open job %d\n", i)
		}
	}
	b.WriteString("\n## Done\n")
	for i := range 60 {
		fmt.Fprintf(&b, "- shipped release %d with its changelog and the migration notes\n", i)
	}
	for _, path := range []string{tiers.TasksPath, tiers.QuestionsPath} {
		f := &File{Path: path, full: b.String()}
		f.Tokens = enc.Count(f.full)
		fit(f, 400, enc)
		if !f.Truncated || f.ShownTokens > 400 {
			t.Fatalf("%s: truncated %v, %d tokens", path, f.Truncated, f.ShownTokens)
		}
		for i := 1; i < 40; i += 2 {
			if !strings.Contains(f.Content, fmt.Sprintf("- [ ] open job %d\n", i)) {
				t.Errorf("%s: open job %d cut while done items went first:\n%s", path, i, f.Content)
			}
		}
		if strings.Contains(f.Content, "shipped release") || strings.Count(f.Content, "left out here") != 1 {
			t.Errorf("%s: the Done section kept while open items were at stake, or not one marker:\n%s", path, f.Content)
		}
	}
}

// TestSessionKeepsWhatIsActionable: a session summary over its share
// loses "What happened" first, and keeps its front matter (summary, next
// priority, risk), open threads and note to its successor.
func TestSessionKeepsWhatIsActionable(t *testing.T) {
	t.Parallel()
	enc := encoder(t)
	var b strings.Builder
	b.WriteString("---\nsummary: a long session\nsession: 2026-11-22T03:24:20Z\nnext_priority: ship the importer\nopen_risk: the VAT sums\n---\n# Session 2026-11-22\n\n## What happened\n")
	for i := range 80 {
		fmt.Fprintf(&b, "- step %d of a long afternoon of refactoring the importer and its tests\n", i)
	}
	b.WriteString("\n## Decisions made\n- Use TOML because YAML broke\n\n## What changed (files)\n- importer.go\n\n## Open threads\n- the golden files still need regenerating\n\n## For my successor\nRead importer.go first; the tests lie.\n")
	f := &File{Path: tiers.LatestPath, full: b.String()}
	f.Tokens = enc.Count(f.full)
	fit(f, 300, enc)
	if !f.Truncated || f.ShownTokens > 300 {
		t.Fatalf("truncated %v, %d tokens", f.Truncated, f.ShownTokens)
	}
	for _, want := range []string{"next_priority: ship the importer", "open_risk: the VAT sums", "the golden files still need regenerating", "Read importer.go first; the tests lie.", "Use TOML because YAML broke"} {
		if !strings.Contains(f.Content, want) {
			t.Errorf("%q cut before what happened:\n%s", want, f.Content)
		}
	}
	if strings.Contains(f.Content, "step 79 ") {
		t.Errorf("the end of what happened kept:\n%s", f.Content)
	}
}
