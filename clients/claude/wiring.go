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
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/wakeproto/wake/clients"
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
// its .claude/settings.json, and the import of boot.md into its CLAUDE.md
// or, with [claude] boot = "skill", of skill.md into ~/.claude/CLAUDE.md.
func (Client) Wire(env clients.Env) clients.Wiring { return newWiring(env) }

// wiring is where install puts things for one project and memory root.
type wiring struct {
	clients.Env
	settings    string // <project>/.claude/settings.json
	bootImport  mdImport
	skillImport mdImport // zero when skill.path is ""
	skill       bool     // boot = "skill": install adds skillImport
	err         error    // why install cannot wire the client
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
	// Hooks are the other hooks install added, Stop and SessionEnd, each
	// naming its event; the records of older wakes, which added
	// SessionStart alone, have none.
	Hooks   []hookRecord `json:"hooks,omitempty"`
	Imports []mdImport   `json:"imports,omitempty"`
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
	w := &wiring{Env: env, settings: filepath.Join(env.Project, ".claude", "settings.json"),
		skill: env.Config.Claude.Boot == tiers.BootSkill}
	w.bootImport = mdImport{filepath.Join(env.Project, "CLAUDE.md"), importLine(env.Project, filepath.Join(env.Root, tiers.BootPath), env.Home, false)}
	skill, err := env.Config.Skill.SkillPath(env.Home, env.Root)
	switch {
	case err != nil && w.skill:
		w.err = clients.Hinted(err, "set HOME, or an absolute skill.path in wake.toml")
	case err != nil || skill == "":
	case env.Home != "":
		claudeDir := filepath.Join(env.Home, ".claude")
		w.skillImport = mdImport{filepath.Join(claudeDir, "CLAUDE.md"), importLine(claudeDir, skill, env.Home, true)}
	case w.skill:
		w.err = clients.Hinted(errors.New("HOME is not set"), "set HOME: the skill import goes into ~/.claude/CLAUDE.md")
	}
	if w.skill && w.err == nil && w.skillImport.File == "" {
		w.err = clients.Hinted(errors.New(`wake.toml: [claude] boot = "skill" needs a skill.path`), `set [skill] path, or boot = "full"`)
	}
	return w
}

// target is the import install adds.
func (w *wiring) target() mdImport {
	if w.skill {
		return w.skillImport
	}
	return w.bootImport
}

// Boot is boot.md imported into the project's CLAUDE.md, or skill.md into
// the user's ~/.claude/CLAUDE.md.
func (w *wiring) Boot() (clients.Boot, error) {
	if w.skill {
		return clients.Boot{Skill: true, Into: "~/.claude/CLAUDE.md"}, w.err
	}
	return clients.Boot{Into: "CLAUDE.md"}, w.err
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
	plan := clients.InstallPlan{Edits: []clients.FileEdit{set, md}, Command: HookCommand,
		Done: "Claude Code now loads this memory at every session start (hook output stays within its 10,000-character limit), " +
			"asks the agent once for a hand-off when a session did work without one, and writes an automatic one when a session ends without it. Undo with 'wake uninstall claude'.",
		Unchanged: "Already installed: the settings and CLAUDE.md were left unchanged.",
		Record: func(r *clients.Record) error {
			var rec record
			if err := r.Decode(&rec); err != nil {
				return err
			}
			for i, h := range added {
				rec.setHook(h, set.Path, eds[i])
			}
			if md.Changed && !slices.Contains(rec.Imports, imp) {
				rec.Imports = append(rec.Imports, imp)
			}
			return r.Encode(rec)
		}}
	if rel, err := filepath.Rel(w.Project, w.Root); w.Config.Claude.Boot == tiers.BootFull && (err != nil || !filepath.IsLocal(rel)) {
		plan.Notes = append(plan.Notes, "Note: the memory root is outside the project, so Claude Code asks once, in an interactive session, before it follows the import; until then (and in 'claude -p') boot.md is not imported and the hook's pointer to it is what the agent gets.")
	}
	return plan, nil
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

// settingsFailure names the settings file and says how to recover.
func settingsFailure(path string, err error) error {
	return clients.Hinted(fmt.Errorf("%s: %w", path, err), "fix the file (Claude Code cannot read it either) and run the command again; wake left it untouched")
}
