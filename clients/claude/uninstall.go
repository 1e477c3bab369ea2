package claude

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/clients"
)

// PlanUninstall plans taking out what rec records: wake's hook and import
// lines where they are still as install wrote them. Without a record it
// takes out wake's hook alone.
func (w *wiring) PlanUninstall(rec *clients.Record) (clients.UninstallPlan, error) {
	if rec == nil {
		return w.planHookOnly()
	}
	var u clients.UninstallPlan
	var r record
	if err := rec.Decode(&r); err != nil {
		return u, err
	}
	r = w.checkRecord(r, rec)
	for _, path := range w.recordedSettings(r) {
		fr := r.inFile(path)
		set, err := w.planHookRemoval(path, &fr)
		if err != nil {
			return u, err
		}
		u.Edits = append(u.Edits, set)
	}
	for _, imp := range r.Imports {
		md, err := w.Read(imp.File)
		if err != nil {
			return u, err
		}
		md.New, md.Changed = removeImport(md.Old, imp.Line)
		md.Remove = len(md.New) == 0
		md.Done = "removed the import " + imp.Line
		md.Kept = "no longer holds the import " + imp.Line + "; nothing removed"
		if !md.Exists {
			md.Kept = "gone already"
		}
		u.Edits = append(u.Edits, md)
	}
	if r.MCP != nil {
		f, err := w.planMCPRemoval(r.MCP)
		if err != nil {
			return u, err
		}
		u.Edits = append(u.Edits, f)
	}
	// A record naming no relay (an install --project-only, or one whose
	// relays named another machine's paths and were dropped) still takes
	// out this project's relays as they are identified exactly: each
	// names the project's path.
	rr := &r
	if len(r.Relay) == 0 {
		rr = nil
	}
	relay, ok, err := w.planRelayRemoval(rr)
	if err != nil {
		return u, err
	}
	if relay.Path != "" && (ok || rr != nil) {
		u.Edits = append(u.Edits, relay)
	}
	return u, nil
}

// checkRecord drops, with a warning, what an install record names that
// install could not have written: the record lives in the memory root,
// which can come with a cloned repository, and uninstall edits and deletes
// what it names. Install only ever touches the project's
// .claude/settings.json, CLAUDE.md and (--mcp) .mcp.json, adding to CLAUDE.md only the import
// line of this root's boot.md or skill.md (an older wake also added the
// import of the shared skill.md to the user's ~/.claude/CLAUDE.md, which
// uninstall still takes out); and a record from the root never deletes
// anything in the user's home (~/.claude or its CLAUDE.md), which every
// project shares.
func (w *wiring) checkRecord(r record, rec *clients.Record) record {
	lines := []mdImport{w.bootImport, w.skillImport}
	if w.globalImport.File != "" {
		lines = append(lines, w.globalImport)
	}
	var dropped []string
	settings := []string{w.shared, w.local}
	if r.Hook != nil && (!slices.Contains(settings, r.Hook.File) || r.Hook.Command != HookCommand) {
		dropped = append(dropped, r.Hook.File)
		r.Hook = nil
	}
	hooks := r.Hooks[:0:0]
	seen := map[string]bool{}
	for _, hr := range r.Hooks {
		if h, ok := specOf(hr.Event); ok && h != startHook && slices.Contains(settings, hr.File) && hr.Command == h.Command && !seen[h.Event] {
			hooks = append(hooks, hr)
			seen[h.Event] = true
		} else {
			dropped = append(dropped, hr.File)
		}
	}
	r.Hooks = hooks
	imports := r.Imports[:0:0]
	for _, imp := range r.Imports {
		if slices.Contains(lines, imp) {
			imports = append(imports, imp)
		} else {
			dropped = append(dropped, imp.File)
		}
	}
	r.Imports = imports
	if r.MCP != nil && r.MCP.File != w.mcpPath() {
		dropped = append(dropped, r.MCP.File)
		r.MCP = nil
	}
	// A relay is this project's own, in the user's settings file: its
	// command names the project, and uninstall takes out only that.
	relay := r.Relay[:0:0]
	relayed := map[string]bool{}
	for _, hr := range r.Relay {
		if h, ok := w.relaySpec(hr.Event); ok && w.userSettings != "" && hr.File == w.userSettings && hr.Command == h.Command && !relayed[h.Event] {
			relay = append(relay, hr)
			relayed[h.Event] = true
		} else {
			dropped = append(dropped, hr.File)
		}
	}
	r.Relay = relay
	var shared []string
	if w.Home != "" {
		shared = []string{filepath.Join(w.Home, ".claude"), filepath.Join(w.Home, ".claude", "CLAUDE.md")}
	}
	if w.userSettings != "" {
		shared = append(shared, w.userSettings, filepath.Dir(w.userSettings))
	}
	own := []string{w.shared, w.local, filepath.Join(w.Project, "CLAUDE.md"), filepath.Dir(w.shared), w.mcpPath()}
	dropped = append(dropped, rec.KeepCreated(own, shared)...)
	if len(dropped) > 0 {
		w.Warn(fmt.Sprintf("the install record names files install never touches (%s); left alone", strings.Join(dropped, ", ")))
	}
	return r
}

// recordedSettings are the settings files whose hooks r records: the
// shared one, the local one (install --local) or both; the shared one
// when r records none, as before.
func (w *wiring) recordedSettings(r record) []string {
	var out []string
	for _, path := range []string{w.shared, w.local} {
		if fr := r.inFile(path); fr.Hook != nil || len(fr.Hooks) > 0 {
			out = append(out, path)
		}
	}
	if len(out) == 0 {
		out = []string{w.shared}
	}
	return out
}

// inFile is r with only the hooks it records in the settings file path.
func (r record) inFile(path string) record {
	out := record{}
	if r.Hook != nil && r.Hook.File == path {
		out.Hook = r.Hook
	}
	for _, h := range r.Hooks {
		if h.File == path {
			out.Hooks = append(out.Hooks, h)
		}
	}
	return out
}

// specOf is wake's hook of event.
func specOf(event string) (hookSpec, bool) {
	for _, h := range wakeHooks {
		if h.Event == event {
			return h, true
		}
	}
	return hookSpec{}, false
}

// planHookRemoval plans taking wake's hooks out of a settings file, and
// what install made around them, in the reverse of the order install
// added them. With r, only the hooks it records go (a hook it does not
// record was there before the install); r nil (no record) takes every
// hook of wake's, as each is identified exactly. Remove says nothing but
// what wake would create is left.
func (w *wiring) planHookRemoval(path string, r *record) (clients.FileEdit, error) {
	set, err := w.Read(path)
	if err != nil {
		return set, err
	}
	if !set.Exists {
		if r != nil && (r.Hook != nil || len(r.Hooks) > 0) {
			set.Kept = "gone already"
		}
		return set, nil
	}
	out := set.Old
	var removed, before, missing []hookSpec
	for i := len(wakeHooks) - 1; i >= 0 && !set.Remove; i-- {
		h := wakeHooks[i]
		var ed *hookEdit
		if r != nil {
			hr := r.hookOf(h)
			if hr == nil {
				if _, _, arr, err := claudeHookNodes(out, h.Event); err == nil && arr != nil && findWakeHook(out, arr, h) >= 0 {
					before = append([]hookSpec{h}, before...)
				}
				continue
			}
			ed = &hr.hookEdit
		}
		next, rm, gone, err := removeHook(out, h, ed)
		if err != nil {
			return set, settingsFailure(path, err)
		}
		switch {
		case rm:
			out, set.Remove = next, gone
			removed = append([]hookSpec{h}, removed...)
		case r != nil:
			missing = append([]hookSpec{h}, missing...)
		}
	}
	set.New, set.Changed = out, len(removed) > 0
	set.Done = "removed " + describeHooks(removed)
	var notes []string
	if len(missing) > 0 {
		notes = append(notes, describeHooks(missing)+" "+noLonger(missing))
	}
	if len(before) > 0 {
		notes = append(notes, describeHooks(before)+" "+wasThere(before))
	}
	for _, n := range notes {
		set.Done += "; " + n
	}
	set.Kept = strings.Join(notes, "; ")
	return set, nil
}

func noLonger(hs []hookSpec) string {
	if len(hs) == 1 {
		return "is no longer there as install wrote it; nothing removed"
	}
	return "are no longer there as install wrote them; nothing removed"
}

func wasThere(hs []hookSpec) string {
	if len(hs) == 1 {
		return "was there before 'wake install claude'; left as it is"
	}
	return "were there before 'wake install claude'; left as they are"
}

// planHookOnly plans an uninstall with no record of the install: wake's
// hook goes, as it is identified exactly. An import line could have been
// written by hand, so the import lines stay, named in a note.
func (w *wiring) planHookOnly() (clients.UninstallPlan, error) {
	var u clients.UninstallPlan
	for _, path := range []string{w.shared, w.local} {
		set, err := w.planHookRemoval(path, nil)
		if err != nil {
			return u, err
		}
		if path == w.local && !set.Exists {
			continue
		}
		set.Kept = ""
		u.Edits = append(u.Edits, set)
	}
	if relay, ok, err := w.planRelayRemoval(nil); err != nil {
		return u, err
	} else if ok {
		u.Edits = append(u.Edits, relay)
	}
	var found []string
	for _, imp := range []mdImport{w.bootImport, w.skillImport, w.globalImport} {
		if imp.File == "" {
			continue
		}
		data, err := afero.ReadFile(w.FS, imp.File)
		if _, _, ok := findImport(string(data), imp.Line); err == nil && ok {
			found = append(found, w.Show(imp.File)+" imports "+imp.Line)
		}
	}
	note := fmt.Sprintf("wake has no record of an install into this project (%s), so it cannot tell which import lines were its own and removed none", w.Manifest)
	if len(found) > 0 {
		note += ": " + strings.Join(found, "; ") + ". Remove a line by hand if wake added it"
	}
	u.Notes = append(u.Notes, note+".")
	if data, err := afero.ReadFile(w.FS, w.mcpPath()); err == nil && mcpEntry.Has(data) {
		u.Notes = append(u.Notes, fmt.Sprintf("%s registers the MCP server %q ('wake mcp'); with no record wake cannot tell who added it and left it: remove it by hand if wake did.", MCPFile, clients.MCPName))
	}
	return u, nil
}
