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
	Hook    *hookRecord `json:"hook,omitempty"`
	Imports []mdImport  `json:"imports,omitempty"`
}

// hookRecord is one SessionStart hook install added to a settings file,
// and what it made around it (see [hookEdit]: "made" and "inside", absent
// from the records of older wakes).
type hookRecord struct {
	File    string `json:"file"`
	Matcher string `json:"matcher"`
	Command string `json:"command"`
	hookEdit
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
	var ed hookEdit
	set.New, ed, set.Changed, err = addHook(set.Old)
	if err != nil {
		return clients.InstallPlan{}, settingsFailure(w.settings, err)
	}
	set.Done = fmt.Sprintf("added the SessionStart hook %q (matcher %s)", HookCommand, HookMatcher)
	if others := otherWakeHooks(set.Old); set.Changed && len(others) > 0 {
		set.Done += fmt.Sprintf("; the hook with %s already there runs wake at some starts only, and now a second time at those: remove it by hand", strings.Join(others, " and the one with "))
	}
	set.Kept = "already runs the hook; unchanged"
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
		Done:      "Claude Code now loads this memory at every session start (hook output stays within its 10,000-character limit). Undo with 'wake uninstall claude'.",
		Unchanged: "Already installed: the settings and CLAUDE.md were left unchanged.",
		Record: func(r *clients.Record) error {
			var rec record
			if err := r.Decode(&rec); err != nil {
				return err
			}
			if set.Changed {
				rec.Hook = &hookRecord{File: set.Path, Matcher: HookMatcher, Command: HookCommand, hookEdit: ed}
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

// settingsFailure names the settings file and says how to recover.
func settingsFailure(path string, err error) error {
	return clients.Hinted(fmt.Errorf("%s: %w", path, err), "fix the file (Claude Code cannot read it either) and run the command again; wake left it untouched")
}
