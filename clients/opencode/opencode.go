// Package opencode is wake's wiring into OpenCode, and only what is
// particular to it: the plugin file .opencode/plugins/wake.js, which
// OpenCode loads from a project by itself, and the entry for boot.md in
// the "instructions" of the project's opencode.json, spliced in and taken
// out again byte for byte (the file is JSON with comments, as OpenCode
// reads it). [Client] is what package clients installs and uninstalls;
// the plan, the manifest, the lock and the ledger are clients' own.
//
// The plugin (wake.js, embedded) runs 'wake load --hook opencode' when
// OpenCode starts, records the session in wake's transcript format, and
// runs 'wake handoff --auto' when the session goes idle and when
// OpenCode exits.
package opencode

import (
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/clients"
	"github.com/wakeproto/wake/tiers"
)

// Plugin is the plugin install writes: plain JavaScript with no
// dependencies, which OpenCode's Bun runs as it is.
//
//go:embed wake.js
var Plugin []byte

// PluginPath is where install writes [Plugin], relative to the project:
// OpenCode loads every .js file in .opencode/plugins/.
const PluginPath = ".opencode/plugins/wake.js"

// HookCommand is the command the plugin runs at every start.
const HookCommand = "wake load --hook opencode"

// Client is OpenCode, for [clients.Install] and [clients.Uninstall].
type Client struct{}

// About names OpenCode.
func (Client) About() clients.About {
	return clients.About{Name: "opencode", Title: "OpenCode",
		Unrecorded: "removes wake's plugin alone and names the instructions entry for you to remove"}
}

// Wire is where install puts things for the project env names: the
// plugin in its .opencode/plugins/, and boot.md in the instructions of
// its opencode.json (opencode.jsonc where that is the file it has).
func (Client) Wire(env clients.Env) clients.Wiring { return newWiring(env) }

// wiring is where install puts things for one project and memory root.
type wiring struct {
	clients.Env
	plugin string // <project>/.opencode/plugins/wake.js
	config string // <project>/opencode.json, or opencode.jsonc
	entry  string // the instructions entry naming boot.md
}

// record is OpenCode's part of an install's record.
type record struct {
	// Plugin is the plugin file install wrote, with its hash; nil when
	// the same plugin was there already.
	Plugin *pluginRecord `json:"plugin,omitempty"`
	// Instruction is the entry install added; nil when it was there.
	Instruction *instructionRecord `json:"instruction,omitempty"`
	// MCP is wake's server install registered in the config (--mcp);
	// nil when it did not.
	MCP *mcpRecord `json:"mcp,omitempty"`
}

type pluginRecord struct {
	File   string `json:"file"`
	SHA256 string `json:"sha256"`
}

type instructionRecord struct {
	File  string `json:"file"`
	Entry string `json:"entry"`
	configEdit
}

func newWiring(env clients.Env) *wiring {
	w := &wiring{Env: env, plugin: filepath.Join(env.Project, filepath.FromSlash(PluginPath))}
	w.config = configFile(env.FS, env.Project)
	w.entry = instructionEntry(env.Project, filepath.Join(env.Root, tiers.BootPath), env.Home)
	return w
}

// configFile is the project's config file install edits: opencode.json,
// else an existing opencode.jsonc (OpenCode reads both), else
// opencode.json, which install creates.
func configFile(fsys afero.Fs, project string) string {
	json := filepath.Join(project, "opencode.json")
	if _, err := fsys.Stat(json); errors.Is(err, fs.ErrNotExist) {
		if _, err := fsys.Stat(json + "c"); err == nil {
			return json + "c"
		}
	}
	return json
}

// instructionEntry names boot.md as OpenCode resolves an instructions
// entry: relative to the project (OpenCode looks for it from the
// directory it runs in up to the project's root), else "~/..." under
// home, else absolute.
func instructionEntry(project, boot, home string) string {
	if rel, err := filepath.Rel(project, boot); err == nil && filepath.IsLocal(rel) {
		return filepath.ToSlash(rel)
	}
	if home != "" {
		if rel, err := filepath.Rel(home, boot); err == nil && filepath.IsLocal(rel) {
			return "~/" + filepath.ToSlash(rel)
		}
	}
	return filepath.ToSlash(boot)
}

// Boot is boot.md, named in opencode.json's instructions.
func (w *wiring) Boot() (clients.Boot, error) {
	return clients.Boot{Into: filepath.Base(w.config)}, nil
}

// pluginHash is the hash the record keeps of a plugin file.
func pluginHash(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// PlanInstall plans writing the plugin and adding the instructions entry.
func (w *wiring) PlanInstall() (clients.InstallPlan, error) {
	var rec record
	plug, err := w.Read(w.plugin)
	if err != nil {
		return clients.InstallPlan{}, err
	}
	cfg, err := w.Read(w.config)
	if err != nil {
		return clients.InstallPlan{}, err
	}
	var ed configEdit
	cfg.New, ed, cfg.Changed, err = addInstruction(cfg.Old, w.entry)
	if err != nil {
		return clients.InstallPlan{}, configFailure(w.config, err)
	}
	cfg.Done = fmt.Sprintf("added %q to the instructions", w.entry)
	cfg.Kept = fmt.Sprintf("already lists %q in the instructions; unchanged", w.entry)
	instrChanged := cfg.Changed
	var mcp *mcpRecord
	if w.MCP {
		if mcp, err = w.addMCP(&cfg); err != nil {
			return clients.InstallPlan{}, err
		}
	}
	plan := clients.InstallPlan{Command: HookCommand,
		Done:      "OpenCode now reads this memory at every session start, and writes a hand-off when a session ends without one. Undo with 'wake uninstall opencode'.",
		Unchanged: "Already installed: the plugin and " + filepath.Base(w.config) + " were left unchanged.",
		Record: func(r *clients.Record) error {
			var have record
			if err := r.Decode(&have); err != nil {
				return err
			}
			if rec.Plugin != nil {
				have.Plugin = rec.Plugin
			}
			if instrChanged {
				have.Instruction = &instructionRecord{File: w.config, Entry: w.entry, configEdit: ed}
			}
			if mcp != nil {
				have.MCP = mcp
			}
			return r.Encode(have)
		}}
	plug.New, plug.Changed = Plugin, !plug.Exists || string(plug.Old) != string(Plugin)
	plug.Done, plug.Kept = "wrote the plugin (it runs '"+HookCommand+"' at start and 'wake handoff --auto' at the end)", "is the plugin; unchanged"
	if plug.Exists && plug.Changed {
		if err := w.replaceable(plug.Old); err != nil {
			return clients.InstallPlan{}, err
		}
		plug.Done = "replaced the plugin an earlier wake wrote"
	}
	if plug.Changed {
		rec.Plugin = &pluginRecord{File: w.plugin, SHA256: pluginHash(Plugin)}
	}
	plan.Edits = []clients.FileEdit{plug, cfg}
	return plan, nil
}

// replaceable refuses to overwrite a plugin file unless wake wrote it as
// it is now: the record of an earlier install holds its hash.
func (w *wiring) replaceable(old []byte) error {
	if w.recordedPlugin() == pluginHash(old) {
		return nil
	}
	return clients.Hinted(fmt.Errorf("%s: the file is there and is not the plugin wake wrote", w.plugin),
		"move it away (or delete it, if it is an edited copy of wake's), then run the command again")
}

// recordedPlugin is the hash of the plugin file the manifest records for
// this project, "" when there is none.
func (w *wiring) recordedPlugin() string {
	rec, ok := w.ownRecord()
	if !ok || rec.Plugin == nil || rec.Plugin.File != w.plugin {
		return ""
	}
	return rec.Plugin.SHA256
}

// configFailure names the config file and says how to recover.
func configFailure(path string, err error) error {
	return clients.Hinted(fmt.Errorf("%s: %w", path, err), "fix the file (OpenCode cannot read it either) and run the command again; wake left it untouched")
}
