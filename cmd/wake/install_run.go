package main

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/wakeproto/wake/clients/claude"

	"github.com/wakeproto/wake"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/handoff"
	"github.com/wakeproto/wake/skill"
	"github.com/wakeproto/wake/tiers"
)

func (a *app) installRun(ctx context.Context, o *installOptions) error {
	project, err := a.projectDir(o.project)
	if err != nil {
		return err
	}
	m, err := a.openFrom(project)
	if errors.Is(err, tiers.ErrNoRoot) {
		return hintError{fmt.Errorf("no memory root for %s", project), "run 'wake init' in the project first, or pass --root DIR"}
	}
	if err != nil {
		return err
	}
	w, err := claude.NewWiring(a.fs, project, m.Root(), a.env["HOME"], m.Config())
	if err != nil {
		return err
	}
	w.Warn = func(msg string) { a.warn([]string{msg}) }
	imp := w.BootImport
	if m.Config().Claude.Boot == tiers.BootSkill {
		if w.SkillImport.File == "" {
			return hintError{errors.New(`wake.toml: [claude] boot = "skill" needs a skill.path`), `set [skill] path, or boot = "full"`}
		}
		imp = w.SkillImport
	}
	var edits []claude.FileEdit
	var boots bootReport
	m.Precount()
	err = m.Store().Mutate(ctx, func() (handoff.Entry, error) {
		var err error
		// The boot files first: the import added below must name a file
		// wake has written.
		boots = a.installBootFiles(m, w, o)
		if imp == w.SkillImport {
			if !m.Trust().Trusted {
				return handoff.Entry{}, hintError{fmt.Errorf("not importing skill.md into ~/.claude/CLAUDE.md: this memory root is not trusted, and every Claude Code session would read it"),
					fmt.Sprintf("if you know this memory, run 'wake trust --root %s', then install again", m.Root())}
			}
			if err := a.checkSkillImport(m); err != nil {
				return handoff.Entry{}, err
			}
		} else if !boots.bootWritten {
			why := strings.Join(boots.lines, "; ")
			if why == "" {
				why = "the boot context could not be built"
			}
			return handoff.Entry{}, hintError{fmt.Errorf("not importing %s into CLAUDE.md: wake could not write it (%s)", tiers.BootPath, why),
				"wake imports only a boot.md it wrote: make .wake/boot.md a plain file (or remove it), then run install again"}
		}
		var ed claude.HookEdit
		if edits, ed, err = w.PlanInstall(imp); err != nil {
			return handoff.Entry{}, err
		}
		if err := w.ApplyRecorded(edits, imp, ed); err != nil {
			return handoff.Entry{}, err
		}
		return changeEntry("install", m.Root(), edits, boots)
	})
	if err != nil && !errors.Is(err, errUnchanged) {
		return err
	}
	fmt.Fprintf(a.out, "wake install claude: %s\n", project)
	changed := a.reportEdits(edits)
	for _, l := range boots.lines {
		fmt.Fprintf(a.out, "  %s\n", l)
	}
	if changed {
		fmt.Fprintf(a.out, "Claude Code now loads this memory at every session start (hook output stays within its %s-character limit). Undo with 'wake uninstall claude'.\n", "10,000")
	} else {
		fmt.Fprintln(a.out, "Already installed: the settings and CLAUDE.md were left unchanged.")
	}
	a.warnWakeNotOnPath()
	if rel, err := filepath.Rel(project, m.Root()); m.Config().Claude.Boot == tiers.BootFull && (err != nil || !filepath.IsLocal(rel)) {
		fmt.Fprintf(a.out, "Note: the memory root is outside the project, so Claude Code asks once, in an interactive session, before it follows the import; until then (and in 'claude -p') boot.md is not imported and the hook's pointer to it is what the agent gets.\n")
	}
	return nil
}

// warnWakeNotOnPath warns when PATH has no executable wake: the hook is the
// bare command, so that it keeps working when wake is upgraded or moved
// (and 'go run' leaves no binary to name), and Claude Code finds it on the
// PATH it was started with.
func (a *app) warnWakeNotOnPath() {
	for _, dir := range filepath.SplitList(a.env["PATH"]) {
		if dir == "" {
			dir = "."
		}
		if !filepath.IsAbs(dir) {
			dir = filepath.Join(a.cwd, dir)
		}
		if fi, err := a.fs.Stat(filepath.Join(dir, "wake")); err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0 {
			return
		}
	}
	a.notice(wake.Notice{Kind: "warning",
		Msg:  fmt.Sprintf("'wake' is not on PATH; the hook runs the bare command %q, so Claude Code cannot run it until wake is on the PATH Claude Code starts with", claude.HookCommand),
		Hint: "install wake into a directory on PATH (go install puts it in $(go env GOPATH)/bin), or add its directory to PATH, then start Claude Code again"})
}

// checkSkillImport refuses to import skill.md into the user's global
// CLAUDE.md unless the file at skill.path is one wake wrote (it carries
// wake's marker) and is a plain file: an import of anything else would
// hand every Claude Code session a file wake never vouched for.
func (a *app) checkSkillImport(m *wake.Memory) error {
	path, err := m.SkillPath()
	if err != nil {
		return err
	}
	if err := handoff.CheckWritable(a.fs, filepath.Dir(path), filepath.Base(path)); err != nil {
		return hintError{fmt.Errorf("not importing %s into ~/.claude/CLAUDE.md: %w", path, err), "replace it with a plain file, or set [skill] path in your own ~/.config/wake/config.toml"}
	}
	data, err := afero.ReadFile(a.fs, path)
	if err != nil || !skill.HasMarker(data) {
		return hintError{fmt.Errorf("not importing %s into ~/.claude/CLAUDE.md: wake did not write that file", path),
			"wake imports only a skill.md it wrote: pass --force-skill to replace the file there, or choose another skill.path"}
	}
	return nil
}

// bootReport is what installBootFiles did: a line for the report about each
// boot file, and the files it changed.
type bootReport struct {
	bootWritten bool // boot.md is wake's, written or up to date
	lines       []string
	changed     []string // absolute paths
	summary     []string // for the ledger: "wrote .wake/boot.md"
}

// installBootFiles writes the boot files now, so that the next session
// imports a current copy even where Claude Code reads CLAUDE.md before the
// hook has run.
func (a *app) installBootFiles(m *wake.Memory, w *claude.Wiring, o *installOptions) bootReport {
	var r bootReport
	t, err := m.WriteBootFilesLocked(o.skillFlags.bootFiles(true))
	if err != nil {
		a.warn([]string{fmt.Sprintf("the boot files were not written: %v", err)})
		return r
	}
	r.bootWritten = t.BootPath != ""
	for _, f := range []struct {
		path    string
		changed bool
		written string
	}{
		{t.BootPath, t.BootChanged, "written (the whole boot context; every session start regenerates it)"},
		{t.SkillPath, t.SkillChanged, "written (skill.md; wake load and wake handoff keep it current)"},
	} {
		if f.path == "" {
			continue
		}
		show, state := claude.DisplayPath(f.path, w.Project, w.Home), "up to date"
		if f.changed {
			state = f.written
			r.changed = append(r.changed, f.path)
			r.summary = append(r.summary, "wrote "+show)
		}
		r.lines = append(r.lines, show+": "+state)
	}
	r.lines = append(r.lines, t.Problems...)
	return r
}

// errUnchanged tells Mutate not to log a run that changed nothing.
var errUnchanged = errors.New("nothing changed")

// ledgerPath names a changed file in a ledger entry: relative to the root
// inside it, absolute outside.
func ledgerPath(root, path string) string {
	if rel, err := filepath.Rel(root, path); err == nil && filepath.IsLocal(rel) {
		return filepath.ToSlash(rel)
	}
	return filepath.ToSlash(path)
}

// changeEntry is the ledger line of an install or uninstall: the files it
// changed and what it did to each; errUnchanged when it changed no setting
// or CLAUDE.md. Boot files alone are not logged: wake load regenerates them
// at every start without a ledger line, and boot.md shows the ledger's
// digest, so logging its refresh would change it again at every run.
func changeEntry(op, root string, edits []claude.FileEdit, also bootReport) (handoff.Entry, error) {
	e := handoff.Entry{Op: op}
	var what []string
	for _, ed := range edits {
		if ed.Changed {
			e.Paths = append(e.Paths, ledgerPath(root, ed.Path))
			what = append(what, ed.Show+": "+ed.Done)
		}
	}
	if len(e.Paths) == 0 {
		return e, errUnchanged
	}
	for _, p := range also.changed {
		e.Paths = append(e.Paths, ledgerPath(root, p))
	}
	what = append(what, also.summary...)
	e.ChangeSummary = "wake " + op + " claude: " + strings.Join(what, "; ")
	return e, nil
}

func (a *app) reportEdits(edits []claude.FileEdit) bool {
	changed := false
	for _, e := range edits {
		switch {
		case e.Changed && e.Remove:
			fmt.Fprintf(a.out, "  %s: %s; deleted the file, which install created and which held nothing else\n", e.Show, e.Done)
		case e.Changed && !e.Exists:
			fmt.Fprintf(a.out, "  %s: created; %s\n", e.Show, e.Done)
		case e.Changed:
			fmt.Fprintf(a.out, "  %s: %s\n", e.Show, e.Done)
		case e.Kept != "":
			fmt.Fprintf(a.out, "  %s: %s\n", e.Show, e.Kept)
		}
		changed = changed || e.Changed
	}
	return changed
}
