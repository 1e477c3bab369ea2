package codex

import (
	"context"
	"strings"
	"testing"

	"github.com/wakeproto/wake/clients"
)

var mcpConfigs = map[string]string{
	"no file":        "\x00none",
	"blank":          "\n",
	"model":          "model = \"o3\"\n",
	"no last eol":    "model = \"o3\"",
	"crlf":           "model = \"o3\"\r\n\r\n[profiles.fast]\r\nmodel = \"mini\"\r\n",
	"user's servers": "# mine\n[mcp_servers.db]\ncommand = \"pg-mcp\"\nargs = []\n\n[mcp_servers.db.env]\nPGHOST = \"x\"\n",
	"dotted":         "mcp_servers.docs.command = \"docs\"\n",
}

// TestMCPRoundTrip installs with --mcp and uninstalls: the project's
// .codex/config.toml has [mcp_servers.wake] in between, and is given back
// byte for byte, the user's own servers included, or deleted when
// install created it.
func TestMCPRoundTrip(t *testing.T) {
	ctx := context.Background()
	for name, src := range mcpConfigs {
		t.Run(name, func(t *testing.T) {
			e := newEnv(t)
			e.opts.MCP = true
			e.put(t, "/p/.codex/config.toml", src)
			if _, err := clients.Install(ctx, e.client, e.opts); err != nil {
				t.Fatal(err)
			}
			got := e.read(t, "/p/.codex/config.toml")
			cfg, err := parseConfig("config.toml", []byte(got))
			if err != nil {
				t.Fatalf("%v\n%s", err, got)
			}
			if _, _, exact := wakeServer(cfg); !exact {
				t.Fatalf("no wake server in\n%s", got)
			}
			if r, err := clients.Install(ctx, e.client, e.opts); err != nil || r.Changed() {
				t.Fatalf("second install: %v", err)
			}
			if _, err := clients.Uninstall(ctx, e.client, e.opts); err != nil {
				t.Fatal(err)
			}
			if back := e.read(t, "/p/.codex/config.toml"); back != src {
				t.Fatalf("got back\n%q\nwant\n%q", back, src)
			}
		})
	}
}

// TestMCPUserAddedUnder leaves wake's table when the user added a key
// under it since: taking it out would move the key to the table before.
func TestMCPUserAddedUnder(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	e.opts.MCP = true
	e.put(t, "/p/.codex/config.toml", "model = \"o3\"\n")
	if _, err := clients.Install(ctx, e.client, e.opts); err != nil {
		t.Fatal(err)
	}
	edited := e.read(t, "/p/.codex/config.toml") + "startup_timeout_sec = 30\n"
	e.put(t, "/p/.codex/config.toml", edited)
	// wake's server with a key of the user's is still wake's.
	if r, err := clients.Install(ctx, e.client, e.opts); err != nil || r.Changed() {
		t.Fatalf("install again: %v", err)
	}
	r, err := clients.Uninstall(ctx, e.client, e.opts)
	if err != nil {
		t.Fatal(err)
	}
	if back := e.read(t, "/p/.codex/config.toml"); back != edited {
		t.Fatalf("changed:\n%s", back)
	}
	if lines := strings.Join(r.Lines(), "\n"); !strings.Contains(lines, ".codex/config.toml: no longer holds [mcp_servers.wake] as install wrote it") {
		t.Fatalf("report: %s", lines)
	}
}

// TestMCPRefuses names the file and line of what wake will not edit, and
// changes nothing.
func TestMCPRefuses(t *testing.T) {
	for src, want := range map[string]string{
		"[mcp_servers.wake]\ncommand = \"node\"\n":     "/p/.codex/config.toml:1: [mcp_servers.wake] already names another server",
		"mcp_servers = { db = { command = \"x\" } }\n": "/p/.codex/config.toml: wake cannot append [mcp_servers.wake] to this file",
		"model = \n": "/p/.codex/config.toml:1:",
	} {
		e := newEnv(t)
		e.opts.MCP = true
		e.put(t, "/p/.codex/config.toml", src)
		_, err := clients.Install(context.Background(), e.client, e.opts)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Fatalf("%q: %v, want %q", src, err, want)
		}
		if back := e.read(t, "/p/.codex/config.toml"); back != src {
			t.Fatalf("changed: %q", back)
		}
		if e.read(t, "/p/.codex/hooks.json") != "\x00none" {
			t.Fatal("hooks written by a refused install")
		}
	}
}
