package mcpserver

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/wakeproto/wake"
	"github.com/wakeproto/wake/wakeup"
)

// PacketTemplate is the URI template of the wake-up packet resource.
const PacketTemplate = "wake://packet/{profile}"

type wakeupArgs struct {
	Task    string   `json:"task,omitempty" jsonschema:"the task the packet is for, in a sentence: what you are about to do; it decides what is relevant"`
	Cwd     string   `json:"cwd,omitempty" jsonschema:"the directory you work in, recorded in the packet's query (default: the server's); the memory root stays the one the server serves"`
	Files   []string `json:"files,omitempty" jsonschema:"paths the task touches, relative to the project (report/vat.go)"`
	Modules []string `json:"modules,omitempty" jsonschema:"names of the modules or packages the task touches"`
	Target  string   `json:"target,omitempty" jsonschema:"the client to shape the packet for: claude, codex, opencode or generic (the default)"`
	Profile string   `json:"profile,omitempty" jsonschema:"project (the default: this memory root) or developer (the developer roots the user's config.toml names, merged with this project's preferences and constraints)"`
	Format  string   `json:"format,omitempty" jsonschema:"json (the default: the wakeup.v1 packet), markdown, or prompt (compact, within wake.toml's [wakeup] prompt_budget tokens)"`
	Page    int      `json:"page,omitempty" jsonschema:"the page of a long result, from 1"`
}

func (s *server) addWakeup() {
	textTool(s, toolInfo{Name: "memory_wakeup", Title: "Get the wake-up packet",
		Description: "Return the wake-up packet (wakeup.v1): the project's identity, working style, active context, priorities, constraints, decisions in force, incidents and the notes worth reading next, scored against your task, files and modules, each item with its source and why it was chosen. Call it when you start a task to orient without reading the whole memory; give the task and the files you expect to touch. Read-only. Same as `wake wakeup`."},
		func(a wakeupArgs) int { return a.Page }, s.wakeup)
	s.resources = append(s.resources, &resource{resourceInfo{URITemplate: PacketTemplate, Name: "packet", Title: "wake-up packet", MIMEType: "application/json",
		Description: "The wake-up packet (wakeup.v1 JSON) of a profile, for no particular task: wake://packet/project, or wake://packet/developer for the user's developer roots with this project's preferences and constraints."},
		s.packetResource})
}

func (s *server) wakeup(_ context.Context, m *wake.Memory, a wakeupArgs) (string, error) {
	f, err := format(a.Format, "json", "markdown", "prompt")
	if err != nil {
		return "", err
	}
	q := s.query(a.Profile)
	q.Task, q.Files, q.Modules, q.Target = a.Task, a.Files, a.Modules, a.Target
	if a.Cwd != "" {
		q.Cwd = filepath.Clean(a.Cwd)
		if !filepath.IsAbs(q.Cwd) {
			q.Cwd = filepath.Join(s.cwd(), q.Cwd)
		}
	}
	p, err := m.Wakeup(q)
	if err != nil {
		return "", err
	}
	switch f {
	case "markdown":
		return wakeup.Markdown(p), nil
	case "prompt":
		text, cut := m.WakeupPrompt(p)
		if cut > 0 {
			text += fmt.Sprintf("\n[wake: %d item(s) left out to fit [wakeup] prompt_budget (%d tokens); format json has them all]\n", cut, m.Config().Wakeup.PromptBudget)
		}
		return text, nil
	}
	return string(wakeup.JSON(p)), nil
}

// query is a packet's query of profile, for no particular task, from the
// server's working directory.
func (s *server) query(profile string) wakeup.Query {
	return wakeup.Query{Cwd: s.cwd(), Profile: profile}
}

// cwd is the server's working directory: Options.Cwd, else the project
// holding the memory root.
func (s *server) cwd() string {
	if s.o.Cwd != "" {
		return s.o.Cwd
	}
	return filepath.Dir(s.o.Root)
}

func (s *server) packetResource(uri string) (string, error) {
	profile, ok := strings.CutPrefix(uri, "wake://packet/")
	if !ok || profile == "" || strings.Contains(profile, "/") {
		return "", resourceNotFound(uri)
	}
	var text string
	err := s.with(nil, func(m *wake.Memory) error {
		p, err := m.Wakeup(s.query(profile))
		text = string(wakeup.JSON(p))
		return err
	})
	if err != nil {
		return "", toolError(err, nil)
	}
	return text, nil
}
