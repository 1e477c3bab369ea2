package opencode

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/clients"
	"github.com/wakeproto/wake/tiers"
)

// ownRecord reads this project's record from the manifest, for install
// to tell a plugin file wake wrote from one it did not. A manifest it
// cannot read counts as none: install then refuses to overwrite, and the
// install itself reports the manifest.
func (w *wiring) ownRecord() (record, bool) {
	data, err := tiers.ReadOwn(w.FS, w.Root, tiers.StateDir+"/"+clients.ManifestFile("opencode"))
	var m struct{ Installs []clients.Record }
	if err != nil || json.Unmarshal(data, &m) != nil {
		return record{}, false
	}
	for _, r := range m.Installs {
		var rec record
		if r.Project == w.Project && r.Decode(&rec) == nil {
			return rec, true
		}
	}
	return record{}, false
}

// PlanUninstall plans taking out what rec records: the plugin file while
// it is as install wrote it, and the instructions entry. Without a
// record it takes out the plugin alone, when it is byte for byte the one
// this wake writes.
func (w *wiring) PlanUninstall(rec *clients.Record) (clients.UninstallPlan, error) {
	if rec == nil {
		return w.planPluginOnly()
	}
	var u clients.UninstallPlan
	var r record
	if err := rec.Decode(&r); err != nil {
		return u, err
	}
	r = w.checkRecord(r, rec)
	plug, err := w.planPluginRemoval(r.Plugin)
	if err != nil {
		return u, err
	}
	u.Edits = append(u.Edits, plug)
	if r.Instruction != nil || r.MCP != nil {
		cfg, err := w.planConfigRemoval(r)
		if err != nil {
			return u, err
		}
		u.Edits = append(u.Edits, cfg)
	}
	if note := w.leftInOpencodeDir(rec); note != "" {
		u.Notes = append(u.Notes, note)
	}
	return u, nil
}

// checkRecord drops, with a warning, what an install record names that
// install could not have written: the record lives in the memory root,
// which can come with a cloned repository, and uninstall edits and
// deletes what it names. Install only ever writes the project's
// .opencode/plugins/wake.js and adds this root's boot.md to the project's
// opencode.json or opencode.jsonc.
func (w *wiring) checkRecord(r record, rec *clients.Record) record {
	configs := []string{filepath.Join(w.Project, "opencode.json"), filepath.Join(w.Project, "opencode.jsonc")}
	var dropped []string
	if r.Plugin != nil && r.Plugin.File != w.plugin {
		dropped = append(dropped, r.Plugin.File)
		r.Plugin = nil
	}
	if i := r.Instruction; i != nil && (!slices.Contains(configs, i.File) || i.Entry != w.entry) {
		dropped = append(dropped, i.File)
		r.Instruction = nil
	}
	if m := r.MCP; m != nil && (!slices.Contains(configs, m.File) || r.Instruction != nil && r.Instruction.File != m.File) {
		dropped = append(dropped, m.File)
		r.MCP = nil
	}
	own := slices.Concat(configs, []string{w.plugin, filepath.Dir(w.plugin), filepath.Dir(filepath.Dir(w.plugin))})
	dropped = append(dropped, rec.KeepCreated(own, nil)...)
	if len(dropped) > 0 {
		w.Warn(fmt.Sprintf("the install record names files install never touches (%s); left alone", strings.Join(dropped, ", ")))
	}
	return r
}

// planPluginRemoval plans deleting the plugin file when it is as install
// wrote it (p, nil when install did not write it).
func (w *wiring) planPluginRemoval(p *pluginRecord) (clients.FileEdit, error) {
	plug, err := w.Read(w.plugin)
	if err != nil || p == nil {
		if p == nil && plug.Exists {
			plug.Kept = "the plugin was there before 'wake install opencode'; left as it is"
		}
		return plug, err
	}
	switch {
	case !plug.Exists:
		plug.Kept = "gone already"
	case pluginHash(plug.Old) != p.SHA256:
		plug.Kept = "changed since install wrote it; left as it is (delete it yourself if you do not want it)"
		w.Warn(fmt.Sprintf("%s was changed since 'wake install opencode' wrote it, so uninstall left it; OpenCode keeps loading it until you delete it", w.Show(w.plugin)))
	default:
		plug.Changed, plug.Remove, plug.Done = true, true, "deleted the plugin, which is as install wrote it"
	}
	return plug, nil
}

// planConfigRemoval plans taking wake's server (--mcp) and then wake's
// instructions entry out of the config file, as r records them, and what
// install made around each, in the reverse of the order install added
// them.
func (w *wiring) planConfigRemoval(r record) (clients.FileEdit, error) {
	file := w.config
	if r.Instruction != nil {
		file = r.Instruction.File
	} else if r.MCP != nil {
		file = r.MCP.File
	}
	cfg, err := w.Read(file)
	if err != nil {
		return cfg, err
	}
	if !cfg.Exists {
		cfg.Kept = "gone already"
		return cfg, nil
	}
	out := cfg.Old
	var done, kept []string
	if r.MCP != nil {
		var removed bool
		if out, removed, err = removeMCP(out, r.MCP); err != nil {
			return cfg, configFailure(file, err)
		}
		if removed {
			done = append(done, fmt.Sprintf("removed the MCP server %q", clients.MCPName))
		} else {
			kept = append(kept, fmt.Sprintf("no longer registers the MCP server %q as install wrote it; nothing removed", clients.MCPName))
		}
	}
	if i := r.Instruction; i != nil {
		var removed, gone bool
		if out, removed, gone, err = removeInstruction(out, i.Entry, &i.configEdit); err != nil {
			return cfg, configFailure(file, err)
		}
		cfg.Remove = gone
		if removed {
			done = append(done, fmt.Sprintf("removed %q from the instructions", i.Entry))
		} else {
			kept = append(kept, fmt.Sprintf("no longer lists %q in the instructions; nothing removed", i.Entry))
		}
	}
	cfg.New, cfg.Changed = out, len(done) > 0
	cfg.Done = strings.Join(append(done, kept...), "; ")
	cfg.Kept = strings.Join(kept, "; ")
	return cfg, nil
}

// planPluginOnly plans an uninstall with no record of the install: the
// plugin goes when it is exactly the one this wake writes. An
// instructions entry could have been written by hand, so it stays,
// named in a note.
func (w *wiring) planPluginOnly() (clients.UninstallPlan, error) {
	var u clients.UninstallPlan
	plug, err := w.Read(w.plugin)
	if err != nil {
		return u, err
	}
	if plug.Exists && bytes.Equal(plug.Old, Plugin) {
		plug.Changed, plug.Remove, plug.Done = true, true, "deleted the plugin, which is this wake's byte for byte"
	} else if plug.Exists {
		plug.Kept = "is not the plugin this wake writes; left as it is"
	}
	u.Edits = append(u.Edits, plug)
	note := fmt.Sprintf("wake has no record of an install into this project (%s), so it cannot tell whether it added the instructions entry, and removed none", w.Manifest)
	if data, err := afero.ReadFile(w.FS, w.config); err == nil && hasEntry(data, w.entry) {
		note += fmt.Sprintf(": %s lists %q. Remove it by hand if wake added it", w.Show(w.config), w.entry)
	}
	u.Notes = append(u.Notes, note+".")
	if data, err := afero.ReadFile(w.FS, w.config); err == nil && mcpEntry.Has(data) {
		u.Notes = append(u.Notes, fmt.Sprintf("%s registers the MCP server %q ('wake mcp'); with no record wake cannot tell who added it and left it: remove it by hand if wake did.", w.Show(w.config), clients.MCPName))
	}
	return u, nil
}

// leftInOpencodeDir says what stays in a .opencode directory install
// created: OpenCode installs its plugin package there (package.json,
// node_modules, a .gitignore naming them) once it finds the directory,
// and uninstall leaves what OpenCode wrote.
func (w *wiring) leftInOpencodeDir(rec *clients.Record) string {
	dir := filepath.Dir(filepath.Dir(w.plugin))
	if !slices.Contains(rec.Created, dir) {
		return ""
	}
	names, err := afero.ReadDir(w.FS, dir)
	if err != nil {
		return ""
	}
	var left []string
	for _, n := range names {
		if n.Name() != "plugins" {
			left = append(left, n.Name())
		}
	}
	if len(left) == 0 {
		return ""
	}
	return fmt.Sprintf("Note: %s/ stays: install created it, and OpenCode has since put its own files there (%s). Delete it if you use no other OpenCode plugins or commands.", w.Show(dir), strings.Join(left, ", "))
}
