package checks

import (
	"strings"
	"testing"
	"time"

	"github.com/wakeproto/wake/tiers"
)

// TestReviewDecisions: nostalgia. A decision in force whose BECAUSE names
// a file or a module the project no longer has, or that nothing touched
// for checks.review_after, is listed for review; a reversed one, a fresh
// one and one whose reasons are all there are not.
func TestReviewDecisions(t *testing.T) {
	t.Parallel()
	log := "[2026-11-01] DECISION: Parse config by hand BECAUSE: config/legacy.go cannot use a library\nSTATUS: active\n\n" +
		"[2026-11-02] DECISION: Keep the router BECAUSE: github.com/gorilla/mux handles our routes\nSTATUS: active\n\n" +
		"[2025-01-10] DECISION: Money in cents BECAUSE: floats round badly\nSTATUS: active\n\n" +
		"[2025-01-11] DECISION: Use tabs BECAUSE: gofmt\nSTATUS: active\nOBJECTION: [2026-10-01] spaces\nUPHELD: [2026-10-02] gofmt decides\n\n" +
		"[2025-01-12] DECISION: Use cgo BECAUSE: config/legacy.go\nSTATUS: reversed\nREVERSED_BY: [2025-02-01] no cgo\n\n" +
		"[2026-11-03] DECISION: Keep afero BECAUSE: report/vat.go and github.com/spf13/afero/mem need it\nSTATUS: active\n"
	m := Memory{Decisions: tiers.Doc{Path: tiers.DecisionsPath, Content: []byte(log)}}
	now := time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC)
	o := DriftOptions{
		Exists:      func(p string) bool { return p == "report/vat.go" },
		Module:      func(p string) (bool, bool) { return strings.HasPrefix(p, "github.com/spf13/afero"), true },
		ReviewAfter: 180 * 24 * time.Hour, Now: func() time.Time { return now },
	}
	var review []Finding
	for _, f := range CheckDrift(m, o) {
		if f.Kind == KindReview {
			review = append(review, f)
		}
	}
	if len(review) != 1 || review[0].Severity != Warning || !review[0].Pass {
		t.Fatalf("review findings %+v", review)
	}
	want := []string{
		"entry 1 ([2026-11-01] Parse config by hand): its reason names config/legacy.go, which the project no longer has",
		"entry 2 ([2026-11-02] Keep the router): its reason names the module github.com/gorilla/mux, which the project no longer requires",
		"entry 3 ([2025-01-10] Money in cents): untouched since 2025-01-10, longer than checks.review_after (180 days)",
	}
	if got := review[0].Details; strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("details:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// Age off: only the reasons that are gone.
	o.ReviewAfter = 0
	for _, f := range CheckDrift(m, o) {
		if f.Kind == KindReview && len(f.Details) != 2 {
			t.Errorf("review_after 0: %q", f.Details)
		}
	}
}

// TestReviewScopedPackages (issue 28): a decision whose BECAUSE names a
// scoped npm package the project's package.json no longer lists is listed
// for review (any "@scope/name" is taken for one); one it lists, a scoped
// name in a project without a package.json, an e-mail address and a bare
// handle are not.
func TestReviewScopedPackages(t *testing.T) {
	t.Parallel()
	log := "[2026-11-01] DECISION: Use the SDK's client BECAUSE: @acme/client retries for us.\nSTATUS: active\n\n" +
		"[2026-11-02] DECISION: Lint with the shared rules BECAUSE: `@acme/eslint-config` keeps the team's style\nSTATUS: active\n\n" +
		"[2026-11-03] DECISION: Ask Ben first BECAUSE: ben@acme.dev and @ben/reviews know the history, see @acme\nSTATUS: active\n"
	m := Memory{Decisions: tiers.Doc{Path: tiers.DecisionsPath, Content: []byte(log)}}
	review := func(o DriftOptions) []string {
		for _, f := range CheckDrift(m, o) {
			if f.Kind == KindReview {
				return f.Details
			}
		}
		return nil
	}
	listed := map[string]bool{"@acme/eslint-config": true}
	got := review(DriftOptions{Package: func(n string) (bool, bool) { return listed[n], true }})
	want := []string{
		"entry 1 ([2026-11-01] Use the SDK's client): its reason names the npm package @acme/client, which the project's package.json no longer lists",
		"entry 3 ([2026-11-03] Ask Ben first): its reason names the npm package @ben/reviews, which the project's package.json no longer lists",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("details:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if got := review(DriftOptions{Package: func(string) (bool, bool) { return false, false }}); len(got) != 0 {
		t.Errorf("without a package.json: %q", got)
	}
}
