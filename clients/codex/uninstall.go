package codex

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/wakeproto/wake/clients"
)

// PlanUninstall plans taking out what rec records: each file given back
// byte for byte while it is as install left it, else wake's hooks, wake's
// block and the trust entries install had Codex write, each where it is
// still as written. Without a record it takes out wake's hooks and block,
// which are wake's beyond doubt, and names the trust entries.
func (w *wiring) PlanUninstall(rec *clients.Record) (clients.UninstallPlan, error) {
	var u clients.UninstallPlan
	var r record
	if rec != nil {
		if err := rec.Decode(&r); err != nil {
			return u, err
		}
		r = w.checkRecord(r, rec)
	}
	hooks, err := w.planHooks(rec != nil, r.Hooks)
	if err != nil {
		return u, err
	}
	agents, err := w.planAgents(rec != nil, r.Agents)
	if err != nil {
		return u, err
	}
	u.Edits = append(u.Edits, hooks, agents)
	if r.MCP != nil {
		f, err := w.planMCPRemoval(r.MCP)
		if err != nil {
			return u, err
		}
		u.Edits = append(u.Edits, f)
	}
	if r.Trust != nil {
		cfg, note, err := w.planTrust(r.Trust)
		if err != nil {
			return u, err
		}
		u.Edits = append(u.Edits, cfg)
		if note != "" {
			w.Warn(note)
		}
	}
	if rec == nil {
		u.Notes = append(u.Notes, fmt.Sprintf("wake has no record of an install into this project (%s), so it cannot tell which entries of %s were its own and left them: the project's trust_level, and the [hooks.state] keys that start with %q.", w.Manifest, w.showConfig(), w.hooksFile+":"))
		if data, _, err := w.readFile(w.mcpPath()); err == nil && len(data) > 0 {
			if cfg, err := parseConfig(w.mcpPath(), data); err == nil {
				if _, ours, _ := wakeServer(cfg); ours {
					u.Notes = append(u.Notes, fmt.Sprintf("%s registers the MCP server %q ('wake mcp'); with no record wake cannot tell who added it and left it: remove it by hand if wake did.", MCPFile, clients.MCPName))
				}
			}
		}
	}
	return u, nil
}

// showConfig names config.toml for messages.
func (w *wiring) showConfig() string {
	if w.configFile == "" {
		return "~/.codex/config.toml"
	}
	return w.Show(w.configFile)
}

// planHooks plans taking wake's hooks out of hooks.json.
func (w *wiring) planHooks(recorded bool, hr *hooksRecord) (clients.FileEdit, error) {
	ed, err := w.Read(w.hooksFile)
	if err != nil || !ed.Exists {
		if recorded && hr != nil {
			ed.Kept = "gone already"
		}
		return ed, err
	}
	var made map[string]string
	if recorded {
		if hr == nil {
			ed.Kept = "install added nothing to it; left as it is"
			return ed, nil
		}
		made = hr.Made
		if out, ok := hr.Undo.apply(ed.Old); ok {
			ed.New, ed.Changed, ed.Remove = out, true, !hr.Undo.Existed
			ed.Done = "removed wake's hooks; the file is as install found it"
			return ed, nil
		}
	}
	out, removed, gone, err := removeHooks(ed.Old, made)
	if err != nil {
		return ed, hooksFailure(w.hooksFile, err)
	}
	ed.New, ed.Changed, ed.Remove = out, len(removed) > 0, gone
	ed.Done = "removed wake's hooks (" + strings.Join(removed, ", ") + ")"
	if moved := trustShifts(ed.Old); len(moved) > 0 {
		ed.Done += fmt.Sprintf("; Codex trusts a hook by its place in the file, and the hooks after wake's in %s moved up one: it skips them until you trust them again in /hooks", strings.Join(moved, " and "))
	}
	ed.Kept = "holds none of wake's hooks as install wrote them; nothing removed"
	return ed, nil
}

// planAgents plans taking wake's block out of AGENTS.md.
func (w *wiring) planAgents(recorded bool, ar *agentsRecord) (clients.FileEdit, error) {
	ed, err := w.Read(w.agentsFile)
	if err != nil || !ed.Exists {
		if recorded && ar != nil {
			ed.Kept = "gone already"
		}
		return ed, err
	}
	if recorded && ar == nil {
		ed.Kept = "install added nothing to it; left as it is"
		return ed, nil
	}
	if ar != nil {
		if out, ok := ar.Undo.apply(ed.Old); ok {
			ed.New, ed.Changed, ed.Remove = out, true, !ar.Undo.Existed
			ed.Done = "removed wake's block; the file is as install found it"
			return ed, nil
		}
	}
	ed.New, ed.Changed = removeBlock(ed.Old)
	ed.Remove = len(strings.TrimSpace(string(ed.New))) == 0
	ed.Done, ed.Kept = "removed wake's block", "holds no block of wake's; nothing removed"
	return ed, nil
}

// planTrust plans taking the trust install recorded out of config.toml:
// the file as install found it while Codex and the user have left it as
// install did, else wake's entries alone, with a warning that says so.
func (w *wiring) planTrust(t *trustRecord) (clients.FileEdit, string, error) {
	ed, err := w.Read(t.File)
	if err != nil || !ed.Exists {
		ed.Kept = "gone already"
		return ed, "", err
	}
	if out, ok := t.Undo.apply(ed.Old); ok {
		ed.New, ed.Changed, ed.Remove = out, true, !t.Undo.Existed
		ed.Done = "removed the trust install recorded; the file is as install found it"
		return ed, "", nil
	}
	if _, err := parseConfig(t.File, ed.Old); err != nil {
		return ed, "", clients.Hinted(err, "fix the file (Codex cannot start with it either) and run the command again; wake left it untouched")
	}
	out, removed, left := removeTrust(ed.Old, t, w.Project)
	ed.New, ed.Changed = out, len(removed) > 0
	ed.Done = "removed the trust install recorded (" + strings.Join(removed, ", ") + ")"
	ed.Kept = "holds none of the trust install recorded as it wrote it; nothing removed"
	note := fmt.Sprintf("%s changed since 'wake install codex' wrote to it, so wake took out only its own entries and kept every other byte", ed.Show)
	if len(left) > 0 {
		note += fmt.Sprintf("; these changed since and stay: %s", strings.Join(left, ", "))
	}
	return ed, note, nil
}

// checkRecord drops, with a warning, what an install record names that
// install could not have written: the record lives in the memory root,
// which can come with a cloned repository, and uninstall edits and deletes
// what it names. Install only ever touches the project's
// .codex/hooks.json, AGENTS.md and (--mcp) .codex/config.toml, and the user's Codex config.toml, which
// it deletes only when it is byte for byte the file install left there
// and held nothing before.
func (w *wiring) checkRecord(r record, rec *clients.Record) record {
	var dropped []string
	if r.Hooks != nil && r.Hooks.File != w.hooksFile {
		dropped, r.Hooks = append(dropped, r.Hooks.File), nil
	}
	if r.Agents != nil && r.Agents.File != w.agentsFile {
		dropped, r.Agents = append(dropped, r.Agents.File), nil
	}
	if r.MCP != nil && r.MCP.File != w.mcpPath() {
		dropped, r.MCP = append(dropped, r.MCP.File), nil
	}
	if r.Trust != nil && (w.configFile == "" || r.Trust.File != w.configFile) {
		dropped, r.Trust = append(dropped, r.Trust.File), nil
	}
	own := []string{w.hooksFile, filepath.Dir(w.hooksFile), w.agentsFile, w.mcpPath()}
	var shared []string
	if w.codexHome != "" {
		// config.toml is deleted only when the record's undo gives it
		// back as no file: when it is byte for byte the one install
		// left, which the record's digest names.
		own = append(own, w.configFile)
		shared = []string{w.codexHome}
	}
	dropped = append(dropped, rec.KeepCreated(own, shared)...)
	if len(dropped) > 0 {
		w.Warn(fmt.Sprintf("the install record names files install never touches (%s); left alone", strings.Join(dropped, ", ")))
	}
	return r
}
