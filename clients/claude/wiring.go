// Package claude is wake's wiring into Claude Code, and only what is
// particular to it: the SessionStart hook spliced into a project's
// .claude/settings.json and taken out again byte for byte, the @import
// line of a CLAUDE.md, what install records of them, and the JSON the
// hook reads on stdin ([ReadHookInput]). [Client] is what package clients
// installs and uninstalls; the plan, the manifest, the lock and the
// ledger are clients' own, and the splicing is internal/splice's, so that
// every other client is a sibling package that touches nothing here.
package claude

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/clients"
	"github.com/wakeproto/wake/internal/splice"
	"github.com/wakeproto/wake/tiers"
)

// Client is Claude Code, for [clients.Install] and [clients.Uninstall].
type Client struct{}

// ManifestFile is the name of Claude Code's install manifest in the memory
// root's state directory ([clients.ManifestFile] of "claude").
const ManifestFile = "claude-install.json"

// About names Claude Code.
func (Client) About() clients.About {
	return clients.About{Name: "claude", Title: "Claude Code",
		Unrecorded: "removes wake's hook alone and names the import lines for you to remove"}
}

// Wire is where install puts things for the project env names: the hook in
// its .claude/settings.json, and the import into its CLAUDE.md of the
// root's boot.md or, with [claude] boot = "skill", of the root's own
// skill.md.
func (Client) Wire(env clients.Env) clients.Wiring { return newWiring(env) }

// wiring is where install puts things for one project and memory root.
type wiring struct {
	clients.Env
	settings    string // the settings install writes: shared or, with Local, local
	shared      string // <project>/.claude/settings.json, committed with the project
	local       string // <project>/.claude/settings.local.json, the user's own
	bootImport  mdImport
	skillImport mdImport // of the root's own skill.md
	// userSettings is the user's own settings file, which takes the
	// relays of wake's hooks (see [RelayCommand]); "" when unknown.
	userSettings string
	// globalImport is the import of the shared skill.md (skill.path) into
	// ~/.claude/CLAUDE.md that an older wake added with boot = "skill",
	// which every session of every project read: install moves it out
	// and uninstall takes it out where a record holds it. Zero when
	// skill.path is "" or HOME is not set.
	globalImport mdImport
	skill        bool // boot = "skill": install adds skillImport
}

// mdImport is one import line in one CLAUDE.md, as install's record
// keeps it.
type mdImport struct {
	File string `json:"file"`
	Line string `json:"line"`
}

// record is Claude Code's part of an install's record.
type record struct {
	// Hook is the SessionStart hook install added; nil when one was
	// there already.
	Hook *hookRecord `json:"hook,omitempty"`
	// Hooks are the other hooks install added, Stop, SessionEnd and
	// SubagentStart, each naming its event; the records of older wakes,
	// which added SessionStart alone, have none.
	Hooks   []hookRecord `json:"hooks,omitempty"`
	Imports []mdImport   `json:"imports,omitempty"`
	// MCP is wake's server install registered in .mcp.json (--mcp).
	MCP *mcpRecord `json:"mcp,omitempty"`
	// Relay are the relays of wake's hooks install added to the user's
	// settings for sessions started in the project's subdirectories
	// (see [RelayCommand]), each naming its event.
	Relay []hookRecord `json:"relay,omitempty"`
}

// hookRecord is one hook install added to a settings file, and what it
// made around it (see [hookEdit]: "made" and "inside", absent from the
// records of older wakes).
type hookRecord struct {
	Event   string `json:"event,omitempty"` // "" in Hook, which is SessionStart's
	File    string `json:"file"`
	Matcher string `json:"matcher"`
	Command string `json:"command"`
	hookEdit
}

// hookOf is the record of hook h, nil when install did not add it.
func (r *record) hookOf(h hookSpec) *hookRecord {
	if h.Event == startHook.Event {
		return r.Hook
	}
	for i := range r.Hooks {
		if r.Hooks[i].Event == h.Event {
			return &r.Hooks[i]
		}
	}
	return nil
}

// setHook records that install added hook h to file, making ed.
func (r *record) setHook(h hookSpec, file string, ed hookEdit) {
	hr := hookRecord{File: file, Matcher: h.Matcher, Command: h.Command, hookEdit: ed}
	if h.Event == startHook.Event {
		r.Hook = &hr
		return
	}
	hr.Event = h.Event
	if old := r.hookOf(h); old != nil {
		*old = hr
		return
	}
	r.Hooks = append(r.Hooks, hr)
}

func newWiring(env clients.Env) *wiring {
	md := filepath.Join(env.Project, "CLAUDE.md")
	w := &wiring{Env: env, shared: filepath.Join(env.Project, ".claude", SettingsFile),
		local:        filepath.Join(env.Project, ".claude", LocalSettingsFile),
		skill:        env.Config.Claude.Boot == tiers.BootSkill,
		userSettings: userSettings(env),
		bootImport:   mdImport{md, importLine(env.Project, filepath.Join(env.Root, tiers.BootPath), env.Home, false)},
		skillImport:  mdImport{md, importLine(env.Project, filepath.Join(env.Root, tiers.RootSkillPath), env.Home, false)}}
	if shared, err := env.Config.Skill.SkillPath(env.Home, env.Root); err == nil && shared != "" && env.Home != "" {
		claudeDir := filepath.Join(env.Home, ".claude")
		w.globalImport = mdImport{filepath.Join(claudeDir, "CLAUDE.md"), importLine(claudeDir, shared, env.Home, true)}
	}
	w.settings = w.shared
	if env.Local {
		w.settings = w.local
	}
	return w
}

// Claude Code's project settings: the shared file, committed, and the
// user's own, which Claude Code keeps out of git.
const (
	SettingsFile      = "settings.json"
	LocalSettingsFile = "settings.local.json"
)

// target is the import install adds.
func (w *wiring) target() mdImport {
	if w.skill {
		return w.skillImport
	}
	return w.bootImport
}

// Boot is the root's boot.md, or its own skill.md, imported into the
// project's CLAUDE.md.
func (w *wiring) Boot() (clients.Boot, error) {
	return clients.Boot{Skill: w.skill, Into: "CLAUDE.md"}, nil
}

// PlanInstall plans adding the hook and the import line.
func (w *wiring) PlanInstall() (clients.InstallPlan, error) {
	imp := w.target()
	set, err := w.Read(w.settings)
	if err != nil {
		return clients.InstallPlan{}, err
	}
	added, eds, err := w.addHooks(&set)
	if err != nil {
		return clients.InstallPlan{}, err
	}
	md, err := w.Read(imp.File)
	if err != nil {
		return clients.InstallPlan{}, err
	}
	md.New, md.Changed, err = addImport(md.Old, md.Exists, imp.Line)
	if err != nil {
		return clients.InstallPlan{}, clients.Hinted(fmt.Errorf("%s: %w", imp.File, err), "close the fence, then run the command again; wake left the file untouched")
	}
	md.Done, md.Kept = "added the import "+imp.Line, "already imports "+imp.Line+"; unchanged"
	global, err := w.planGlobal()
	if err != nil {
		return clients.InstallPlan{}, err
	}
	relay, relayed, relayEds, err := w.planRelay()
	if err != nil {
		return clients.InstallPlan{}, err
	}
	edits := []clients.FileEdit{set, md}
	if relay.Path != "" {
		edits = append(edits, relay)
	}
	if global.edit != nil {
		edits = append(edits, *global.edit)
	}
	var mcp clients.FileEdit
	var mcpEd splice.EntryEdit
	if w.MCP {
		if mcp, mcpEd, err = w.planMCP(); err != nil {
			return clients.InstallPlan{}, err
		}
		edits = append(edits, mcp)
	}
	plan := clients.InstallPlan{Edits: edits, Command: HookCommand,
		Done: "Claude Code now loads this memory at every session start (hook output stays within its 10,000-character limit), " +
			"asks the agent once for a hand-off when a session did work without one, writes an automatic one when a session ends without it, " +
			"gives each subagent the branch's newest capsule as it starts, and keeps a checkpoint of the session before each compaction for the context after it. Undo with 'wake uninstall claude'.",
		Unchanged: "Already installed: the settings and CLAUDE.md were left unchanged.",
		Record: func(r *clients.Record) error {
			var rec record
			if err := r.Decode(&rec); err != nil {
				return err
			}
			for i, h := range added {
				rec.setHook(h, set.Path, eds[i])
			}
			for i, h := range relayed {
				hr := hookRecord{Event: h.Event, File: relay.Path, Matcher: h.Matcher, Command: h.Command, hookEdit: relayEds[i]}
				if old := rec.relayOf(h); old != nil {
					*old = hr
				} else {
					rec.Relay = append(rec.Relay, hr)
				}
			}
			if md.Changed && !slices.Contains(rec.Imports, imp) {
				rec.Imports = append(rec.Imports, imp)
			}
			if mcp.Changed {
				rec.MCP = &mcpRecord{File: mcp.Path, EntryEdit: mcpEd}
			}
			if global.drop {
				rec.Imports = slices.DeleteFunc(rec.Imports, func(i mdImport) bool { return i == w.globalImport })
			}
			return r.Encode(rec)
		}}
	if global.note != "" {
		plan.Notes = append(plan.Notes, global.note)
	}
	if mcp.Changed {
		plan.Notes = append(plan.Notes, mcpNote)
	}
	if w.ProjectOnly {
		plan.Notes = append(plan.Notes, "Note: with --project-only, a Claude Code session started in a subdirectory of the project gets no memory and no hand-off: Claude Code reads the project's hooks only in the directory a session starts in.")
	}
	if w.Local && set.Changed {
		plan.Notes = append(plan.Notes, "Note: the hooks are in .claude/settings.local.json, your own settings: keep it out of git (Claude Code ignores it in git when it creates the file itself; add it to .gitignore if wake created it). CLAUDE.md, which the project shares, still gets the import line.")
	}
	if other := w.otherSettings(); other != "" {
		plan.Notes = append(plan.Notes, fmt.Sprintf("Note: %s runs wake's hooks too, so Claude Code now runs them twice: take them out with 'wake uninstall claude' first, then install again.", w.Show(other)))
	}
	if rel, err := filepath.Rel(w.Project, w.Root); err != nil || !filepath.IsLocal(rel) {
		name := tiers.BootPath
		if w.skill {
			name = tiers.RootSkillPath
		}
		plan.Notes = append(plan.Notes, "Note: the memory root is outside the project, so Claude Code asks once, in an interactive session, before it follows the import; until then (and in 'claude -p') "+name+" is not imported and the hook's pointer to it is what the agent gets.")
	}
	return plan, nil
}

// otherSettings is the settings file install does not write when it
// already runs wake's session-start hook; "".
func (w *wiring) otherSettings() string {
	other := w.local
	if w.Local {
		other = w.shared
	}
	data, err := afero.ReadFile(w.FS, other)
	if err != nil {
		return ""
	}
	if _, _, arr, err := claudeHookNodes(data, startHook.Event); err == nil && arr != nil && findWakeHook(data, arr, startHook) >= 0 {
		return other
	}
	return ""
}

// addHooks plans adding each of wake's hooks the settings lack, in order,
// and returns those it adds with what each made.
func (w *wiring) addHooks(set *clients.FileEdit) ([]hookSpec, []hookEdit, error) {
	var added []hookSpec
	var eds []hookEdit
	out := set.Old
	for _, h := range wakeHooks {
		next, ed, changed, err := addHook(out, h)
		if err != nil {
			return nil, nil, settingsFailure(w.settings, err)
		}
		if changed {
			added, eds, out = append(added, h), append(eds, ed), next
		}
	}
	set.New, set.Changed = out, len(added) > 0
	set.Done = "added " + describeHooks(added)
	if others := otherWakeHooks(set.Old); len(added) > 0 && added[0] == startHook && len(others) > 0 {
		set.Done += fmt.Sprintf("; the hook with %s already there runs wake at some starts only, and now a second time at those: remove it by hand", strings.Join(others, " and the one with "))
	}
	set.Kept = "already runs wake's hooks; unchanged"
	return added, eds, nil
}

// describeHooks names hooks in a sentence.
func describeHooks(hs []hookSpec) string {
	var ds []string
	for _, h := range hs {
		ds = append(ds, h.describe())
	}
	if n := len(ds); n > 1 {
		return strings.Join(ds[:n-1], ", ") + " and " + ds[n-1]
	}
	return strings.Join(ds, "")
}

// globalMove is what install does about the import of the shared
// skill.md in ~/.claude/CLAUDE.md.
type globalMove struct {
	edit *clients.FileEdit // taking it out; nil when install leaves the file alone
	drop bool              // take it out of the project's record
	note string            // about a line install leaves, for the user
}

// planGlobal plans moving out of ~/.claude/CLAUDE.md the import of the
// shared skill.md that an older wake's install added for this project:
// with it every Claude Code session, whatever its project, read the
// memory of whichever root wrote that file last. Install takes it out
// where this project's record holds it (the project's CLAUDE.md imports
// the root's own file instead); a line the record does not hold was
// written by hand or for another project, and is only named in a note.
func (w *wiring) planGlobal() (globalMove, error) {
	var g globalMove
	if w.globalImport.File == "" {
		return g, nil
	}
	recorded := false
	rec, err := w.Installed()
	if err != nil {
		return g, err
	}
	if rec != nil {
		var r record
		if err := rec.Decode(&r); err != nil {
			return g, err
		}
		recorded = slices.Contains(r.Imports, w.globalImport)
	}
	data, err := afero.ReadFile(w.FS, w.globalImport.File)
	if _, _, has := findImport(string(data), w.globalImport.Line); err != nil || !has {
		g.drop = recorded // gone already
		return g, nil
	}
	if !recorded {
		g.note = fmt.Sprintf("Note: %s imports %s, which every Claude Code session reads, whatever its project; wake has no record of adding it for this project (an older 'wake install claude' in another project did, or it was written by hand). Run 'wake install claude' again in that project, which moves it into the project, or remove the line by hand.",
			w.Show(w.globalImport.File), w.globalImport.Line)
		return g, nil
	}
	md, err := w.Read(w.globalImport.File)
	if err != nil {
		return g, err
	}
	md.New, md.Changed = removeImport(md.Old, w.globalImport.Line)
	md.Done = "removed the import " + w.globalImport.Line + " an older 'wake install claude' added, which every Claude Code session read, whatever its project; this project's CLAUDE.md imports its own memory instead"
	g.edit, g.drop = &md, true
	return g, nil
}

// settingsFailure names the settings file and says how to recover.
func settingsFailure(path string, err error) error {
	return clients.Hinted(fmt.Errorf("%s: %w", path, err), "fix the file (Claude Code cannot read it either) and run the command again; wake left it untouched")
}
