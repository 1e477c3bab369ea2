package claude

import (
	"fmt"
	"path/filepath"

	"github.com/wakeproto/wake/clients"
	"github.com/wakeproto/wake/internal/splice"
)

// MCPFile is the project's MCP config Claude Code reads, relative to the
// project: where 'wake install claude --mcp' registers 'wake mcp'.
const MCPFile = ".mcp.json"

// mcpServer is a stdio server in .mcp.json's "mcpServers" (Claude Code
// takes a server without "type" for a stdio one).
type mcpServer struct {
	Command string   `json:"command"`
	Args    []string `json:"args"`
}

// mcpEntry is wake's server in .mcp.json.
var mcpEntry = splice.Entry{Outer: "mcpServers", Name: clients.MCPName,
	Value: mcpServer{Command: clients.MCPCommand, Args: clients.MCPArgs},
	Fresh: func(e splice.Entry, eol string) []byte {
		servers := splice.Marshal(map[string]any{e.Name: e.Value}, splice.Style{Unit: "  ", EOL: eol}, 1)
		return []byte("{" + eol + "  \"mcpServers\": " + servers + eol + "}" + eol)
	}}

// mcpRecord is the server install registered in .mcp.json, and what it
// made around it.
type mcpRecord struct {
	File string `json:"file"`
	splice.EntryEdit
}

// mcpPath is the project's .mcp.json.
func (w *wiring) mcpPath() string { return filepath.Join(w.Project, MCPFile) }

// planMCP plans registering wake's server in the project's .mcp.json.
func (w *wiring) planMCP() (clients.FileEdit, splice.EntryEdit, error) {
	f, err := w.Read(w.mcpPath())
	if err != nil {
		return f, splice.EntryEdit{}, err
	}
	var ed splice.EntryEdit
	f.New, ed, f.Changed, err = mcpEntry.Add(f.Old)
	if err != nil {
		return f, ed, mcpFailure(f.Path, err)
	}
	f.Done = fmt.Sprintf("registered the MCP server %q ('wake mcp')", clients.MCPName)
	f.Kept = fmt.Sprintf("already registers the MCP server %q; unchanged", clients.MCPName)
	return f, ed, nil
}

// mcpNote says how Claude Code comes to use a project's server.
const mcpNote = "Note: Claude Code asks once, in an interactive session in the project, before it starts a server from .mcp.json ('claude -p' starts it without asking): approve \"wake\" there, or list it in enabledMcpjsonServers in .claude/settings.local.json (not the shared settings.json, which Claude Code ignores for this until the folder is trusted). wake does not approve it for you."

// planMCPRemoval plans taking wake's server out of .mcp.json as r
// records it.
func (w *wiring) planMCPRemoval(r *mcpRecord) (clients.FileEdit, error) {
	f, err := w.Read(r.File)
	if err != nil {
		return f, err
	}
	f.Kept = "gone already"
	if !f.Exists {
		return f, nil
	}
	out, removed, gone, err := mcpEntry.Remove(f.Old, &r.EntryEdit)
	if err != nil {
		return f, mcpFailure(f.Path, err)
	}
	f.New, f.Changed, f.Remove = out, removed, gone
	f.Done = fmt.Sprintf("removed the MCP server %q", clients.MCPName)
	f.Kept = fmt.Sprintf("no longer registers the MCP server %q as install wrote it; nothing removed", clients.MCPName)
	return f, nil
}

// mcpFailure names .mcp.json and says how to recover.
func mcpFailure(path string, err error) error {
	return clients.Hinted(fmt.Errorf("%s: %w", path, err), "fix the file (Claude Code cannot read it either), or rename the other server, and run the command again; wake left it untouched")
}
