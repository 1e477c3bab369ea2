package policy

import (
	"strings"
	"testing"

	"github.com/wakeproto/wake/checks"
	"github.com/wakeproto/wake/tiers"
)

// TestSecretFindings: a tier file holding a secret-looking string gets a
// warning naming its line and kind, never the value; a held-back document
// is not looked at, and a clean one gets nothing.
func TestSecretFindings(t *testing.T) {
	t.Parallel()
	key := "gh" + "p_" + "R7kQ2mZ9vX4pL8wN3b" + "T6yH1cJ5dF0sAqE2uV" // built from parts: no key sits in the repo whole
	docs := []tiers.Doc{
		{Path: tiers.TasksPath, Content: []byte("- [ ] deploy\n- token for CI: " + key + "\n")},
		{Path: tiers.QuestionsPath, Content: []byte("- " + key + "\n"), Meta: tiers.FrontMatter{Sensitivity: "secret"}},
		{Path: tiers.DecisionsPath, Content: []byte("nothing here\n")},
	}
	fs := SecretFindings(docs...)
	if len(fs) != 1 {
		t.Fatalf("findings %+v, want one", fs)
	}
	f := fs[0]
	if f.Check != checks.Drift || f.Kind != KindSecret || !f.Pass || f.Severity != checks.Warning || f.Path != tiers.TasksPath ||
		len(f.Details) != 1 || f.Details[0] != "line 2: github-token" {
		t.Errorf("finding %+v", f)
	}
	if strings.Contains(f.Message+strings.Join(f.Details, ""), key[4:]) {
		t.Error("the finding shows the secret")
	}
}
