package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/wakeproto/wake/internal/wakeupschema"
)

// mcpSDKVersion is the official TypeScript MCP SDK the test drives wake
// mcp with (.ci/run installs the same).
const mcpSDKVersion = "1.32.2"

// mcpRun is what testdata/mcp/client.cjs saw.
type mcpRun struct {
	Server       struct{ Name string }
	Instructions string
	Tools        []struct {
		Name, Description string
		Schema            struct {
			Type       string
			Properties map[string]struct{ Description string }
		}
	}
	Resources []struct{ URI, Text string }
	Templates []string
	Calls     []mcpCall
	Bad       []mcpCall
	Unknown   string `json:"unknownTool"`
	Garbage   []struct {
		ID       any
		Code     int
		Message  string
		Unparsed string
	}
	After mcpCall
}

type mcpCall struct {
	Name    string
	IsError bool
	Text    string
}

// TestMCPTypeScriptClient drives the real wake mcp with the official
// TypeScript client under node: the lists, every tool, every resource, bad
// arguments and lines that are not JSON-RPC, with the session going on
// after them.
func TestMCPTypeScriptClient(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs the TypeScript MCP client under node")
	}
	sdk := npmClient{test: "TestMCPTypeScriptClient", pkg: "@modelcontextprotocol/sdk", version: mcpSDKVersion,
		env: "WAKE_MCP_SDK_DIR", cache: "wake-mcp-sdk-"}.path(t)
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatalf("the MCP SDK is installed in %s, but node is not on PATH", sdk)
	}
	bin := wakeBinary(t)
	work := t.TempDir()
	home, proj := filepath.Join(work, "home"), filepath.Join(work, "proj")
	for _, d := range []string{home, proj} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	env := []string{"HOME=" + home, "XDG_CONFIG_HOME=" + filepath.Join(home, ".config"), "PATH=/usr/bin:/bin", "NO_COLOR=1"}
	runBounded(t, proj, env, 30*time.Second, bin, "init")
	fillPurpose(t, filepath.Join(proj, ".wake", "main.md"))
	if err := os.MkdirAll(filepath.Join(proj, ".wake", "cold", "notes"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(proj, ".wake", "cold", "notes", "oven.md"), []byte("---\nsummary: the oven\n---\n# Oven\n\nPreheat to 250.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	script, err := filepath.Abs(filepath.Join("testdata", "mcp", "client.cjs"))
	if err != nil {
		t.Fatal(err)
	}
	out := runBounded(t, proj, env, 120*time.Second, node, script, sdk, bin, proj)
	var r mcpRun
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("client output: %v\n%s", err, out)
	}
	checkMCPLists(t, r)
	want := map[string]string{
		"wake_load": "tallybook keeps the books", "wake_decide": "Decided #1", "wake_contest": "Contested #1",
		"wake_cold": "oven.md", "wake_check": `"findings"`, "wake_handoff": "Handed off session", "wake_log": "Bake at dawn", "wake_remember": "Remembered #1: Ask about Sunday opening",
		"memory_wakeup": `"version": "wakeup.v1"`,
	}
	seen := map[string]bool{}
	for _, c := range r.Calls {
		seen[c.Name] = true
		if c.IsError || !strings.Contains(c.Text, want[c.Name]) {
			t.Errorf("%s: error %v, want %q in:\n%s", c.Name, c.IsError, want[c.Name], c.Text)
		}
	}
	if len(seen) != len(want) || !strings.Contains(r.Calls[4].Text, "Preheat to 250.") {
		t.Errorf("calls: %+v", r.Calls)
	}
	wakeupschema.Validate(t, []byte(r.Calls[len(r.Calls)-1].Text))
	for i, w := range []string{`want "string"`, "because", "outside cold/", "not a duration", "must be one line", "page 9", "emacs"} {
		if c := r.Bad[i]; !c.IsError || !strings.Contains(c.Text, w) {
			t.Errorf("bad %s: error %v, want %q in %q", c.Name, c.IsError, w, c.Text)
		}
	}
	if !strings.Contains(r.Unknown, "-32602") || !strings.Contains(r.Unknown, "wake_nope") {
		t.Errorf("unknown tool: %q", r.Unknown)
	}
	var codes []int
	for _, g := range r.Garbage {
		codes = append(codes, g.Code)
	}
	if !slices.Equal(codes, []int{-32700, -32600, -32600}) || r.Garbage[2].ID != "g-1" {
		t.Errorf("answers to the garbage: %+v", r.Garbage)
	}
	if r.After.IsError || !strings.Contains(r.After.Text, "identity") {
		t.Errorf("wake_check after the garbage: %+v", r.After)
	}
}

// checkMCPLists checks the server's instructions, tools and resources as
// the client listed them.
func checkMCPLists(t *testing.T, r mcpRun) {
	t.Helper()
	if r.Server.Name != "wake" || len(r.Instructions) > 4095 || !strings.Contains(r.Instructions, "## Protocol") || !strings.Contains(r.Instructions, "wake_load") {
		t.Errorf("server %q, instructions (%d bytes):\n%s", r.Server.Name, len(r.Instructions), r.Instructions)
	}
	var names []string
	for _, tl := range r.Tools {
		names = append(names, tl.Name)
		if tl.Schema.Type != "object" || tl.Description == "" {
			t.Errorf("%s: %+v", tl.Name, tl)
		}
		for p, v := range tl.Schema.Properties {
			if v.Description == "" {
				t.Errorf("%s.%s: no description", tl.Name, p)
			}
		}
	}
	slices.Sort(names)
	if !slices.Equal(names, []string{"memory_wakeup", "wake_check", "wake_cold", "wake_contest", "wake_decide", "wake_handoff", "wake_load", "wake_log", "wake_remember"}) {
		t.Errorf("tools: %v", names)
	}
	if len(r.Resources) != 3 || r.Resources[0].URI != "wake://boot" || !strings.Contains(r.Resources[0].Text, "tallybook") ||
		r.Resources[1].URI != "wake://skill" || !strings.Contains(r.Resources[1].Text, "wake handoff") {
		t.Errorf("resources: %+v", r.Resources)
	}
	if p := r.Resources[2]; p.URI != "wake://packet/project" {
		t.Errorf("the packet resource: %s", p.URI)
	} else {
		wakeupschema.Validate(t, []byte(p.Text))
	}
	if !slices.Equal(r.Templates, []string{"wake://packet/{profile}"}) {
		t.Errorf("resource templates: %v", r.Templates)
	}
}
