package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/wakeproto/wake/clients"
)

// Clients is `wake install --format json`: each client wake can be wired
// into, for one project.
type Clients struct {
	Project string `json:"project"`
	// Root is the project's memory root; "" when it has none, and then
	// nothing can be installed.
	Root    string        `json:"root"`
	Clients []ClientState `json:"clients"`
}

// ClientState is one client in [Clients].
type ClientState struct {
	Name      string   `json:"name"`
	Title     string   `json:"title"`
	OnPath    bool     `json:"on_path"`
	Installed bool     `json:"installed"`
	Files     []string `json:"files"`
	Problem   string   `json:"problem,omitempty"`
}

// NewClients is the JSON form of the clients' states.
func NewClients(project, root string, states []clients.State) Clients {
	out := Clients{Project: project, Root: root, Clients: []ClientState{}}
	for _, s := range states {
		files := s.Files
		if files == nil {
			files = []string{}
		}
		out.Clients = append(out.Clients, ClientState{Name: s.Name, Title: s.Title, OnPath: s.OnPath, Installed: s.Installed, Files: files, Problem: s.Problem})
	}
	return out
}

// ClientsJSON renders c.
func ClientsJSON(c Clients) ([]byte, error) { return marshal(c) }

// ClientsText writes a line a client: its name, whether it is on PATH,
// and what is wired into the project; then how to install one.
func ClientsText(w io.Writer, c Clients) {
	fmt.Fprintf(w, "Clients for %s:\n", c.Project)
	for _, s := range c.Clients {
		path := "on PATH"
		if !s.OnPath {
			path = "not on PATH"
		}
		wired := "not installed"
		switch {
		case s.Problem != "":
			wired = "unknown: " + s.Problem
		case s.Installed && len(s.Files) > 0:
			wired = "installed: " + strings.Join(s.Files, ", ")
		case s.Installed:
			wired = "installed"
		}
		fmt.Fprintf(w, "  %-9s %-12s %-12s %s\n", s.Name, s.Title, path, wired)
	}
	if c.Root == "" {
		fmt.Fprintln(w, "No memory root here: run 'wake init' first; then 'wake install CLIENT'.")
		return
	}
	fmt.Fprintln(w, "Wire one with 'wake install CLIENT'; undo with 'wake uninstall CLIENT'.")
}
