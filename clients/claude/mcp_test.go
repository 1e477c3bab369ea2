package claude

import (
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"strings"
	"testing"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/clients"
)

// TestMCPRoundTrip installs with --mcp and uninstalls: .mcp.json has
// wake's server in between, as Claude Code reads it, and is given back
// byte for byte, the user's own servers included, or deleted when
// install created it.
func TestMCPRoundTrip(t *testing.T) {
	ctx := context.Background()
	for name, src := range map[string]string{
		"no file":        "",
		"empty":          "{}\n",
		"user's servers": "{\n    \"mcpServers\": {\n        \"db\": {\"command\": \"pg-mcp\", \"args\": []}\n    }\n}",
		"crlf other":     "{\r\n  \"x\": true\r\n}\r\n",
		"empty servers":  "{ \"mcpServers\": { } }\n",
	} {
		t.Run(name, func(t *testing.T) {
			fsys, o, warnings := memProject(t)
			o.MCP = true
			if src != "" {
				if err := afero.WriteFile(fsys, "/p/.mcp.json", []byte(src), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			r, err := clients.Install(ctx, Client{}, o)
			if err != nil {
				t.Fatal(err)
			}
			data, err := afero.ReadFile(fsys, "/p/.mcp.json")
			if err != nil {
				t.Fatal(err)
			}
			var cfg struct {
				MCPServers map[string]struct {
					Command string   `json:"command"`
					Args    []string `json:"args"`
				} `json:"mcpServers"`
			}
			if err := json.Unmarshal(data, &cfg); err != nil {
				t.Fatalf("%v\n%s", err, data)
			}
			if s := cfg.MCPServers["wake"]; s.Command != "wake" || strings.Join(s.Args, " ") != "mcp" {
				t.Fatalf("no wake server in\n%s", data)
			}
			if !strings.Contains(strings.Join(r.Notes, "\n"), "enabledMcpjsonServers") {
				t.Errorf("no approval note: %q", r.Notes)
			}
			// A second run changes nothing.
			if r, err := clients.Install(ctx, Client{}, o); err != nil || r.Changed() {
				t.Fatalf("second install: %v changed %v", err, r != nil && r.Changed())
			}
			if _, err := clients.Uninstall(ctx, Client{}, o); err != nil {
				t.Fatal(err)
			}
			back, err := afero.ReadFile(fsys, "/p/.mcp.json")
			switch {
			case src == "" && !errors.Is(err, fs.ErrNotExist):
				t.Fatalf(".mcp.json left: %q %v", back, err)
			case src != "" && string(back) != src:
				t.Fatalf("got back\n%q\nwant\n%q", back, src)
			}
			if len(*warnings) > 0 {
				t.Fatalf("warnings: %q", *warnings)
			}
		})
	}
}

// TestMCPWithoutFlag leaves .mcp.json alone: the hooks are the install,
// the server is asked for.
func TestMCPWithoutFlag(t *testing.T) {
	fsys, o, _ := memProject(t)
	if _, err := clients.Install(context.Background(), Client{}, o); err != nil {
		t.Fatal(err)
	}
	if _, err := fsys.Stat("/p/.mcp.json"); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf(".mcp.json written without --mcp: %v", err)
	}
}

// TestMCPRefusesMalformed names the file and the line, and changes
// nothing: not the settings, not CLAUDE.md.
func TestMCPRefusesMalformed(t *testing.T) {
	for src, want := range map[string]string{
		"{\n  \"mcpServers\": {\n    \"wake\": {\"command\": \"node\"}\n  }\n}\n": `/p/.mcp.json: 3:13: "mcpServers.wake" already names another server`,
		"{\n  \"mcpServers\": [,]\n}\n":                                           "/p/.mcp.json: 2:18: invalid character",
	} {
		fsys, o, _ := memProject(t)
		o.MCP = true
		if err := afero.WriteFile(fsys, "/p/.mcp.json", []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := clients.Install(context.Background(), Client{}, o)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Fatalf("%v, want %q", err, want)
		}
		if _, err := fsys.Stat("/p/.claude/settings.json"); !errors.Is(err, fs.ErrNotExist) {
			t.Fatalf("settings written: %v", err)
		}
		if data, _ := afero.ReadFile(fsys, "/p/.mcp.json"); string(data) != src {
			t.Fatalf(".mcp.json changed: %q", data)
		}
	}
}

// TestMCPUninstallKeepsChanged leaves a server the user changed since,
// and says so.
func TestMCPUninstallKeepsChanged(t *testing.T) {
	ctx := context.Background()
	fsys, o, _ := memProject(t)
	o.MCP = true
	if _, err := clients.Install(ctx, Client{}, o); err != nil {
		t.Fatal(err)
	}
	data, _ := afero.ReadFile(fsys, "/p/.mcp.json")
	edited := strings.Replace(string(data), `"mcp"`, `"mcp", "--root", "x"`, 1)
	if err := afero.WriteFile(fsys, "/p/.mcp.json", []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := clients.Uninstall(ctx, Client{}, o)
	if err != nil {
		t.Fatal(err)
	}
	if back, _ := afero.ReadFile(fsys, "/p/.mcp.json"); string(back) != edited {
		t.Fatalf("changed server touched:\n%s", back)
	}
	if lines := strings.Join(r.Lines(), "\n"); !strings.Contains(lines, ".mcp.json: no longer registers") {
		t.Fatalf("report: %s", lines)
	}
}
