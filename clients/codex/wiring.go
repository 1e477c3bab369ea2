// Package codex is wake's wiring into the Codex CLI, and only what is
// particular to it: wake's five hooks spliced into a project's
// .codex/hooks.json (SessionStart loads the memory, Stop asks for a
// hand-off, SessionEnd writes the automatic one, SubagentStart gives a
// subagent the branch's newest capsule, PreCompact keeps a checkpoint of
// the session that the context after the compaction carries), Codex's trust in them
// recorded in ~/.codex/config.toml through Codex's own app server, wake's
// block in the project's AGENTS.md for sessions the hooks do not reach,
// and what install records of each so that uninstall gives every file
// back byte for byte. [Client] is what package clients installs and
// uninstalls; the plan, the manifest, the lock and the ledger are
// clients' own.
package codex

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/wakeproto/wake/clients"
	"github.com/wakeproto/wake/tiers"
)

// Client is the Codex CLI, for [clients.Install] and [clients.Uninstall].
type Client struct {
	// AppServer starts Codex's app server, through which install records
	// Codex's trust in wake's hooks; nil runs the codex binary found on
	// PATH ([ExecAppServer]).
	AppServer AppServer
}

// ManifestFile is the name of Codex's install manifest in the memory
// root's state directory ([clients.ManifestFile] of "codex").
const ManifestFile = "codex-install.json"

// About names Codex.
func (Client) About() clients.About {
	return clients.About{Name: "codex", Title: "Codex",
		Unrecorded: "removes wake's hooks and wake's AGENTS.md block alone, and names the trust entries for you to remove"}
}

// Wire is where install puts things for the project env names.
func (c Client) Wire(env clients.Env) clients.Wiring {
	start := c.AppServer
	if start == nil {
		start = ExecAppServer
	}
	home := env.Vars["CODEX_HOME"]
	if home == "" && env.Home != "" {
		home = filepath.Join(env.Home, ".codex")
	}
	w := &wiring{Env: env, appServer: start,
		hooksFile:  filepath.Join(env.Project, ".codex", "hooks.json"),
		agentsFile: filepath.Join(env.Project, "AGENTS.md"),
		root:       bootName(env.Project, env.Root) + "/",
		boot:       bootName(env.Project, filepath.Join(env.Root, tiers.BootPath))}
	if home != "" {
		w.codexHome = filepath.Clean(home)
		w.configFile = filepath.Join(w.codexHome, "config.toml")
	}
	return w
}

// wiring is where install puts things for one project and memory root.
type wiring struct {
	clients.Env
	appServer  AppServer
	hooksFile  string // <project>/.codex/hooks.json
	agentsFile string // <project>/AGENTS.md
	codexHome  string // $CODEX_HOME, else ~/.codex; "" when neither is known
	configFile string // config.toml in it
	root, boot string // the memory root and boot.md as AGENTS.md names them
}

// bootName names a file of the memory root for AGENTS.md: relative to the project when it
// lies in it, as the agent's shell starts there; absolute otherwise.
func bootName(project, path string) string {
	if rel, err := filepath.Rel(project, path); err == nil && filepath.IsLocal(rel) {
		return filepath.ToSlash(rel)
	}
	return filepath.ToSlash(path)
}

// record is Codex's part of an install's record.
type record struct {
	Hooks  *hooksRecord  `json:"hooks,omitempty"`
	Agents *agentsRecord `json:"agents,omitempty"`
	Trust  *trustRecord  `json:"trust,omitempty"`
	// MCP is wake's server install registered in the project's
	// .codex/config.toml (--mcp).
	MCP *mcpRecord `json:"mcp,omitempty"`
}

// hooksRecord is what install added to hooks.json.
type hooksRecord struct {
	File string `json:"file"`
	// Made says, for each event install added wake's hook to, what it
	// made for it: "group", "event", "hooks" or "file".
	Made map[string]string `json:"made"`
	// Undo gives the file back as install found it while it is as
	// install left it; nil once that is unknown.
	Undo *fileUndo `json:"undo,omitempty"`
}

// agentsRecord is wake's block install added to AGENTS.md.
type agentsRecord struct {
	File string    `json:"file"`
	Undo *fileUndo `json:"undo,omitempty"`
}

// trustRecord is what install had Codex write into its config.toml.
type trustRecord struct {
	File string `json:"file"`
	// Project says install set the project's trust_level to "trusted".
	Project bool `json:"project,omitempty"`
	// Hashes are the [hooks.state] keys install set, with the
	// trusted_hash each got.
	Hashes map[string]string `json:"hashes,omitempty"`
	// Tables are the table headers Codex added as it wrote them.
	Tables [][]string `json:"tables,omitempty"`
	Undo   *fileUndo  `json:"undo,omitempty"`
}

// Boot is boot.md, which wake's block in AGENTS.md names.
func (w *wiring) Boot() (clients.Boot, error) { return clients.Boot{Into: "AGENTS.md"}, nil }

// PlanInstall plans adding wake's hooks and wake's block in AGENTS.md,
// then recording Codex's trust in the hooks.
func (w *wiring) PlanInstall() (clients.InstallPlan, error) {
	cfg, err := w.readConfig()
	if err != nil {
		return clients.InstallPlan{}, err
	}
	hooks, err := w.Read(w.hooksFile)
	if err != nil {
		return clients.InstallPlan{}, err
	}
	var made map[string]string
	hooks.New, made, err = addHooks(hooks.Old)
	if err != nil {
		return clients.InstallPlan{}, hooksFailure(w.hooksFile, err)
	}
	hooks.Changed = len(made) > 0
	hooks.Done = "added wake's hooks: " + madeList(made)
	hooks.Kept = "already runs wake's hooks; unchanged"
	agents, err := w.Read(w.agentsFile)
	if err != nil {
		return clients.InstallPlan{}, err
	}
	var where placement
	agents.New, where, agents.Changed = addBlock(agents.Old, w.root, w.boot, cfg.docMax())
	agents.Done, agents.Kept = "added wake's block (where the memory is, and how to hand off)", "holds wake's block; unchanged"
	if agents.Exists && agents.Changed && w.hasBlock(agents.Old) {
		agents.Done = "brought wake's block up to date"
	}
	if where.Top && agents.Changed {
		agents.Done += ", at the top: the end of the file lies past what Codex reads"
	}
	if msg := where.sizeWarning(agents.Show); msg != "" {
		w.Warn(msg)
	}
	edits := []clients.FileEdit{hooks, agents}
	var mcp clients.FileEdit
	var mcpRec *mcpRecord
	if w.MCP {
		if mcp, mcpRec, err = w.planMCP(); err != nil {
			return clients.InstallPlan{}, err
		}
		edits = append(edits, mcp)
	}
	plan := clients.InstallPlan{Edits: edits, Command: StartCommand,
		Done:      "Codex now loads this memory at every session start, asks for a hand-off before a session that did work stops, writes one when the session ends without, gives each subagent the branch's newest capsule as it starts, and keeps a checkpoint of a session before Codex compacts its conversation, for the context after it. Undo with 'wake uninstall codex'.",
		Unchanged: "Already installed: the hooks and AGENTS.md were left unchanged.",
		Record: func(r *clients.Record) error {
			var rec record
			if err := r.Decode(&rec); err != nil {
				return err
			}
			if hooks.Changed {
				rec.Hooks = recordHooks(rec.Hooks, w.hooksFile, hooks, made)
			}
			if agents.Changed {
				rec.Agents = recordAgents(rec.Agents, w.agentsFile, agents)
			}
			if mcpRec != nil {
				rec.MCP = mcpRec
			}
			return r.Encode(rec)
		},
		Then: w.trust}
	if w.overrides() {
		plan.Notes = append(plan.Notes, "Note: the project has an AGENTS.override.md, which Codex reads instead of AGENTS.md: wake's block reaches Codex only through the SessionStart hook.")
	}
	return plan, nil
}

// hasBlock reports whether AGENTS.md holds wake's block.
func (w *wiring) hasBlock(src []byte) bool {
	_, _, ok := findBlock(string(src))
	return ok
}

// overrides reports whether the project has an AGENTS.override.md.
func (w *wiring) overrides() bool {
	_, err := w.FS.Stat(filepath.Join(w.Project, "AGENTS.override.md"))
	return err == nil
}

// recordHooks adds to the record of hooks.json what this install made.
func recordHooks(old *hooksRecord, file string, ed clients.FileEdit, made map[string]string) *hooksRecord {
	if old == nil {
		return &hooksRecord{File: file, Made: made, Undo: makeUndo(ed.Old, ed.Exists, ed.New)}
	}
	if old.Made == nil {
		old.Made = map[string]string{}
	}
	for e, m := range made {
		old.Made[e] = m
	}
	old.Undo = old.Undo.chain(ed.Old, ed.New)
	return old
}

// recordAgents records wake's block in AGENTS.md.
func recordAgents(old *agentsRecord, file string, ed clients.FileEdit) *agentsRecord {
	if old == nil {
		return &agentsRecord{File: file, Undo: makeUndo(ed.Old, ed.Exists, ed.New)}
	}
	old.Undo = old.Undo.chain(ed.Old, ed.New)
	return old
}

// madeList names the events install added a hook to, in wake's order.
func madeList(made map[string]string) string {
	var out []string
	for _, h := range wakeHooks {
		if made[h.Event] != "" {
			out = append(out, fmt.Sprintf("%s %q", h.Event, h.Command))
		}
	}
	return strings.Join(out, ", ")
}

// hooksFailure names hooks.json and says how to recover.
func hooksFailure(path string, err error) error {
	return clients.Hinted(fmt.Errorf("%s: %w", path, err), "fix the file (Codex cannot read it either) and run the command again; wake left it untouched")
}

// readConfig reads and parses Codex's config.toml; none is empty.
func (w *wiring) readConfig() (codexConfig, error) {
	if w.configFile == "" {
		return codexConfig{}, nil
	}
	ed, err := w.Read(w.configFile)
	if err != nil || !ed.Exists {
		return codexConfig{}, err
	}
	cfg, err := parseConfig(w.configFile, ed.Old)
	if err != nil {
		return nil, clients.Hinted(err, "fix the file (Codex cannot start with it either) and run the command again; wake left it untouched")
	}
	return cfg, nil
}
