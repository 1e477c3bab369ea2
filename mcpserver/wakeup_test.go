package mcpserver_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/afero"

	"github.com/wakeproto/wake/internal/wakeupschema"
	"github.com/wakeproto/wake/mcpserver"
)

// TestWakeup asks for the wake-up packet through memory_wakeup in each
// format and through wake://packet/project: each JSON packet is valid
// wakeup.v1, scored against the task given.
func TestWakeup(t *testing.T) {
	fsys, o := newRoot(t)
	afero.WriteFile(fsys, "/p/.wake/cold/notes/rounding.md", []byte("---\nsummary: Round VAT per line, never per invoice\nmemory_type: constraint\n---\n# VAT rounding\n\nThe tax office wants VAT rounded on each line.\n"), 0o644)
	cs := connect(t, mcpserver.Options{Root: "/p/.wake", Library: o})
	text, isErr := call(t, cs, "memory_wakeup", map[string]any{"task": "fix the VAT rounding", "files": []string{"report/vat.go"}, "target": "codex"})
	if isErr {
		t.Fatalf("memory_wakeup: %s", text)
	}
	wakeupschema.Validate(t, []byte(text))
	var p struct {
		Version, Target string
		Query           struct{ Task string }
		Constraints     []struct{ Title, Source string }
	}
	if err := json.Unmarshal([]byte(text), &p); err != nil || p.Version != "wakeup.v1" || p.Target != "codex" || p.Query.Task != "fix the VAT rounding" ||
		len(p.Constraints) == 0 || !strings.Contains(p.Constraints[0].Source, "rounding.md") {
		t.Errorf("packet (%v):\n%s", err, text)
	}
	for format, want := range map[string]string{"markdown": "VAT rounding", "prompt": "VAT"} {
		if text, isErr := call(t, cs, "memory_wakeup", map[string]any{"task": "fix the VAT rounding", "format": format}); isErr || !strings.Contains(text, want) {
			t.Errorf("format %s: error %v, want %q in:\n%s", format, isErr, want, text)
		}
	}
	for _, bad := range []map[string]any{{"target": "emacs"}, {"profile": "nobody"}, {"format": "yaml"}, {"files": "one.go"}} {
		if text, isErr := call(t, cs, "memory_wakeup", bad); !isErr {
			t.Errorf("%v: no error:\n%.200s", bad, text)
		}
	}
	lt, err := cs.ListResourceTemplates(context.Background(), nil)
	if err != nil || len(lt.ResourceTemplates) != 1 || lt.ResourceTemplates[0].URITemplate != mcpserver.PacketTemplate {
		t.Fatalf("templates: %v %+v", err, lt)
	}
	rr, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "wake://packet/project"})
	if err != nil || len(rr.Contents) != 1 {
		t.Fatalf("wake://packet/project: %v %+v", err, rr)
	}
	wakeupschema.Validate(t, []byte(rr.Contents[0].Text))
	if _, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "wake://packet/nobody"}); err == nil || !strings.Contains(err.Error(), "nobody") {
		t.Errorf("wake://packet/nobody: %v", err)
	}
}

// TestWakeupDeveloper reads the developer profile through the resource
// template and the tool: refused with the hint while the user's config
// names no developer root, then the packet of the one it names, with the
// config's notices ending the tool's result.
func TestWakeupDeveloper(t *testing.T) {
	fsys, o := newRoot(t)
	cs := connect(t, mcpserver.Options{Root: "/p/.wake", Library: o})
	if _, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "wake://packet/developer"}); err == nil || !strings.Contains(err.Error(), "names none") {
		t.Errorf("no developer roots: %v", err)
	}
	afero.WriteFile(fsys, "/home/ava/.config/wake/developer/00-Identity/me.md", []byte("---\nsummary: Backend engineer, Go and SQL\n---\n# Ava\n"), 0o644)
	afero.WriteFile(fsys, "/home/ava/.config/wake/developer/30-Workflows/money.md", []byte("---\nsummary: Always test money code with odd cents\nmemory_type: constraint\n---\n# Money\n"), 0o644)
	afero.WriteFile(fsys, "/home/ava/.config/wake/config.toml", []byte("[wakeup]\ndeveloper = [\"~/.config/wake/developer\", \"~/missing\"]\n"), 0o644)
	rr, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "wake://packet/developer"})
	if err != nil {
		t.Fatal(err)
	}
	wakeupschema.Validate(t, []byte(rr.Contents[0].Text))
	if !strings.Contains(rr.Contents[0].Text, `"profile": "developer"`) || !strings.Contains(rr.Contents[0].Text, "odd cents") {
		t.Errorf("developer packet:\n%s", rr.Contents[0].Text)
	}
	text, isErr := call(t, cs, "memory_wakeup", map[string]any{"profile": "developer", "task": "round money", "format": "markdown"})
	if isErr || !strings.Contains(text, "odd cents") || !strings.Contains(text, "wake: warning: ") || !strings.Contains(text, "~/missing") {
		t.Errorf("memory_wakeup developer: %v\n%s", isErr, text)
	}
}
