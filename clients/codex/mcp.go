package codex

import (
	"bytes"
	"fmt"
	"maps"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"

	"github.com/wakeproto/wake/clients"
	"github.com/wakeproto/wake/internal/splice"
)

// MCPFile is the project's Codex config, relative to the project: Codex
// reads it, [mcp_servers] included, in a trusted project (install has
// Codex trust the project), and it serves this project alone, as the
// hooks in .codex/hooks.json do. The user's ~/.codex/config.toml would
// register wake in every project, and uninstall from one would take it
// from all.
const MCPFile = ".codex/config.toml"

// mcpRecord is the table install added to the project's config.toml.
type mcpRecord struct {
	File string `json:"file"`
	// Added is the text install appended: wake's table and the line
	// breaks before it, wake's own bytes, never the user's.
	Added string `json:"added"`
	// Inside is the whole file before, when install created it from
	// nothing or whitespace ("" for no file); nil when it appended.
	Inside *string `json:"inside,omitempty"`
}

// mcpBlock is wake's table, in line endings eol.
func mcpBlock(eol string) string {
	args := make([]string, len(clients.MCPArgs))
	for i, a := range clients.MCPArgs {
		args[i] = strconv.Quote(a)
	}
	return "[mcp_servers." + clients.MCPName + "]" + eol +
		"command = " + strconv.Quote(clients.MCPCommand) + eol +
		"args = [" + strings.Join(args, ", ") + "]" + eol
}

// mcpPath is the project's .codex/config.toml.
func (w *wiring) mcpPath() string { return filepath.Join(w.Project, filepath.FromSlash(MCPFile)) }

// wakeServer reports whether the config registers a server under wake's
// name, and whether it is wake's: its command and arguments, perhaps with
// keys the user added (exact says there are none).
func wakeServer(cfg codexConfig) (present, ours, exact bool) {
	s, ok := cfg.table("mcp_servers")[clients.MCPName]
	if !ok {
		return false, false, false
	}
	t, _ := s.(map[string]any)
	args, _ := t["args"].([]any)
	want := make([]any, len(clients.MCPArgs))
	for i, a := range clients.MCPArgs {
		want[i] = a
	}
	ours = t["command"] == clients.MCPCommand && reflect.DeepEqual(args, want)
	return true, ours, ours && len(t) == 2
}

// addMCP returns config.toml with wake's table appended, and the record
// of it; nil when wake's server is there already. Every other byte stays.
func addMCP(name string, src []byte) ([]byte, *mcpRecord, error) {
	if splice.Blank(src) {
		was := string(src)
		block := mcpBlock(splice.LineEnding(src))
		return []byte(block), &mcpRecord{Added: block, Inside: &was}, nil
	}
	cfg, err := parseConfig(name, src)
	if err != nil {
		return nil, nil, err
	}
	if present, ours, _ := wakeServer(cfg); ours {
		return src, nil, nil
	} else if present {
		return nil, nil, fmt.Errorf("%s:%d: [mcp_servers.%s] already names another server", name, keyLine(src, clients.MCPName), clients.MCPName)
	}
	eol := splice.LineEnding(src)
	var add string
	if !bytes.HasSuffix(src, []byte("\n")) {
		add = eol
	}
	add += eol + mcpBlock(eol)
	out := append(bytes.Clone(src), add...)
	got, err := parseConfig(name, out)
	if err == nil {
		if _, _, exact := wakeServer(got); !exact {
			err = fmt.Errorf("%s: [mcp_servers.%s] appended at the end does not read back as wake's server", name, clients.MCPName)
		}
	}
	if err != nil {
		// An inline mcp_servers = { ... } cannot take another table.
		return nil, nil, fmt.Errorf("%s: wake cannot append [mcp_servers.%s] to this file (%v)", name, clients.MCPName, err)
	}
	return out, &mcpRecord{Added: add}, nil
}

// keyLine is the line of the first mention of key, for an error.
func keyLine(src []byte, key string) int {
	for _, it := range scanTOML(src) {
		if len(it.path) >= 2 && it.path[0] == "mcp_servers" && it.path[1] == key {
			return bytes.Count(src[:it.start], []byte("\n")) + 1
		}
	}
	return 1
}

// removeMCP returns config.toml without the text install appended, when
// it is still there as written and taking it out leaves everything else
// as it reads now (nothing added under wake's table since); gone says the
// file held nothing else, and out is then what it held before.
func removeMCP(name string, src []byte, m *mcpRecord) (out []byte, removed, gone bool, err error) {
	if m.Inside != nil && string(src) == m.Added && splice.Blank([]byte(*m.Inside)) {
		return []byte(*m.Inside), true, true, nil
	}
	i := bytes.LastIndex(src, []byte(m.Added))
	if m.Added == "" || i < 0 {
		return src, false, false, nil
	}
	cfg, err := parseConfig(name, src)
	if err != nil {
		return src, false, false, err
	}
	out = append(bytes.Clone(src[:i]), src[i+len(m.Added):]...)
	got, err := parseConfig(name, out)
	if err != nil {
		return src, false, false, nil
	}
	want := maps.Clone(cfg)
	servers := maps.Clone(cfg.table("mcp_servers"))
	delete(servers, clients.MCPName)
	if len(servers) == 0 {
		delete(want, "mcp_servers")
	} else {
		want["mcp_servers"] = servers
	}
	if _, _, exact := wakeServer(cfg); !exact || !reflect.DeepEqual(map[string]any(got), map[string]any(want)) {
		return src, false, false, nil
	}
	return out, true, false, nil
}

// planMCP plans registering wake's server in the project's config.toml.
func (w *wiring) planMCP() (clients.FileEdit, *mcpRecord, error) {
	f, err := w.Read(w.mcpPath())
	if err != nil {
		return f, nil, err
	}
	out, rec, err := addMCP(f.Path, f.Old)
	if err != nil {
		return f, nil, clients.Hinted(err, "fix the file (Codex cannot read it either), or rename the other server, and run the command again; wake left it untouched")
	}
	if rec != nil {
		rec.File = f.Path
	}
	f.New, f.Changed = out, rec != nil
	f.Done = fmt.Sprintf("registered the MCP server %q ('wake mcp') as [mcp_servers.%s]", clients.MCPName, clients.MCPName)
	f.Kept = fmt.Sprintf("already registers the MCP server %q; unchanged", clients.MCPName)
	return f, rec, nil
}

// planMCPRemoval plans taking wake's table out of the project's
// config.toml as m records it.
func (w *wiring) planMCPRemoval(m *mcpRecord) (clients.FileEdit, error) {
	f, err := w.Read(m.File)
	if err != nil || !f.Exists {
		f.Kept = "gone already"
		return f, err
	}
	out, removed, gone, err := removeMCP(f.Path, f.Old, m)
	if err != nil {
		return f, clients.Hinted(err, "fix the file (Codex cannot read it either) and run the command again; wake left it untouched")
	}
	f.New, f.Changed, f.Remove = out, removed, gone
	f.Done = fmt.Sprintf("removed the MCP server %q", clients.MCPName)
	f.Kept = fmt.Sprintf("no longer holds [mcp_servers.%s] as install wrote it, or holds more under it; nothing removed", clients.MCPName)
	return f, nil
}
