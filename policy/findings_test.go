package policy

import (
	"strings"
	"testing"

	"github.com/wakeproto/wake/checks"
)

func TestRedactReport(t *testing.T) {
	t.Parallel()
	r := checks.Report{
		Findings: []checks.Finding{
			{Check: checks.Identity, Pass: true, Severity: checks.OK, Path: "main.md", Message: "purpose: the secret plan"},
			{Check: checks.Continuity, Pass: true, Severity: checks.OK, Path: "recent/latest.md", Message: "last session: secret work"},
			{Check: checks.Tasks, Pass: true, Severity: checks.OK, Path: "warm/active_tasks.md", Message: "current focus: visible task"},
			{Check: checks.Consistency, Severity: checks.Fail, Path: "warm/decisions.md", Message: checks.MsgConsistency, Details: []string{"1 vs 2: Use secret A / Use secret B"}},
		},
		LastSession: "secret work", Focus: "visible task",
	}
	r.Announcement = checks.Announce(r)
	got := RedactReport(r, map[string]string{"recent/latest.md": "secret", "warm/decisions.md": "confidential"})
	text := got.Announcement + got.LastSession + got.Focus
	for _, f := range got.Findings {
		text += f.Message + strings.Join(f.Details, "")
	}
	if strings.Contains(text, "secret work") || strings.Contains(text, "Use secret") {
		t.Fatalf("held-back text leaked: %q", text)
	}
	if got.Findings[0].Message != "purpose: the secret plan" || got.Focus != "visible task" {
		t.Fatal("text from documents that were not held back was redacted")
	}
	if got.Findings[3].Message != checks.MsgConsistency || !strings.Contains(got.Findings[3].Details[0], "1 detail(s) held back (warm/decisions.md is confidential)") {
		t.Fatalf("failure not kept plainly: %+v", got.Findings[3])
	}
	if got.Announcement != checks.MsgConsistency {
		t.Fatalf("announcement %q", got.Announcement)
	}
	if RedactReport(r, nil).Announcement != r.Announcement {
		t.Fatal("redacting nothing changed the report")
	}
}

// TestRedactDrift: a drift finding quotes the document it is about, so it
// is withheld when that document is held back, and only then.
func TestRedactDrift(t *testing.T) {
	t.Parallel()
	r := checks.Report{Findings: []checks.Finding{
		{Check: checks.Drift, Kind: checks.KindMissingPath, Pass: true, Severity: checks.Warning, Path: "warm/open_questions.md",
			Message: "warm/open_questions.md names 1 file path(s)", Details: []string{"keys/prod-canary.pem"}},
		{Check: checks.Drift, Kind: checks.KindMissingPath, Pass: true, Severity: checks.Warning, Path: "warm/active_tasks.md",
			Message: "warm/active_tasks.md names 1 file path(s)", Details: []string{"src/gone.go"}},
	}}
	got := RedactReport(r, map[string]string{"warm/open_questions.md": "secret"})
	if f := got.Findings[0]; strings.Contains(f.Message+strings.Join(f.Details, ""), "canary") || !strings.Contains(f.Details[0], "held back (warm/open_questions.md is secret)") {
		t.Errorf("drift on a secret document: %+v", f)
	}
	if f := got.Findings[1]; f.Details[0] != "src/gone.go" {
		t.Errorf("drift on a public document redacted: %+v", f)
	}
}
