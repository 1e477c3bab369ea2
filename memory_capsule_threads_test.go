package wake_test

import (
	"context"
	"strings"
	"testing"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake"
	"github.com/wakeproto/wake/capsule"
	"github.com/wakeproto/wake/store"
)

// TestCapsuleThreadHypothesis: a reminder left with its hypothesis and
// the evidence still missing is written to the inbox with both, and the
// next capsule's Exploratory Threads carry them beside the next step.
func TestCapsuleThreadHypothesis(t *testing.T) {
	now := capsuleClock
	fsys, m, _ := capsuleRoot(t, "", &now)
	ctx := context.Background()
	if _, err := m.Remember(ctx, store.NewReminder{Text: "Slow imports", Topic: "perf", Hypothesis: "the parser copies each row",
		Missing: "a profile of a large import", Next: "run pprof"}); err != nil {
		t.Fatal(err)
	}
	inbox, _ := afero.ReadFile(fsys, "/demo/warm/inbox.md")
	for _, want := range []string{"- hypothesis: the parser copies each row\n", "- missing: a profile of a large import\n"} {
		if !strings.Contains(string(inbox), want) {
			t.Errorf("the inbox lacks %q:\n%s", want, inbox)
		}
	}
	w, err := m.Capsule(ctx, wake.CapsuleOptions{DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	got := w.Capsule.Section(capsule.ExploratoryThreads)
	if !strings.Contains(got, "**perf:** Slow imports **Hypothesis:** the parser copies each row **Missing evidence:** a profile of a large import **Next:** run pprof") {
		t.Errorf("Exploratory Threads:\n%s", got)
	}
}
