package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// TestCodexLargeBootContext runs the real Codex CLI on a memory whose boot
// context is three times Codex's 10,000-byte hook limit (a hand-off with
// a long account, a hundred decisions in force): the first request still
// holds the HANDOFF, the newest decisions in force and the open tasks,
// within the limit, and names what it left out and where to read it
// (issue 26, point 3).
func TestCodexLargeBootContext(t *testing.T) {
	t.Parallel()
	_, _, stub, p := codexE2E(t)
	for i := range 100 {
		p.wake(t, "decide", fmt.Sprintf("Keep ledger rule %d of the first year", i), "--because", "the auditors asked for it, and changing it needs their sign-off", "--topic", fmt.Sprintf("ledger rule %d", i))
	}
	p.wake(t, "decide", "Round VAT per invoice", "--because", "the accountant says so", "--topic", "vat rounding")
	tasks := filepath.Join(p.dir, ".wake", "warm", "active_tasks.md")
	writeFile(t, tasks, readFile(t, tasks)+"\n## In progress\n- [ ] Regenerate the October VAT report "+e2eMarker+"\n")
	var happened []string
	for i := range 120 {
		happened = append(happened, "--happened", fmt.Sprintf("step %d of the importer rework, told at length so that the summary grows past the hook's limit", i))
	}
	p.wake(t, append([]string{"handoff", "--summary", "Reworked the importers", "--next", "Send the October report"}, happened...)...)
	p.wake(t, "install", "codex")
	boot := readFile(t, filepath.Join(p.dir, ".wake", "boot.md"))
	if len(boot) < 30000 {
		t.Fatalf("boot.md is %d bytes, want three times Codex's 10,000", len(boot))
	}
	p.codex(t, "hello")
	reqs := stub.requests()
	if len(reqs) == 0 {
		t.Fatal("the model got no request")
	}
	hook := ""
	for _, m := range reqs[0].Input {
		if text := m.text(); m.Role == "developer" && strings.HasPrefix(text, "# wake: memory loaded") {
			hook = text
		}
	}
	if n := len(hook); n == 0 || n > 10000 {
		t.Fatalf("the hook's text is %d bytes: none, or past Codex's 10,000", n)
	}
	for _, want := range []string{"## HANDOFF", "Send the October report", "Round VAT per invoice", "Regenerate the October VAT report", "## Left out", "warm/decisions.md (", ".wake/boot.md"} {
		if !strings.Contains(hook, want) {
			t.Errorf("the first request's hook text lacks %q", want)
		}
	}
	if t.Failed() {
		t.Logf("hook text:\n%s", hook)
	}
}
