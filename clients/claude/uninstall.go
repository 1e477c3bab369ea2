package claude

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/afero"
)

// Plan is what uninstall changes and what it leaves, and why.
type Plan struct {
	Edits   []FileEdit
	Dirs    []string // directories install created, removed once empty
	Removed []string // of dirs, those removed
	Notes   []string // said after the files
}

// Uninstall undoes what the manifest records for the project, and
// drops the record. Without a record it removes wake's hook alone.
func (w *Wiring) Uninstall(haveRoot bool) (Plan, error) {
	m := manifest{Version: 1}
	if haveRoot {
		var err error
		if m, err = readManifest(w.FS, w.Root); err != nil {
			return Plan{}, err
		}
	}
	i := m.find(w.Project)
	if i < 0 {
		u, err := w.planHookOnly(manifestPath(w.Root))
		if err != nil {
			return u, err
		}
		return u, w.apply(u.Edits)
	}
	u, err := w.planRecorded(m.Installs[i])
	if err != nil {
		return u, err
	}
	if err := w.apply(u.Edits); err != nil {
		return u, err
	}
	for _, d := range slices.Backward(u.Dirs) {
		if names, err := afero.ReadDir(w.FS, d); err == nil && len(names) == 0 && w.FS.Remove(d) == nil {
			u.Removed = append(u.Removed, d)
		}
	}
	m.Installs = slices.Delete(m.Installs, i, i+1)
	return u, m.write(w.FS, w.Root)
}

// planRecorded plans undoing one install: wake's hook and import lines where
// they are still as install wrote them, and the files install created when
// nothing else is left in them.
func (w *Wiring) planRecorded(rec claudeInstall) (Plan, error) {
	var u Plan
	rec = w.checkRecord(rec)
	created := func(p string) bool { return slices.Contains(rec.Created, p) }
	for _, c := range rec.Created {
		if fi, err := w.FS.Stat(c); err == nil && fi.IsDir() {
			u.Dirs = append(u.Dirs, c)
		}
	}
	path := w.Settings
	var ed *HookEdit
	if rec.Hook != nil {
		path, ed = rec.Hook.File, &rec.Hook.HookEdit
	}
	set, err := w.planHookRemoval(path, ed)
	if err != nil {
		return u, err
	}
	switch {
	case rec.Hook == nil && set.Changed:
		set = FileEdit{Path: set.Path, Show: set.Show, Kept: "the SessionStart hook was there before 'wake install claude'; left as it is"}
	case rec.Hook != nil && !set.Exists:
		set.Kept = "gone already"
	case rec.Hook != nil && !set.Changed:
		set.Kept = fmt.Sprintf("wake's SessionStart hook (matcher %s) is no longer there as install wrote it; nothing removed", HookMatcher)
	}
	set.Remove = set.Changed && set.Remove && created(set.Path)
	u.Edits = append(u.Edits, set)
	for _, imp := range rec.Imports {
		md, err := w.readEdit(imp.File, DisplayPath(imp.File, w.Project, w.Home))
		if err != nil {
			return u, err
		}
		md.New, md.Changed = RemoveImport(md.Old, imp.Line)
		md.Remove = md.Changed && len(md.New) == 0 && created(imp.File)
		md.Done = "removed the import " + imp.Line
		md.Kept = "no longer holds the import " + imp.Line + "; nothing removed"
		if !md.Exists {
			md.Kept = "gone already"
		}
		u.Edits = append(u.Edits, md)
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
func (w *Wiring) checkRecord(rec claudeInstall) claudeInstall {
	files := []string{w.Settings, filepath.Join(w.Project, "CLAUDE.md")}
	dirs := []string{filepath.Dir(w.Settings)}
	lines := []Import{w.BootImport}
	if w.SkillImport.File != "" {
		lines = append(lines, w.SkillImport)
	}
	var dropped []string
	if rec.Hook != nil && rec.Hook.File != w.Settings {
		dropped = append(dropped, rec.Hook.File)
		rec.Hook = nil
	}
	imports := rec.Imports[:0:0]
	for _, imp := range rec.Imports {
		if slices.Contains(lines, Import{imp.File, imp.Line}) {
			imports = append(imports, imp)
		} else {
			dropped = append(dropped, imp.File)
		}
	}
	rec.Imports = imports
	created := rec.Created[:0:0]
	shared := []string{}
	if w.Home != "" {
		shared = []string{filepath.Join(w.Home, ".claude"), filepath.Join(w.Home, ".claude", "CLAUDE.md")}
	}
	for _, c := range rec.Created {
		switch {
		case slices.Contains(files, c) || slices.Contains(dirs, c):
			created = append(created, c)
		case slices.Contains(shared, c):
			// Created by install, kept: every project shares them.
		default:
			dropped = append(dropped, c)
		}
	}
	rec.Created = created
	if len(dropped) > 0 {
		w.warn(fmt.Sprintf("the install record names files install never touches (%s); left alone", strings.Join(dropped, ", ")))
	}
	return rec
}

// planHookRemoval plans taking wake's hook out of a settings file, and
// what install made around it (ed, nil without a record). remove says
// nothing but what wake would create is left; the caller decides whether
// install created the file.
func (w *Wiring) planHookRemoval(path string, ed *HookEdit) (FileEdit, error) {
	set, err := w.readEdit(path, DisplayPath(path, w.Project, w.Home))
	if err != nil || !set.Exists {
		return set, err
	}
	set.New, set.Changed, set.Remove, err = RemoveHook(set.Old, ed)
	if err != nil {
		return set, settingsFailure(path, err)
	}
	set.Done = fmt.Sprintf("removed the SessionStart hook %q (matcher %s)", HookCommand, HookMatcher)
	return set, nil
}

// planHookOnly plans an uninstall with no record of the install: wake's
// hook goes, as it is identified exactly, and no file is deleted. An
// import line could have been written by hand, so the import lines stay,
// named in a note.
func (w *Wiring) planHookOnly(manifest string) (Plan, error) {
	var u Plan
	set, err := w.planHookRemoval(w.Settings, nil)
	if err != nil {
		return u, err
	}
	set.Remove = false
	u.Edits = append(u.Edits, set)
	var found []string
	for _, imp := range []Import{w.BootImport, w.SkillImport} {
		if imp.File == "" {
			continue
		}
		data, err := afero.ReadFile(w.FS, imp.File)
		if _, _, ok := FindImport(string(data), imp.Line); err == nil && ok {
			found = append(found, DisplayPath(imp.File, w.Project, w.Home)+" imports "+imp.Line)
		}
	}
	note := fmt.Sprintf("wake has no record of an install into this project (%s), so it cannot tell which import lines were its own and removed none", manifest)
	if len(found) > 0 {
		note += ": " + strings.Join(found, "; ") + ". Remove a line by hand if wake added it"
	}
	u.Notes = append(u.Notes, note+".")
	return u, nil
}
