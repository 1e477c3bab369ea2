package opencode

import (
	"fmt"

	"github.com/wakeproto/wake/clients"
	"github.com/wakeproto/wake/internal/splice"
)

// mcpServer is a local server in opencode.json's "mcp", as OpenCode's
// config schema gives it: the command and its arguments in one array.
type mcpServer struct {
	Type    string   `json:"type"`
	Command []string `json:"command"`
	Enabled bool     `json:"enabled"`
}

// mcpEntry is wake's server in the project's opencode.json.
var mcpEntry = splice.Entry{Outer: "mcp", Name: clients.MCPName, JSONC: true,
	Value: mcpServer{Type: "local", Command: append([]string{clients.MCPCommand}, clients.MCPArgs...), Enabled: true},
	Fresh: func(e splice.Entry, eol string) []byte {
		servers := splice.Marshal(map[string]any{e.Name: e.Value}, splice.Style{Unit: "  ", EOL: eol}, 1)
		return []byte("{" + eol + "  \"$schema\": \"" + ConfigSchema + "\"," + eol + "  \"mcp\": " + servers + eol + "}" + eol)
	}}

// mcpRecord is the server install registered in the config, and what it
// made around it.
type mcpRecord struct {
	File string `json:"file"`
	splice.EntryEdit
}

// addMCP plans registering wake's server in the config, on top of what
// cfg's edit already does to it.
func (w *wiring) addMCP(cfg *clients.FileEdit) (*mcpRecord, error) {
	src := cfg.Old
	if cfg.Changed {
		src = cfg.New
	}
	out, ed, changed, err := mcpEntry.Add(src)
	if err != nil {
		return nil, configFailure(cfg.Path, err)
	}
	done := fmt.Sprintf("registered the MCP server %q ('wake mcp')", clients.MCPName)
	kept := fmt.Sprintf("already registers the MCP server %q", clients.MCPName)
	switch {
	case changed && cfg.Changed:
		cfg.Done += "; " + done
	case changed:
		cfg.Done = done
	default:
		cfg.Kept = kept + "; " + cfg.Kept
		if cfg.Changed {
			cfg.Done += "; " + kept
		}
		return nil, nil
	}
	cfg.New, cfg.Changed = out, true
	return &mcpRecord{File: cfg.Path, EntryEdit: ed}, nil
}

// removeMCP takes wake's server out of the config as m records it,
// before the instructions entry goes.
func removeMCP(src []byte, m *mcpRecord) ([]byte, bool, error) {
	out, removed, _, err := mcpEntry.Remove(src, &m.EntryEdit)
	return out, removed, err
}
