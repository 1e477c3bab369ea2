// Package mcpserver is wake's Model Context Protocol server: the tools an
// agent calls (wake_load, wake_check, wake_cold, wake_decide,
// wake_contest, wake_handoff, wake_remember, wake_log, memory_wakeup) and
// the resources it reads (wake://boot, wake://skill,
// wake://packet/{profile}), driving the wake library as the command line
// does and answering through the report package, so that both front ends
// say the same thing.
//
// Every call opens the memory root afresh (a config edited mid-session
// counts at once) and runs alone: the server serves calls one at a time,
// and the library takes the root's lock for every write, so a second wake
// process is kept out too.
//
// It speaks the protocol itself (protocol.go: JSON-RPC 2.0 over stdio,
// the session protocol from 2024-11-05 to 2025-11-25 and the sessionless
// one of 2026-07-28; schema.go: the tools' input schemas and the checks of
// their arguments), as the MCP Go SDK v1.8.0 does, without linking it: the
// SDK's package initialisations cost every wake command's start-up, not
// only wake mcp's. The SDK's server and client are the tests' oracle.
package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/wakeproto/wake"
	"github.com/wakeproto/wake/budget"
	"github.com/wakeproto/wake/protocol"
)

// MaxInstructions bounds the server instructions, in bytes: Claude Code
// cuts them at 4,096 characters, and a byte is at most one character.
const MaxInstructions = 4095

// MaxResultTokens bounds a tool result (Claude Code refuses one over
// 25,000 tokens); a longer one is cut into pages.
const MaxResultTokens = 20000

// Options is what the server is made with.
type Options struct {
	Root    string       // the memory root, found by the caller
	Library wake.Options // Notify is the server's own; a given one also hears every notice
	Version string       // wake's version, told to the client
	Cwd     string       // the server's working directory, for the packet's query; "": the root's project
	// PageTokens bounds a tool result in tokens; 0 means MaxResultTokens.
	PageTokens int
	// AfterHandoff, when set, runs after each hand-off wake_handoff made,
	// with the memory it made it in, before the tool answers: the command
	// line primes the start cache there (see wake.Memory.PrimeStart), as
	// its own hand-off does. What it tells goes with the tool's answer.
	AfterHandoff func(ctx context.Context, m *wake.Memory)
	// Hooked, when set, reports whether the client that names itself
	// client (its clientInfo's name: "claude-code", "codex-mcp-client",
	// "opencode") already gives each session the boot context through
	// wake's hooks. Such a session is not told to call wake_load first:
	// the instructions say the context is there, and carry no second copy
	// of the announcement or the protocol card.
	Hooked func(client string) bool
}

// server is the state every handler shares.
type server struct {
	o    Options
	mu   sync.Mutex // one call at a time
	encs map[string]*budget.Encoder
	// counts remember, for the session, the counts of the texts paged: a
	// later page, or the next load, counts only what changed.
	counts map[string]*budget.Cache
	lib    wake.Options // the library's options of the call running
	// last is each tool's last result: its later pages are cut from it,
	// not from a new call (a pull would spend the session's budget again,
	// a load could differ).
	last map[string]result

	tools     []*tool     // by name
	resources []*resource // by URI, the packet template last
}

// result is a tool's whole text for the arguments key names.
type result struct{ key, text string }

// Server is wake's MCP server for one memory root.
type Server struct {
	*server
	info         implementation
	instructions string
	// hooked are the instructions for a session whose hook gave it the boot
	// context ([Options.Hooked]).
	hooked string
	// hookedBy remembers [Options.Hooked]'s answer for each client name.
	hookedMu sync.Mutex
	hookedBy map[string]bool
	limits   limits // what a session holds at once (held.go)
	// The lists answered, by name or URI as the SDK sorts them.
	resourceList []resourceInfo
	templateList []resourceInfo
}

// New makes wake's MCP server for the memory root o.Root. It opens the
// root once to fail early (a missing or broken root is an error here,
// not at the first call) and to write the instructions.
func New(o Options) (*Server, error) {
	if o.PageTokens <= 0 {
		o.PageTokens = MaxResultTokens
	}
	s := &server{o: o, encs: map[string]*budget.Encoder{}, counts: map[string]*budget.Cache{}, last: map[string]result{}}
	var instructions, hooked string
	err := s.with(nil, func(m *wake.Memory) error {
		c, _, err := m.BootContext(false)
		if err != nil {
			return err
		}
		instructions = Instructions(m.Root(), c.Announcement, protocol.Card(m.Config().Protocol.Card))
		hooked = HookedInstructions(m.Root())
		return nil
	})
	if err != nil {
		return nil, err
	}
	s.addTools()
	s.addResources()
	s.addWakeup()
	slices.SortFunc(s.tools, func(a, b *tool) int { return strings.Compare(a.Name, b.Name) })
	srv := &Server{server: s, instructions: instructions, hooked: hooked, hookedBy: map[string]bool{}, limits: defaultLimits,
		info: implementation{Name: "wake", Title: "wake: memory for coding agents", Version: o.Version}}
	for _, r := range s.resources {
		if r.URITemplate != "" {
			srv.templateList = append(srv.templateList, r.resourceInfo)
		} else {
			srv.resourceList = append(srv.resourceList, r.resourceInfo)
		}
	}
	return srv, nil
}

// tool is one tool: what tools/list says of it, and its call.
type tool struct {
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"inputSchema"`
	Name        string          `json:"name"`
	Title       string          `json:"title,omitempty"`
	// call runs the tool on its arguments as sent: its text, or the error
	// the agent reads.
	call func(ctx context.Context, args json.RawMessage) (string, error)
}

// resourceInfo is what resources/list or resources/templates/list says of
// a resource.
type resourceInfo struct {
	Description string `json:"description,omitempty"`
	MIMEType    string `json:"mimeType,omitempty"`
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	URI         string `json:"uri,omitempty"`
	URITemplate string `json:"uriTemplate,omitempty"`
}

// resource is a resource, or a template of resources, and its reading.
type resource struct {
	resourceInfo
	read func(uri string) (string, error)
}

// toolList is the tools, by name.
func (s *server) toolList() []*tool { return s.tools }

// hookedToolList is the tool list for a session whose hook gave it the
// boot context: wake_load described as the way back to it.
func (s *server) hookedToolList() []*tool {
	out := slices.Clone(s.tools)
	for i, t := range out {
		if t.Name == "wake_load" {
			c := *t
			c.Description = hookedLoad
			out[i] = &c
		}
	}
	return out
}

// hookedLoad is wake_load's description for a session whose hook gave it
// the boot context.
const hookedLoad = "Return the boot context again (what the previous instances left: identity, hand-off, decisions in force, recent work, the cold tier's table of contents). wake's hook already gave it to this session at its start: call this only when it is no longer in your context. Same as `wake load`."

// tool is the tool called name, or nil.
func (s *server) tool(name string) *tool {
	for _, t := range s.tools {
		if t.Name == name {
			return t
		}
	}
	return nil
}

// resource is the resource serving uri, or nil.
func (s *server) resource(uri string) *resource {
	for _, r := range s.resources {
		if r.URI == uri && r.URI != "" {
			return r
		}
		if prefix, _, ok := strings.Cut(r.URITemplate, "{"); ok && strings.HasPrefix(uri, prefix) {
			return r
		}
	}
	return nil
}

// with opens the memory root and runs f on it, alone; the notices the
// library gives during f are added to *notes when notes is not nil.
func (s *server) with(notes *[]string, f func(m *wake.Memory) error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	lo := s.o.Library
	outer := lo.Notify
	lo.Notify = func(n wake.Notice) {
		// A note that wake wrote a file outside the root, said once,
		// is the user's (the server's stderr), not the agent's: in the
		// tool's text it would be one call's, and page 1 and the boot
		// resource would differ by it.
		if notes != nil && n.Kind != "note" {
			line := fmt.Sprintf("wake: %s: %s", n.Kind, n.Msg)
			if n.Hint != "" {
				line += "\nwake: hint: " + n.Hint
			}
			*notes = append(*notes, line)
		}
		if outer != nil {
			outer(n)
		}
	}
	newEncoder := lo.Encoder
	if newEncoder == nil {
		newEncoder = budget.NewEncoder
	}
	// Building an encoder costs more than most calls: one a name, kept.
	lo.Encoder = func(name string) (*budget.Encoder, error) {
		if e, ok := s.encs[name]; ok {
			return e, nil
		}
		e, err := newEncoder(name)
		if err == nil {
			s.encs[name] = e
		}
		return e, err
	}
	s.lib = lo
	m, err := wake.Open(s.o.Root, lo)
	if err != nil {
		return err
	}
	return f(m)
}

// Instructions are the server instructions: what wake is, the
// announcement the instance wakes with and the protocol card, in at most
// MaxInstructions bytes. The announcement is what gives way, line by
// line, to a pointer to wake_load; the rest is fixed and short.
func Instructions(root, announcement, card string) string {
	head := "wake keeps this project's memory in plain files (" + root + "). " +
		"Call wake_load first, once a session, and read what it returns: it is your boot context. " +
		"Starting a task, memory_wakeup gives what of the memory bears on it. " +
		"Each tool below does what the wake command of the same name does; its result is that command's output.\n"
	var tail strings.Builder
	if card != "" {
		tail.WriteString("\n" + protocol.Title + "\n")
		tail.WriteString(card)
		tail.WriteString("Here the commands are tools: wake_handoff, wake_decide, wake_contest, wake_cold, wake_remember; " +
			"`wake reverse` and `wake uphold` are the user's, on the command line.\n")
	}
	room := MaxInstructions - len(head) - tail.Len()
	return head + fitAnnouncement(strings.TrimSpace(announcement), room) + tail.String()
}

// HookedInstructions are the server instructions for a session whose
// client's hook, wake's, gave it the boot context: they say so and name
// the tools, and repeat nothing the context holds.
func HookedInstructions(root string) string {
	return "wake keeps this project's memory in plain files (" + root + "). " +
		"wake's hook gave this session its boot context (the announcement, the Wake Protocol and the memory) at the start: it is above, so do not load it again. " +
		"These tools do what the wake commands of the same names do, for what comes after: " +
		"memory_wakeup gives what of the memory bears on a task, wake_cold reads the cold tier, " +
		"wake_decide, wake_contest, wake_remember and wake_handoff write, wake_check and wake_log report, " +
		"and wake_load returns the boot context again should it be gone from your context.\n"
}

// fitAnnouncement is the announcement as "\n<text>\n" within room bytes,
// whole lines dropped from its end when it does not fit.
func fitAnnouncement(a string, room int) string {
	if a == "" {
		return ""
	}
	const more = "(the rest of the announcement: wake_load)\n"
	if len(a)+2 <= room {
		return "\n" + a + "\n"
	}
	lines := strings.Split(a, "\n")
	for n := len(lines) - 1; n > 0; n-- {
		kept := strings.Join(lines[:n], "\n")
		if len(kept)+2+len(more) <= room {
			return "\n" + kept + "\n" + more
		}
	}
	if len(more)+1 <= room {
		return "\n" + more
	}
	return ""
}
