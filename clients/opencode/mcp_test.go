package opencode

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/wakeproto/wake/clients"
	"github.com/wakeproto/wake/internal/splice"
)

var mcpConfigs = append(configs[:len(configs):len(configs)],
	struct{ name, src string }{"servers of its own", `{
  // a database
  "mcp": {
    "db": {"type": "local", "command": ["pg-mcp"], "enabled": true},
  },
  "instructions": [".wake/boot.md"]
}
`},
	struct{ name, src string }{"empty mcp", "{\"mcp\": {}}\n"},
	struct{ name, src string }{"mcp with a comment", "{\n  \"mcp\": { /* later */ }\n}\n"})

// TestMCPRoundTrip installs with --mcp and uninstalls: the config has
// wake's server in between, as OpenCode's schema gives a local one, and
// is given back byte for byte, the user's own servers and comments
// included.
func TestMCPRoundTrip(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, c := range mcpConfigs {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			fsys, o, warnings := memProject(t)
			o.MCP = true
			if c.name != "no file" {
				write(t, fsys, "/p/opencode.json", c.src)
			}
			if _, err := clients.Install(ctx, Client{}, o); err != nil {
				t.Fatal(err)
			}
			cfg, _ := read(t, fsys, "/p/opencode.json")
			_, blank, err := splice.ParseJSONC([]byte(cfg))
			if err != nil {
				t.Fatal(err)
			}
			var got struct {
				MCP map[string]struct {
					Type    string   `json:"type"`
					Command []string `json:"command"`
					Enabled bool     `json:"enabled"`
				} `json:"mcp"`
			}
			if err := json.Unmarshal(blank, &got); err != nil {
				t.Fatalf("%v\n%s", err, cfg)
			}
			if s := got.MCP["wake"]; s.Type != "local" || strings.Join(s.Command, " ") != "wake mcp" || !s.Enabled {
				t.Fatalf("no wake server in\n%s", cfg)
			}
			if !hasEntry([]byte(cfg), ".wake/boot.md") {
				t.Fatalf("no instructions entry in\n%s", cfg)
			}
			if r, err := clients.Install(ctx, Client{}, o); err != nil || r.Changed() {
				t.Fatalf("second install: %v", err)
			}
			if _, err := clients.Uninstall(ctx, Client{}, o); err != nil {
				t.Fatal(err)
			}
			back, exists := read(t, fsys, "/p/opencode.json")
			if exists != (c.name != "no file") || back != c.src {
				t.Fatalf("after uninstall (exists %v):\n%q\nwant\n%q", exists, back, c.src)
			}
			if len(*warnings) > 0 {
				t.Errorf("warnings: %q", *warnings)
			}
		})
	}
}

// TestMCPLater adds the server to an earlier install, and uninstall takes
// out both, in the reverse order.
func TestMCPLater(t *testing.T) {
	ctx := context.Background()
	fsys, o, _ := memProject(t)
	src := "{\n  \"theme\": \"dark\"\n}\n"
	write(t, fsys, "/p/opencode.json", src)
	if _, err := clients.Install(ctx, Client{}, o); err != nil {
		t.Fatal(err)
	}
	o.MCP = true
	r, err := clients.Install(ctx, Client{}, o)
	if err != nil {
		t.Fatal(err)
	}
	if lines := strings.Join(r.Lines(), "\n"); !strings.Contains(lines, `opencode.json: registered the MCP server "wake" ('wake mcp')`) {
		t.Fatalf("report: %s", lines)
	}
	r, err = clients.Uninstall(ctx, Client{}, o)
	if err != nil {
		t.Fatal(err)
	}
	if lines := strings.Join(r.Lines(), "\n"); !strings.Contains(lines, `opencode.json: removed the MCP server "wake"; removed ".wake/boot.md" from the instructions`) {
		t.Fatalf("report: %s", lines)
	}
	if back, _ := read(t, fsys, "/p/opencode.json"); back != src {
		t.Fatalf("got back %q", back)
	}
}

// TestMCPRefuses names the file and line of another server named wake,
// and changes nothing.
func TestMCPRefuses(t *testing.T) {
	fsys, o, _ := memProject(t)
	o.MCP = true
	src := "{\n  \"mcp\": {\n    \"wake\": {\"type\": \"remote\", \"url\": \"http://x\"}\n  }\n}\n"
	write(t, fsys, "/p/opencode.json", src)
	_, err := clients.Install(context.Background(), Client{}, o)
	if err == nil || !strings.Contains(err.Error(), `/p/opencode.json: 3:13: "mcp.wake" already names another server`) {
		t.Fatalf("%v", err)
	}
	if back, _ := read(t, fsys, "/p/opencode.json"); back != src {
		t.Fatalf("changed: %q", back)
	}
	if fileExists(fsys, "/p/.opencode/plugins/wake.js") {
		t.Fatal("plugin written by a refused install")
	}
}
