package store

import (
	"strings"
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/tiers"
)

// TestSealed: a ledger line keeps no text of a held-back document (secret,
// confidential, or with front matter that does not parse), only what was
// done and to which decisions, and no secret-looking string in any case;
// sealing twice gives what sealing once gives.
func TestSealed(t *testing.T) {
	t.Parallel()
	key := "gh" + "p_" + "R7kQ2mZ9vX4pL8wN3b" + "T6yH1cJ5dF0sAqE2uV" // built from parts: no key sits in the repo whole
	fsys := afero.NewMemMapFs()
	for name, data := range map[string]string{
		"secret.md": "---\nsensitivity: secret\n---\nx\n", "conf.md": "---\nsensitivity: confidential\n---\nx\n",
		"bad.md": "---\nsensitivity: [secret\n---\nx\n", "open.md": "# open\n",
	} {
		afero.WriteFile(fsys, "/r/"+name, []byte(data), 0o644)
	}
	at := time.Date(2026, 11, 22, 3, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		name string
		in   Entry
		want string // the change summary sealed
		sens string
	}{
		{"public, scrubbed", Entry{Op: "decide", Paths: []string{"open.md"}, ChangeSummary: "decided #1: use " + key}, "decided #1: use [redacted:github-token]", ""},
		{"secret", Entry{Op: "contest", Paths: []string{"secret.md"}, ChangeSummary: "contested #1 (the plan)", DecisionIDs: []string{"d-1a2b"}},
			"contest d-1a2b (a secret document: no details kept)", tiers.Secret},
		// A confidential document's paths are judged one by one when
		// shown: the line carries no level, so open.md stays named.
		{"confidential", Entry{Op: "handoff", Paths: []string{"open.md", "conf.md"}, ChangeSummary: "the plan", Summary: "the plan"},
			"handoff (a confidential document: no details kept)", ""},
		{"unreadable front matter", Entry{Op: "remember", Paths: []string{"bad.md"}, ChangeSummary: "remembered #3: the plan"},
			"remember (a secret document: no details kept)", tiers.Secret},
		{"gone, level recorded", Entry{Op: "reverse", Paths: []string{"gone.md"}, ChangeSummary: "reversed the plan", Sensitivity: tiers.Secret},
			"reverse (a secret document: no details kept)", tiers.Secret},
		{"edit keeps the scan's words", Entry{Op: OpEdit, Paths: []string{"open.md"}, ChangeSummary: `edited by hand: +1 -0 lines under "the plan"`, Sensitivity: tiers.Confidential},
			"edited by hand (a confidential document: no details kept)", tiers.Confidential},
		{"outside the root", Entry{Op: "install", Paths: []string{"../CLAUDE.md", "/etc/x"}, ChangeSummary: "wake install claude"}, "wake install claude", ""},
	} {
		c.in.At = at
		got := sealed(fsys, "/r", c.in)
		if got.ChangeSummary != c.want || got.Sensitivity != c.sens || c.want != c.in.ChangeSummary && got.Summary != "" {
			t.Errorf("%s: %+v, want %q (%s)", c.name, got, c.want, c.sens)
		}
		if again := sealed(fsys, "/r", got); again.ChangeSummary != got.ChangeSummary || again.Sensitivity != got.Sensitivity {
			t.Errorf("%s: sealing again gives %+v", c.name, again)
		}
		if strings.Contains(got.ChangeSummary+got.Summary, "plan") {
			t.Errorf("%s: the text is kept: %+v", c.name, got)
		}
	}
}
