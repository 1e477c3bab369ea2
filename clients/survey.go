package clients

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake"
)

// State is what `wake install` with no client says of one: whether its
// program is on PATH, and what an install wired into the project.
type State struct {
	Name, Title string
	// OnPath says the client's program (named as the client is) is on
	// PATH.
	OnPath bool
	// Installed says the project's memory root records an install of
	// the client into the project; Files are the files it added to or
	// created, absolute, sorted.
	Installed bool
	Files     []string
	// Problem says why the record could not be read; "" when it could.
	Problem string
}

// Survey reports the state of each client for the project: without a
// memory root for it, each is shown not installed, and the error says
// why (tiers.ErrNoRoot when there is none).
func Survey(cs []Client, o Options) ([]State, error) {
	o.defaults()
	out := make([]State, len(cs))
	for i, c := range cs {
		a := c.About()
		out[i] = State{Name: a.Name, Title: a.Title, OnPath: onPath(o.Wake.FS, o.Wake.Env["PATH"], o.Cwd, a.Name)}
	}
	root, err := wake.Find(o.Wake.FS, o.Root, o.Wake.Env["WAKE_ROOT"], o.Project)
	if err != nil {
		return out, err
	}
	for i, c := range cs {
		m, err := readManifest(o.Wake.FS, root, c.About())
		if err != nil {
			out[i].Problem = err.Error()
			continue
		}
		if j := m.find(o.Project); j >= 0 {
			out[i].Installed, out[i].Files = true, recordFiles(o.Wake.FS, m.Installs[j])
		}
	}
	return out, nil
}

// recordFiles are the files a record names: those the client's part
// holds under a "file" key, at any depth, and those install created that
// are files.
func recordFiles(fsys afero.Fs, r Record) []string {
	var files []string
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			for k, e := range x {
				if s, ok := e.(string); ok && k == "file" && filepath.IsAbs(s) {
					files = append(files, s)
				}
				walk(e)
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	var data any
	if json.Unmarshal(r.Data, &data) == nil {
		walk(data)
	}
	for _, c := range r.Created {
		if fi, err := fsys.Stat(c); err == nil && !fi.IsDir() {
			files = append(files, c)
		}
	}
	slices.Sort(files)
	return slices.Compact(files)
}

// MCPClient is the client that names itself name in an MCP session
// (its clientInfo): "claude" for Claude Code ("claude-code"), "codex" for
// Codex ("codex-mcp-client", or a name of Codex's editors, "codex-…"),
// "opencode" for OpenCode; "" for any other.
func MCPClient(name string) string {
	switch {
	case name == "claude-code":
		return "claude"
	case name == "codex-mcp-client" || strings.HasPrefix(name, "codex-") || name == "codex":
		return "codex"
	case name == "opencode":
		return "opencode"
	}
	return ""
}

// Wired reports whether the memory root's record of client's installs
// ([ManifestFile]) names an install into dir or a directory above it:
// then the client's hooks give each of its sessions there the boot
// context. A record that cannot be read names none.
func Wired(fsys afero.Fs, root, client, dir string) bool {
	if client == "" || dir == "" {
		return false
	}
	m, err := readManifest(fsys, root, About{Name: client})
	if err != nil {
		return false
	}
	return slices.ContainsFunc(m.Installs, func(r Record) bool {
		rel, err := filepath.Rel(r.Project, dir)
		return err == nil && filepath.IsLocal(rel)
	})
}
