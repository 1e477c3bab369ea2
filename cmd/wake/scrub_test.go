package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSecretsScrubbed: a credential pasted into a tier file never reaches
// the boot context, its JSON, the hook, boot.md or skill.md: each shows
// [redacted:<kind>] and says how many were redacted; wake check names the
// file, line and kind, never the value; the file itself is not rewritten.
func TestSecretsScrubbed(t *testing.T) {
	t.Parallel()
	dir := memoryWithSessions(t)
	key := "gh" + "p_" + "R7kQ2mZ9vX4pL8wN3b" + "T6yH1cJ5dF0sAqE2uV" // built from parts: no key sits in the repo whole
	tasks := filepath.Join(dir, ".wake", "warm", "active_tasks.md")
	body := "# Tasks\n\n- [ ] rotate the CI token " + key + " before Friday\n"
	if err := os.WriteFile(tasks, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	run := func(args ...string) string {
		a, out, errOut := newTestApp(t, dir)
		a.in = strings.NewReader(`{"cwd":"` + dir + `"}`)
		code := a.run(args)
		if code != 0 && !(args[0] == "check" && code >= 3) {
			t.Fatalf("%v: exit %d: %s", args, code, errOut)
		}
		return out.String() + errOut.String()
	}
	outputs := map[string]string{
		"load":  run("load"),
		"json":  run("load", "--format", "json"),
		"hook":  run("load", "--hook", "claude"),
		"check": run("check"),
		"skill": run("skill"),
	}
	data, _ := os.ReadFile(filepath.Join(dir, ".wake", "boot.md"))
	outputs["boot.md"] = string(data)
	for name, out := range outputs {
		if strings.Contains(out, key[4:]) {
			t.Errorf("%s shows the secret", name)
		}
	}
	for _, name := range []string{"load", "skill"} {
		if !strings.Contains(outputs[name], "rotate the CI token [redacted:github-token] before Friday") {
			t.Errorf("%s does not show the task redacted:\n%s", name, outputs[name])
		}
	}
	if !strings.Contains(outputs["load"], "1 secret redacted (github-token)") || !strings.Contains(outputs["json"], `"redacted": {`) {
		t.Error("load does not count the redaction")
	}
	for _, name := range []string{"check", "load"} {
		if !strings.Contains(outputs[name], "warm/active_tasks.md holds 1 secret-looking string(s)") || !strings.Contains(outputs[name], "line 3: github-token") {
			t.Errorf("%s does not warn where:\n%s", name, outputs[name])
		}
	}
	if got, _ := os.ReadFile(tasks); string(got) != body {
		t.Error("scrubbing rewrote the file")
	}
}

// TestColdPullScrubbed: a pulled cold document and its listing show a
// pasted credential redacted, and the pull says so.
func TestColdPullScrubbed(t *testing.T) {
	t.Parallel()
	dir := memoryWithSessions(t)
	key := "gh" + "p_" + "R7kQ2mZ9vX4pL8wN3b" + "T6yH1cJ5dF0sAqE2uV"
	doc := "---\nsummary: CI notes, token " + key + "\n---\n# CI\n\nThe deploy token is " + key + ".\n"
	if err := os.WriteFile(filepath.Join(dir, ".wake", "cold", "ci.md"), []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"cold", "ci.md"}, {"cold"}, {"load"}} {
		a, out, errOut := newTestApp(t, dir)
		if code := a.run(args); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errOut)
		}
		if strings.Contains(out.String()+errOut.String(), key[4:]) {
			t.Errorf("%v shows the secret:\n%s", args, out)
		}
		if args[0] == "cold" && len(args) == 2 && (!strings.Contains(out.String(), "The deploy token is [redacted:github-token].") || !strings.Contains(out.String(), "[wake: 2 secrets redacted (github-token)]")) {
			t.Errorf("the pull is not redacted as it should be:\n%s", out)
		}
		if args[0] == "load" && !strings.Contains(out.String(), "1 secret redacted (github-token)") {
			t.Errorf("load does not count the listing's redaction:\n%s", out)
		}
	}
}

// TestDecisionTextsQuotedSafely: a rule-1 refusal and the change lines of
// reverse, contest and uphold quote the log's entries scrubbed, and not at
// all when the log is held back.
func TestDecisionTextsQuotedSafely(t *testing.T) {
	t.Parallel()
	dir := memoryWithSessions(t)
	key := "gh" + "p_" + "R7kQ2mZ9vX4pL8wN3b" + "T6yH1cJ5dF0sAqE2uV"
	log := filepath.Join(dir, ".wake", "warm", "decisions.md")
	entry := "[2026-02-01] DECISION: Deploy with the token " + key + " BECAUSE: the CI needs it\nSTATUS: active\nTOPIC: deploy\n"
	run := func(args ...string) (int, string) {
		a, out, errOut := newTestApp(t, dir)
		code := a.run(args)
		return code, out.String() + errOut.String()
	}
	os.WriteFile(log, []byte(entry), 0o644)
	if code, out := run("decide", "Deploy by hand", "--because", "no CI", "--topic", "deploy"); code != 3 || strings.Contains(out, key[4:]) || !strings.Contains(out, "[redacted:github-token]") {
		t.Errorf("refusal: exit %d:\n%s", code, out)
	}
	if code, out := run("contest", "1", "--objection", "o", "--proposal", "p"); code != 0 || strings.Contains(out, key[4:]) {
		t.Errorf("contest: exit %d:\n%s", code, out)
	}
	os.WriteFile(log, []byte("---\nsensitivity: secret\n---\n"+entry), 0o644)
	if code, out := run("decide", "Deploy by hand", "--because", "no CI", "--topic", "deploy"); code != 3 || strings.Contains(out, "CI needs it") || !strings.Contains(out, "its text is held back") {
		t.Errorf("refusal on a held-back log: exit %d:\n%s", code, out)
	}
}

// TestRedactionsCounted: wake decisions and wake log say how many
// secret-looking strings they scrubbed, in text and JSON. The ledger line
// is written scrubbed; one an older wake wrote in clear is scrubbed when
// shown.
func TestRedactionsCounted(t *testing.T) {
	t.Parallel()
	dir := memoryWithSessions(t)
	key := "gh" + "p_" + "R7kQ2mZ9vX4pL8wN3b" + "T6yH1cJ5dF0sAqE2uV"
	run := func(args ...string) string {
		a, out, errOut := newTestApp(t, dir)
		if code := a.run(args); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errOut)
		}
		return out.String()
	}
	run("decide", "Rotate the token "+key, "--because", "it leaked")
	ledger := filepath.Join(dir, ".wake", "ledger.jsonl")
	data, err := os.ReadFile(ledger)
	if err != nil || strings.Contains(string(data), key[4:]) || !strings.Contains(string(data), "[redacted:github-token]") {
		t.Fatalf("the ledger line is not scrubbed (%v):\n%s", err, data)
	}
	old := `{"at":"2026-11-22T03:00:00Z","op":"decide","paths":["warm/decisions.md"],"change_summary":"decided #0: Rotate ` + key + `"}` + "\n"
	if err := os.WriteFile(ledger, append(data, old...), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"decisions"}, "1 secret redacted (github-token): wake shows them so"},
		{[]string{"decisions", "--format", "json"}, `"redacted": {`},
		{[]string{"log"}, "1 secret redacted (github-token)."},
		{[]string{"log", "--format", "json"}, `"redacted": {`},
	} {
		out := run(c.args...)
		if strings.Contains(out, key[4:]) || !strings.Contains(strings.ToLower(out), strings.ToLower(c.want)) {
			t.Errorf("%v:\n%s", c.args, out)
		}
	}
}
