package wake_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wakeproto/wake"
)

// TestCapsulePromptNamesThePlan: where the project keeps the branch's
// plan or progress notebook (docs/plans/<branch>.md, PROGRESS.md, ...),
// the capture prompt names it for the agent to check the capsule against,
// as the seed's plan_slug does; a plan slug looks under another name, and
// says so when nothing is there.
func TestCapsulePromptNamesThePlan(t *testing.T) {
	dir, m, _ := capsuleProject(t)
	ctx := context.Background()
	p, err := m.CapsulePrompt(ctx, wake.CapsulePromptOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Plans) != 0 || strings.Contains(p.Text, "plan or progress notebook") {
		t.Fatalf("a project without plans: %v\n%s", p.Plans, p.Text)
	}
	for _, f := range []string{"docs/plans/feature/capsules.md", "PROGRESS.md", "docs/plans/refine.md"} {
		if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(f)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), []byte("# plan\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p, err = m.CapsulePrompt(ctx, wake.CapsulePromptOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"- docs/plans/feature/capsules.md: the branch's plan or progress notebook", "- PROGRESS.md: the branch's plan", "the active tasks, the plan and"} {
		if !strings.Contains(p.Text, want) {
			t.Errorf("the prompt lacks %q:\n%s", want, p.Text)
		}
	}
	p, err = m.CapsulePrompt(ctx, wake.CapsulePromptOptions{PlanSlug: "refine"})
	if err != nil || p.Slug != "refine" || !strings.Contains(p.Text, "- docs/plans/refine.md: the branch's plan") || strings.Contains(p.Text, "feature/capsules.md:") {
		t.Errorf("with plan slug refine: %v, %v\n%s", p.Plans, err, p.Text)
	}
	p, err = m.CapsulePrompt(ctx, wake.CapsulePromptOptions{PlanSlug: "nowhere"})
	if err != nil || !strings.Contains(p.Text, "- PROGRESS.md:") {
		t.Errorf("with plan slug nowhere: %v, %v", p.Plans, err)
	}
}
