package main

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/wakeproto/wake/clients/claude"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/handoff"
	"github.com/wakeproto/wake/tiers"
)

// uninstallPlan is what uninstall changes and what it leaves, and why.
type uninstallPlan struct {
	edits   []fileEdit
	dirs    []string // directories install created, removed once empty
	removed []string // of dirs, those removed
	notes   []string // said after the files
}

func (a *app) uninstallRun(ctx context.Context, o *installOptions) error {
	project, err := a.projectDir(o.project)
	if err != nil {
		return err
	}
	a.cwd = project
	root, cfg := filepath.Join(project, tiers.DefaultDirName), tiers.DefaultConfig()
	r, err := a.findRoot()
	haveRoot := err == nil
	if haveRoot {
		root = r
		if c, err := tiers.LoadConfig(a.fs, root); err == nil {
			cfg = c
		} else {
			a.warn([]string{fmt.Sprintf("%v; naming the default skill import", err)})
		}
	}
	// The wiring only names import lines install may have added; an error
	// about the skill import leaves it unnamed.
	w, _ := a.wiring(project, root, cfg)
	var u uninstallPlan
	run := func() (handoff.Entry, error) {
		var err error
		if u, err = a.uninstallRecorded(root, haveRoot, w); err != nil {
			return handoff.Entry{}, err
		}
		return changeEntry("uninstall", root, u.edits, u.dirReport(w))
	}
	if haveRoot {
		err = a.store(root).Mutate(ctx, run)
	} else {
		// No memory root: nothing to lock, and no ledger to write to.
		_, err = run()
	}
	if err != nil && !errors.Is(err, errUnchanged) {
		return err
	}
	fmt.Fprintf(a.out, "wake uninstall claude: %s\n", project)
	changed := a.reportEdits(u.edits)
	for _, l := range u.dirReport(w).lines {
		fmt.Fprintf(a.out, "  %s\n", l)
	}
	if !changed {
		fmt.Fprintln(a.out, "Nothing of wake's was found; nothing changed.")
	}
	for _, n := range u.notes {
		fmt.Fprintln(a.out, n)
	}
	return nil
}

// uninstallRecorded undoes what the manifest records for the project, and
// drops the record. Without a record it removes wake's hook alone.
func (a *app) uninstallRecorded(root string, haveRoot bool, w claudeWiring) (uninstallPlan, error) {
	m := claudeManifest{Version: 1}
	if haveRoot {
		var err error
		if m, err = readClaudeManifest(a.fs, root); err != nil {
			return uninstallPlan{}, err
		}
	}
	i := m.find(w.project)
	if i < 0 {
		u, err := a.planHookOnly(w, claudeManifestPath(root))
		if err != nil {
			return u, err
		}
		return u, a.apply(u.edits)
	}
	u, err := a.planRecorded(w, m.Installs[i])
	if err != nil {
		return u, err
	}
	if err := a.apply(u.edits); err != nil {
		return u, err
	}
	for _, d := range slices.Backward(u.dirs) {
		if names, err := afero.ReadDir(a.fs, d); err == nil && len(names) == 0 && a.fs.Remove(d) == nil {
			u.removed = append(u.removed, d)
		}
	}
	m.Installs = slices.Delete(m.Installs, i, i+1)
	return u, m.write(a.fs, root)
}

// planRecorded plans undoing one install: wake's hook and import lines where
// they are still as install wrote them, and the files install created when
// nothing else is left in them.
func (a *app) planRecorded(w claudeWiring, rec claudeInstall) (uninstallPlan, error) {
	var u uninstallPlan
	rec = a.checkRecord(w, rec)
	created := func(p string) bool { return slices.Contains(rec.Created, p) }
	for _, c := range rec.Created {
		if fi, err := a.fs.Stat(c); err == nil && fi.IsDir() {
			u.dirs = append(u.dirs, c)
		}
	}
	path := w.settings
	var ed *claude.HookEdit
	if rec.Hook != nil {
		path, ed = rec.Hook.File, &rec.Hook.HookEdit
	}
	set, err := a.planHookRemoval(w, path, ed)
	if err != nil {
		return u, err
	}
	switch {
	case rec.Hook == nil && set.changed:
		set = fileEdit{path: set.path, show: set.show, kept: "the SessionStart hook was there before 'wake install claude'; left as it is"}
	case rec.Hook != nil && !set.exists:
		set.kept = "gone already"
	case rec.Hook != nil && !set.changed:
		set.kept = fmt.Sprintf("wake's SessionStart hook (matcher %s) is no longer there as install wrote it; nothing removed", claude.HookMatcher)
	}
	set.remove = set.changed && set.remove && created(set.path)
	u.edits = append(u.edits, set)
	for _, imp := range rec.Imports {
		md, err := a.readEdit(imp.File, displayPath(imp.File, w.project, w.home))
		if err != nil {
			return u, err
		}
		md.new, md.changed = claude.RemoveImport(md.old, imp.Line)
		md.remove = md.changed && len(md.new) == 0 && created(imp.File)
		md.done = "removed the import " + imp.Line
		md.kept = "no longer holds the import " + imp.Line + "; nothing removed"
		if !md.exists {
			md.kept = "gone already"
		}
		u.edits = append(u.edits, md)
	}
	return u, nil
}

// checkRecord drops, with a warning, what an install record names that
// install could not have written: the record lives in the memory root,
// which can come with a cloned repository, and uninstall edits and deletes
// what it names. Install only ever touches the project's
// .claude/settings.json and CLAUDE.md and the user's ~/.claude/CLAUDE.md,
// adding to a CLAUDE.md only the import line of this root's boot.md or
// skill.md; and a record from the root never deletes anything in the
// user's home (~/.claude or its CLAUDE.md), which every project shares.
func (a *app) checkRecord(w claudeWiring, rec claudeInstall) claudeInstall {
	files := []string{w.settings, filepath.Join(w.project, "CLAUDE.md")}
	dirs := []string{filepath.Dir(w.settings)}
	lines := []importEdit{w.bootImport}
	if w.skillImport.file != "" {
		lines = append(lines, w.skillImport)
	}
	var dropped []string
	if rec.Hook != nil && rec.Hook.File != w.settings {
		dropped = append(dropped, rec.Hook.File)
		rec.Hook = nil
	}
	imports := rec.Imports[:0:0]
	for _, imp := range rec.Imports {
		if slices.Contains(lines, importEdit{imp.File, imp.Line}) {
			imports = append(imports, imp)
		} else {
			dropped = append(dropped, imp.File)
		}
	}
	rec.Imports = imports
	created := rec.Created[:0:0]
	for _, c := range rec.Created {
		if slices.Contains(files, c) || slices.Contains(dirs, c) {
			created = append(created, c)
		} else {
			dropped = append(dropped, c)
		}
	}
	rec.Created = created
	if len(dropped) > 0 {
		a.warn([]string{fmt.Sprintf("the install record names files install never touches (%s); left alone", strings.Join(dropped, ", "))})
	}
	return rec
}

// planHookRemoval plans taking wake's hook out of a settings file, and
// what install made around it (ed, nil without a record). remove says
// nothing but what wake would create is left; the caller decides whether
// install created the file.
func (a *app) planHookRemoval(w claudeWiring, path string, ed *claude.HookEdit) (fileEdit, error) {
	set, err := a.readEdit(path, displayPath(path, w.project, w.home))
	if err != nil || !set.exists {
		return set, err
	}
	set.new, set.changed, set.remove, err = claude.RemoveHook(set.old, ed)
	if err != nil {
		return set, settingsFailure(path, err)
	}
	set.done = fmt.Sprintf("removed the SessionStart hook %q (matcher %s)", claude.HookCommand, claude.HookMatcher)
	return set, nil
}

// planHookOnly plans an uninstall with no record of the install: wake's
// hook goes, as it is identified exactly, and no file is deleted. An
// import line could have been written by hand, so the import lines stay,
// named in a note.
func (a *app) planHookOnly(w claudeWiring, manifest string) (uninstallPlan, error) {
	var u uninstallPlan
	set, err := a.planHookRemoval(w, w.settings, nil)
	if err != nil {
		return u, err
	}
	set.remove = false
	u.edits = append(u.edits, set)
	var found []string
	for _, imp := range []importEdit{w.bootImport, w.skillImport} {
		if imp.file == "" {
			continue
		}
		data, err := afero.ReadFile(a.fs, imp.file)
		if _, _, ok := claude.FindImport(string(data), imp.line); err == nil && ok {
			found = append(found, displayPath(imp.file, w.project, w.home)+" imports "+imp.line)
		}
	}
	note := fmt.Sprintf("wake has no record of an install into this project (%s), so it cannot tell which import lines were its own and removed none", manifest)
	if len(found) > 0 {
		note += ": " + strings.Join(found, "; ") + ". Remove a line by hand if wake added it"
	}
	u.notes = append(u.notes, note+".")
	return u, nil
}

// dirReport names the directories uninstall removed, for the report and
// the ledger.
func (u uninstallPlan) dirReport(w claudeWiring) bootReport {
	var r bootReport
	for _, d := range u.removed {
		show := displayPath(d, w.project, w.home) + "/"
		r.lines = append(r.lines, show+": removed the directory, which install created and which was left empty")
		r.changed = append(r.changed, d)
		r.summary = append(r.summary, "removed the empty directory "+show)
	}
	return r
}
