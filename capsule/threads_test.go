package capsule

import (
	"strings"
	"testing"
	"time"
)

// TestBuildExploratoryThreadFields: an exploratory thread (a reminder)
// shows the seed's fields, its current hypothesis and the evidence still
// missing, besides its topic and next discovery step; the capture prompt
// asks for all four.
func TestBuildExploratoryThreadFields(t *testing.T) {
	src := Sources{Reminders: []Reminder{{N: 4, At: time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC), Text: "Slow imports",
		Topic: "perf", Hypothesis: "the CSV parser copies each row", Missing: "a profile of a 1 GB import", Next: "run pprof"}}}
	got := Build(src, opts(t, 1200)).Capsule.Section(ExploratoryThreads)
	want := "- **perf:** Slow imports **Hypothesis:** the CSV parser copies each row **Missing evidence:** a profile of a 1 GB import **Next:** run pprof [inbox 4, 2026-11-22T09:00:00Z]"
	if got != want {
		t.Errorf("thread:\n got %s\nwant %s", got, want)
	}
	p := Prompt(PromptInput{Front: FrontMatter{Branch: "main", TokenBudget: 1200}})
	for _, w := range []string{"current hypothesis", "evidence still missing", "next discovery step"} {
		if !strings.Contains(p, w) {
			t.Errorf("the capture prompt does not ask for the %s:\n%s", w, p)
		}
	}
}
