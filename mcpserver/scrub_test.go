package mcpserver_test

import (
	"context"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/afero"

	"github.com/wakeproto/wake/mcpserver"
)

// TestToolsScrubKeys (issue 23, reproduction 10): every tool that takes
// text answers with the caller's credentials redacted, on success and on
// error, and so do the wake-up packet's tool and resource over a note
// outside the tier files and cold/ (reproduction 2).
func TestToolsScrubKeys(t *testing.T) {
	fsys, o := newRoot(t)
	// Built from parts: no key sits in the repository whole.
	gh, aws := "gh"+"p_"+"R7kQ2mZ9vX4pL8wN3b"+"T6yH1cJ5dF0sAqE2uV", "AKIA"+"Q3EGUTNZ4XK7WMPA"
	slack := "xo" + "xb-" + "123456789012-1234567890123-" + "AbCdEfGhIjKlMnOpQrStUvWx"
	keys := gh + " " + aws + " " + slack
	afero.WriteFile(fsys, "/p/.wake/notes/pref.md", []byte("---\nsummary: Deploy with "+keys+"\nmemory_type: preference\n---\n# Tokens "+keys+"\n"), 0o644)
	cs := connect(t, mcpserver.Options{Root: "/p/.wake", Library: o})
	leaks := func(what, text string) {
		t.Helper()
		for _, k := range []string{gh, aws, slack} {
			if strings.Contains(text, k[4:]) {
				t.Errorf("%s shows %.6s…:\n%s", what, k, text)
			}
		}
	}
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"wake_decide", map[string]any{"what": "Deploy with " + keys, "because": "the CI holds " + aws, "topic": "deploy " + slack}},
		{"wake_decide", map[string]any{"what": "Deploy by hand " + keys, "because": "no CI " + aws, "topic": "deploy " + slack}},
		{"wake_contest", map[string]any{"decision": "1", "objection": "it leaks " + keys, "proposal": "use " + aws}},
		{"wake_contest", map[string]any{"decision": gh, "objection": "o", "proposal": "p"}},
		{"wake_remember", map[string]any{"text": "rotate " + keys, "topic": "keys " + aws, "next": "ask " + slack}},
		{"wake_handoff", map[string]any{"summary": "rotated " + keys, "next": "check " + aws, "risk": "old " + slack,
			"happened": []string{"found " + gh}, "decision": []string{"Keep keys in a vault " + gh + " because " + slack}, "thread": []string{aws}}},
		{"wake_cold", map[string]any{"path": "notes/" + gh + ".md"}},
		{"wake_log", map[string]any{}},
		{"memory_wakeup", map[string]any{"task": "deploy tokens"}},
		{"memory_wakeup", map[string]any{"task": "deploy tokens", "format": "markdown"}},
		{"memory_wakeup", map[string]any{"task": "deploy tokens", "format": "prompt"}},
	} {
		text, _ := call(t, cs, c.tool, c.args)
		leaks(c.tool, text)
	}
	rr, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "wake://packet/project"})
	if err != nil || len(rr.Contents) != 1 {
		t.Fatalf("wake://packet/project: %v", err)
	}
	leaks("wake://packet/project", rr.Contents[0].Text)
	data, _ := afero.ReadFile(fsys, "/p/.wake/ledger.jsonl")
	leaks("ledger.jsonl", string(data))
}
