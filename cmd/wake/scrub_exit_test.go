package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Fake credentials of three kinds, built from parts: no key sits in the
// repository whole.
var (
	keyGitHub = "gh" + "p_" + "R7kQ2mZ9vX4pL8wN3b" + "T6yH1cJ5dF0sAqE2uV"
	keyAWS    = "AKIA" + "Q3EGUTNZ4XK7WMPA"
	keySlack  = "xo" + "xb-" + "123456789012-1234567890123-" + "AbCdEfGhIjKlMnOpQrStUvWx"
	scrubKeys = []string{keyGitHub, keyAWS, keySlack}
)

// keysIn lists the fake credentials s shows; a key's first four bytes
// are left out of the search, so a marker naming its kind is no match.
func keysIn(s string) []string {
	var out []string
	for _, k := range scrubKeys {
		if strings.Contains(s, k[4:]) {
			out = append(out, k[:6]+"…")
		}
	}
	return out
}

// runScrub runs wake with args in dir and returns its stdout and stderr.
func runScrub(t *testing.T, dir string, args ...string) (int, string) {
	t.Helper()
	a, out, errOut := newTestApp(t, dir)
	code := a.run(args)
	return code, out.String() + errOut.String()
}

// TestPacketScrubsEveryDocument (issue 23, reproduction 2): a note outside
// the tier files and cold/ with credentials in its title, summary and
// body reaches the wake-up packet, in every format, with each redacted
// and counted, as the same note under cold/ does.
func TestPacketScrubsEveryDocument(t *testing.T) {
	t.Parallel()
	dir := memoryWithSessions(t)
	keys := strings.Join(scrubKeys, " ")
	for _, d := range []struct{ path, memType string }{
		{"notes/pref.md", "preference"}, {"notes/project.md", "project"}, {"notes/rule.md", "constraint"},
		{"notes/choice.md", "decision"}, {"notes/outage.md", "incident"}, {"notes/pattern.md", "pattern"},
		{"cold/pref.md", "preference"},
	} {
		doc := "---\nsummary: Deploy with " + keys + "\nmemory_type: " + d.memType + "\n---\n# Deploy tokens " + keys + "\n\n" +
			"Use " + keys + " to deploy.\n\nConsequence: " + keys + " leaked.\nPrevention: rotate " + keys + "\n"
		name := filepath.Join(dir, ".wake", filepath.FromSlash(d.path))
		os.MkdirAll(filepath.Dir(name), 0o755)
		if err := os.WriteFile(name, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{
		{"wakeup", "--task", "deploy tokens"}, {"wakeup"}, {"wakeup", "--task", "deploy tokens", "--format", "markdown"},
		{"wakeup", "--task", "deploy tokens", "--format", "prompt"}, {"wakeup", "--task", "deploy with " + keyGitHub},
	} {
		code, out := runScrub(t, dir, args...)
		if code != 0 {
			t.Fatalf("%v: exit %d:\n%s", args, code, out)
		}
		if leaks := keysIn(out); len(leaks) > 0 {
			t.Errorf("%v shows %v:\n%s", args, leaks, out)
		}
		if !strings.Contains(out, "[redacted:github-token]") {
			t.Errorf("%v shows nothing redacted:\n%s", args, out)
		}
		if len(args) == 3 || len(args) == 1 {
			var p struct {
				Policy struct {
					Redactions int `json:"redactions_applied"`
				}
			}
			if err := json.Unmarshal([]byte(out), &p); err != nil || p.Policy.Redactions < strings.Count(out, "[redacted:") {
				t.Errorf("%v: redactions_applied %d for %d markers (%v)", args, p.Policy.Redactions, strings.Count(out, "[redacted:"), err)
			}
		}
	}
}

// TestConfirmationsScrubbed (issue 23, reproduction 10): every command
// that takes text answers with it scrubbed, on success and on error, and
// the ledger keeps it scrubbed too.
func TestConfirmationsScrubbed(t *testing.T) {
	t.Parallel()
	dir := memoryWithSessions(t)
	gh, aws, slack := keyGitHub, keyAWS, keySlack
	for _, args := range [][]string{
		{"decide", "Deploy with " + gh, "--because", "the CI holds " + aws, "--topic", "deploy " + slack},
		{"decide", "Deploy by hand " + gh, "--because", "no CI " + aws, "--topic", "deploy " + slack},
		{"decide", "Deploy by hand " + gh, "--because", "no CI " + aws, "--topic", "deploy " + slack, "--force"},
		{"contest", "1", "--objection", "it leaks " + gh, "--proposal", "use " + aws},
		{"uphold", "1", "--because", "we keep " + slack},
		{"reverse", "1", "--by", "Deploy with a vault " + gh, "--because", "keys leak " + aws},
		{"remember", "rotate " + gh, "--topic", "keys " + aws, "--next", "ask " + slack, "--tag", "ops"},
		{"remember", "done", "1", "--because", "rotated " + gh},
		{"remember", "list", "--all"},
		{"handoff", "--summary", "rotated " + gh, "--next", "check " + aws, "--risk", "old " + slack, "--mood", "calm " + gh,
			"--happened", "found " + aws, "--decision", "Keep keys in a vault " + gh + " because " + slack,
			"--changed", "ci.yml: dropped " + gh, "--thread", "the " + aws + " audit", "--successor", "watch " + slack},
		{"capsule", "--dry-run", "--objective", "ship " + gh},
		{"capsule", "--objective", "ship " + gh},
		{"capsule", "prompt", "--session", "s-" + gh, "--stub"},
		{"cold", "notes/" + gh + ".md"},
		{"decisions", "--all"}, {"log"}, {"log", "--format", "json"},
	} {
		_, out := runScrub(t, dir, args...)
		if leaks := keysIn(out); len(leaks) > 0 {
			t.Errorf("wake %s\nshows %v:\n%s", strings.Join(args, " "), leaks, out)
		}
	}
	data, err := os.ReadFile(filepath.Join(dir, ".wake", "ledger.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if leaks := keysIn(string(data)); len(leaks) > 0 {
		t.Errorf("ledger.jsonl holds %v:\n%s", leaks, data)
	}
	if !strings.Contains(string(data), "[redacted:github-token]") {
		t.Errorf("ledger.jsonl shows nothing redacted:\n%s", data)
	}
}

// TestLedgerHoldsNoSecretText (issue 23, reproduction 3): with the
// decision log, or the inbox, made secret, every command that changes it
// records in ledger.jsonl what it did and to which decision, never the
// text; wake log still holds the lines back.
func TestLedgerHoldsNoSecretText(t *testing.T) {
	t.Parallel()
	for _, level := range []string{"secret", "confidential", "[unreadable"} {
		t.Run(strings.Trim(level, "["), func(t *testing.T) {
			t.Parallel()
			dir := memoryWithSessions(t)
			const canary = "CANARYledger"
			if code, out := runScrub(t, dir, "decide", "Use TOML "+canary, "--because", "it reads well "+canary); code != 0 {
				t.Fatalf("decide: %s", out)
			}
			if code, out := runScrub(t, dir, "remember", "look at "+canary); code != 0 {
				t.Fatalf("remember: %s", out)
			}
			front := "---\nsensitivity: " + level + "\n---\n"
			for _, f := range []string{"warm/decisions.md", "warm/inbox.md"} {
				name := filepath.Join(dir, ".wake", filepath.FromSlash(f))
				data, err := os.ReadFile(name)
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(name, append([]byte(front), data...), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			before, _ := os.ReadFile(filepath.Join(dir, ".wake", "ledger.jsonl"))
			for _, args := range [][]string{
				{"contest", "1", "--objection", "too slow " + canary, "--proposal", "cache it " + canary},
				{"uphold", "1", "--because", "it stays " + canary},
				{"contest", "1", "--objection", "still slow " + canary, "--proposal", "drop it"},
				{"reverse", "1", "--by", "Use YAML " + canary, "--because", "anchors " + canary},
				{"decide", "Use JSON for logs " + canary, "--because", "jq " + canary},
				{"remember", "again " + canary, "--topic", canary},
				{"remember", "done", "1", "--because", "done " + canary},
			} {
				if code, out := runScrub(t, dir, args...); code != 0 || strings.Contains(out, canary) {
					t.Errorf("wake %s: exit %d:\n%s", strings.Join(args, " "), code, out)
				}
			}
			after, err := os.ReadFile(filepath.Join(dir, ".wake", "ledger.jsonl"))
			if err != nil {
				t.Fatal(err)
			}
			added := strings.TrimPrefix(string(after), string(before))
			if strings.Contains(added, canary) {
				t.Errorf("ledger.jsonl holds the held-back text:\n%s", added)
			}
			for _, op := range []string{`"op":"contest"`, `"op":"uphold"`, `"op":"reverse"`, `"op":"decide"`, `"op":"remember"`} {
				if !strings.Contains(added, op) {
					t.Errorf("ledger.jsonl has no %s line:\n%s", op, added)
				}
			}
			if !strings.Contains(added, `"decision_ids":["d-`) || !strings.Contains(added, "document: no details kept") {
				t.Errorf("the lines do not name the decisions and what was held back:\n%s", added)
			}
			if _, out := runScrub(t, dir, "log"); strings.Contains(out, canary) {
				t.Errorf("wake log shows the text:\n%s", out)
			}
		})
	}
}
