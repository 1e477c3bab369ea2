package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// frontSpellings are ways of marking a document secret, or of writing
// front matter that cannot be read, that an earlier wake took for no
// front matter or for an internal document (issue 23, reproduction 1):
// BOM is the byte-order mark Windows editors write.
var frontSpellings = []struct{ name, open, key, value, close, eol string }{
	{"plain", "---", "sensitivity", "secret", "---", "\n"},
	{"byte-order-mark", "\ufeff---", "sensitivity", "secret", "---", "\n"},
	{"byte-order-mark-crlf", "\ufeff---", "sensitivity", "secret", "---", "\r\n"},
	{"capital-key", "---", "Sensitivity", "secret", "---", "\n"},
	{"upper-case-key", "---", "SENSITIVITY", "secret", "---", "\n"},
	{"upper-case-value", "---", "sensitivity", "SECRET", "---", "\n"},
	{"blank-line-before", "\n---", "sensitivity", "secret", "---", "\n"},
	{"space-before", " ---", "sensitivity", "secret", "---", "\n"},
	{"zero-width-space-before", "\u200b---", "sensitivity", "secret", "---", "\n"},
	{"four-dashes", "----", "sensitivity", "secret", "----", "\n"},
	{"cr-only", "---", "sensitivity", "secret", "---", "\r"},
	{"misspelt-key", "---", "sensitivty", "secret", "---", "\n"},
	{"misspelt-value", "---", "sensitivity", "secrte", "---", "\n"},
	{"unclosed", "---", "sensitivity", "secret", "", "\n"},
	{"canary-in-value", "---", "sensitivity", "\"secret, the db password is CANARYvaluezq\"", "---", "\n"},
}

// spelledSecret is a document in the spelling's front matter with canary
// in its summary, heading, an entry and its body, lines ended by eol.
func spelledSecret(sp struct{ name, open, key, value, close, eol string }, canary, body string) string {
	lines := []string{sp.open, "summary: the " + canary + " summary", "memory_type: preference",
		sp.key + ": " + sp.value}
	if sp.close != "" {
		lines = append(lines, sp.close)
	}
	lines = append(lines, "# "+canary+" heading", "",
		"[2026-11-20] DECISION: Keep "+canary+" BECAUSE: "+canary, "STATUS: active", "",
		"- [ ] "+canary+" task", "", body, canary+" body", "")
	return strings.Join(lines, sp.eol)
}

// TestSecretSpellingsNeverLeave marks, in each spelling, the decision log,
// a cold note and a note outside the tiers and cold/ (which only the
// wake-up packet reads) secret, each with a canary of its own, and runs
// every command that shows memory, the hook and the MCP server: no canary
// may appear in any output, nor in boot.md, skill.md, a capsule, the
// shared skill file or ledger.jsonl (contest, uphold and reverse of the
// secret log's entries included). The inbox is made secret likewise.
func TestSecretSpellingsNeverLeave(t *testing.T) {
	t.Parallel()
	for _, sp := range frontSpellings {
		t.Run(sp.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			run := func(args ...string) {
				a, _, errOut := newTestApp(t, dir)
				if code := a.run(args); code != 0 {
					t.Fatalf("%v: exit %d\n%s", args, code, errOut)
				}
			}
			run("init", "--agent", "Ava")
			root := filepath.Join(dir, ".wake")
			fillPurpose(t, filepath.Join(root, "main.md"))
			run("trust")
			run("handoff", "--summary", "first session", "--next", "more", "--happened", "did one")
			run("decide", "Use TOML for config", "--because", "it reads well")
			decisions, err := os.ReadFile(filepath.Join(root, "warm", "decisions.md"))
			if err != nil {
				t.Fatal(err)
			}
			_, log, _ := strings.Cut(string(decisions), "\n---\n")
			canaries := map[string]string{
				"warm/decisions.md": spelledSecret(sp, "CANARYlogzq", log),
				"cold/plan.md":      spelledSecret(sp, "CANARYcoldzq", "A plan."),
				"notes/pref.md":     spelledSecret(sp, "CANARYnotezq", "Tabs, not spaces."),
				"warm/inbox.md":     spelledSecret(sp, "CANARYinboxzq", "- #1 [2026-11-20] CANARYinboxzq reminder"),
			}
			for rel, doc := range canaries {
				name := filepath.Join(root, filepath.FromSlash(rel))
				os.MkdirAll(filepath.Dir(name), 0o755)
				if err := os.WriteFile(name, []byte(doc), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			var seen strings.Builder
			// The last ID: the template's comment shows one too.
			ids := regexp.MustCompile(`(?m)^ID: (d-[0-9a-f]+(?:-[a-z0-9]+)?)$`).FindAllStringSubmatch(log, -1)
			if ids == nil {
				t.Fatalf("no ID in the log:\n%s", log)
			}
			for _, args := range spellingCommands(ids[len(ids)-1][1]) {
				a, out, errOut := newTestApp(t, dir)
				switch args[0] {
				case "<hook>":
					a.in = strings.NewReader(hookJSON(dir))
					args = args[1:]
				case "mcp":
					a.in = strings.NewReader(mcpReads)
				}
				code := a.run(args)
				// A command that stopped on a usage or internal error showed
				// nothing, and so leaked nothing: the canary would prove
				// nothing of it.
				refused := args[0] == "cold" && len(args) == 2 // the secret note itself
				if code == 2 || code == 1 && !refused || refused && code != 1 {
					t.Errorf("wake %s: exit %d\n%s", strings.Join(args, " "), code, errOut)
				}
				fmt.Fprintf(&seen, "$ wake %s (exit %d)\n%s%s", strings.Join(args, " "), code, out, errOut)
			}
			capsules, _ := filepath.Glob(filepath.Join(root, "cold", "capsules", "*", "*.md"))
			if len(capsules) == 0 {
				t.Error("wake capsule wrote no capsule")
			}
			for _, f := range append([]string{"boot.md", "skill.md", "recent/latest.md", "main.md", "ledger.jsonl"}, capsules...) {
				if !filepath.IsAbs(f) {
					f = filepath.Join(root, f)
				}
				data, _ := os.ReadFile(f)
				fmt.Fprintf(&seen, "== %s\n%s", f, data)
			}
			shared, _ := os.ReadFile(filepath.Join(dir, "home", ".claude", "agentchat.skill.md"))
			fmt.Fprintf(&seen, "== shared skill\n%s", shared)
			for _, c := range []string{"CANARYlogzq", "CANARYcoldzq", "CANARYnotezq", "CANARYinboxzq", "CANARYvaluezq"} {
				if i := strings.Index(seen.String(), c); i >= 0 {
					s := seen.String()
					t.Errorf("%s leaks, near:\n%s", c, s[max(0, i-600):min(len(s), i+200)])
				}
			}
			if !strings.Contains(seen.String(), "held back") && !strings.Contains(seen.String(), "Held back") {
				t.Errorf("nothing says a document was held back:\n%s", seen.String())
			}
		})
	}
}

// mcpReads asks the MCP server for the boot context, the packet and
// skill.md, by tool and by resource.
const mcpReads = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"test","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"wake_load","arguments":{}}}
{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"memory_wakeup","arguments":{"task":"tabs preference plan"}}}
{"jsonrpc":"2.0","id":4,"method":"resources/read","params":{"uri":"wake://boot"}}
{"jsonrpc":"2.0","id":5,"method":"resources/read","params":{"uri":"wake://packet/project"}}
{"jsonrpc":"2.0","id":6,"method":"resources/read","params":{"uri":"wake://skill"}}
`

// spellingCommands are the commands that show memory, as an agent or a
// user runs them; id is the decision they contest, uphold and reverse.
func spellingCommands(id string) [][]string {
	return [][]string{
		{"load"}, {"load", "--format", "json"}, {"<hook>", "load", "--hook", "claude"},
		{"status"}, {"check"}, {"check", "--format", "json"},
		{"decisions"}, {"decisions", "--all", "--format", "json"},
		{"contest", id, "--objection", "too slow", "--proposal", "cache it"},
		{"uphold", id, "--because", "it stays"},
		{"reverse", id, "--by", "Use YAML", "--because", "anchors"},
		{"wakeup", "--task", "tabs preference plan"}, {"wakeup", "--task", "tabs preference plan", "--format", "json"},
		{"cold"}, {"cold", "plan.md"}, {"skill"}, {"log"},
		{"remember", "list"}, {"capsule", "--objective", "carry on"},
		{"mcp"},
		{"handoff", "--summary", "second session", "--next", "ship"},
		{"load"},
	}
}
