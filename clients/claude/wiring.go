package claude

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/afero"
	"github.com/wakeproto/wake/handoff"
	"github.com/wakeproto/wake/tiers"
)

// Wiring is where install puts things for one project and memory root,
// and the file system it edits them on.
type Wiring struct {
	FS                  afero.Fs
	Project, Root, Home string
	Config              tiers.Config
	Settings            string // <project>/.claude/settings.json
	BootImport          Import
	SkillImport         Import // zero when skill.path is ""
	// Warn receives what the user should hear of; nil drops it.
	Warn func(string)
}

// Import is one import line in one CLAUDE.md.
type Import struct {
	File, Line string
}

// NewWiring is where install puts things for the project and the memory
// root at root, with the configuration cfg and the user's home directory.
// It fails only when skill mode needs a skill import it cannot name.
func NewWiring(fsys afero.Fs, project, root, home string, cfg tiers.Config) (*Wiring, error) {
	w := &Wiring{FS: fsys, Project: project, Root: root, Home: home, Config: cfg,
		Settings: filepath.Join(project, ".claude", "settings.json")}
	w.BootImport = Import{filepath.Join(project, "CLAUDE.md"), ImportLine(project, filepath.Join(root, tiers.BootPath), home, false)}
	skill, err := cfg.Skill.SkillPath(home, root)
	if err != nil && cfg.Claude.Boot == tiers.BootSkill {
		return w, hinted(err, "set HOME, or an absolute skill.path in wake.toml")
	}
	switch {
	case err != nil || skill == "":
	case home != "":
		claudeDir := filepath.Join(home, ".claude")
		w.SkillImport = Import{filepath.Join(claudeDir, "CLAUDE.md"), ImportLine(claudeDir, skill, home, true)}
	case cfg.Claude.Boot == tiers.BootSkill:
		return w, hinted(errors.New("HOME is not set"), "set HOME: the skill import goes into ~/.claude/CLAUDE.md")
	}
	return w, nil
}

// PlanInstall plans adding the hook and the import line; the HookEdit
// says what adding the hook makes, for the record.
func (w *Wiring) PlanInstall(imp Import) ([]FileEdit, HookEdit, error) {
	var ed HookEdit
	set, err := w.readEdit(w.Settings, DisplayPath(w.Settings, w.Project, w.Home))
	if err != nil {
		return nil, ed, err
	}
	set.New, ed, set.Changed, err = AddHook(set.Old)
	if err != nil {
		return nil, ed, settingsFailure(w.Settings, err)
	}
	set.Done = fmt.Sprintf("added the SessionStart hook %q (matcher %s)", HookCommand, HookMatcher)
	if others := OtherWakeHooks(set.Old); set.Changed && len(others) > 0 {
		set.Done += fmt.Sprintf("; the hook with %s already there runs wake at some starts only, and now a second time at those: remove it by hand", strings.Join(others, " and the one with "))
	}
	set.Kept = "already runs the hook; unchanged"
	md, err := w.readEdit(imp.File, DisplayPath(imp.File, w.Project, w.Home))
	if err != nil {
		return nil, ed, err
	}
	md.New, md.Changed, err = AddImport(md.Old, md.Exists, imp.Line)
	if err != nil {
		return nil, ed, hinted(fmt.Errorf("%s: %w", imp.File, err), "close the fence, then run the command again; wake left the file untouched")
	}
	md.Done, md.Kept = "added the import "+imp.Line, "already imports "+imp.Line+"; unchanged"
	return []FileEdit{set, md}, ed, nil
}

// ApplyRecorded records in the manifest what the edits add and create
// (ed: what adding the hook made), then applies them. The record comes
// first: should wake stop in between, uninstall finds a record of
// something not there, which it passes over, rather than an addition it
// has no record of. When applying fails, the manifest is put back as it
// was.
func (w *Wiring) ApplyRecorded(edits []FileEdit, imp Import, ed HookEdit) error {
	m, err := readManifest(w.FS, w.Root)
	if err != nil {
		return err
	}
	before := m
	before.Installs = slices.Clone(m.Installs)
	set, md := edits[0], edits[1]
	var hook *hookRecord
	var added *importRecord
	var created []string
	if set.Changed {
		hook = &hookRecord{File: set.Path, Matcher: HookMatcher, Command: HookCommand, HookEdit: ed}
	}
	if md.Changed {
		added = &importRecord{File: imp.File, Line: imp.Line}
	}
	for _, e := range edits {
		if e.Changed && !e.Exists {
			created = append(append(created, w.missingDirs(filepath.Dir(e.Path))...), e.Path)
		}
	}
	if hook == nil && added == nil {
		return nil
	}
	m.record(w.Project, hook, added, created)
	if err := m.write(w.FS, w.Root); err != nil {
		return err
	}
	if err := w.apply(edits); err != nil {
		if rerr := before.write(w.FS, w.Root); rerr != nil {
			w.warn(fmt.Sprintf("%s records an install that failed: %v", manifestPath(w.Root), rerr))
		}
		return err
	}
	return nil
}

// missingDirs lists dir and those of its parents that do not exist yet,
// outermost first: what writing a file into dir creates.
func (w *Wiring) missingDirs(dir string) []string {
	var out []string
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := w.FS.Stat(d); err == nil || filepath.Dir(d) == d {
			break
		}
		out = append(out, d)
	}
	slices.Reverse(out)
	return out
}

// FileEdit is one file install or uninstall changes.
type FileEdit struct {
	Path    string
	Base    string // the project, when path is in it: no symlink between them is followed
	Show    string // how the report names it
	Old     []byte
	Exists  bool
	New     []byte
	Changed bool
	Remove  bool   // delete the file: install created it and nothing else is left
	Done    string // what the change was: "added the import @x"
	Kept    string // why nothing changed
}

func (w *Wiring) readEdit(path, show string) (FileEdit, error) {
	e := FileEdit{Path: path, Show: show}
	base, rel := filepath.Dir(path), filepath.Base(path)
	if r, err := filepath.Rel(w.Project, path); err == nil && filepath.IsLocal(r) {
		e.Base, base, rel = w.Project, w.Project, r
	}
	if err := handoff.CheckWritable(w.FS, base, rel); err != nil {
		return e, err
	}
	data, err := afero.ReadFile(w.FS, path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return e, fmt.Errorf("reading %s: %w", path, err)
	default:
		e.Old, e.Exists = data, true
	}
	return e, nil
}

// apply writes or deletes the edited files, atomically, keeping a file's
// permissions.
func (w *Wiring) apply(edits []FileEdit) error {
	for _, e := range edits {
		if !e.Changed {
			continue
		}
		if e.Remove {
			if err := w.FS.Remove(e.Path); err != nil {
				return fmt.Errorf("removing %s: %w", e.Path, err)
			}
			continue
		}
		var err error
		if e.Base != "" {
			rel, _ := filepath.Rel(e.Base, e.Path)
			err = handoff.WriteFileIn(w.FS, e.Base, rel, e.New, 0o644)
		} else {
			err = handoff.WriteFile(w.FS, e.Path, e.New, 0o644)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// DisplayPath names path for the report: relative to the project or
// "~/..." under home, whichever is nearer, else absolute.
func DisplayPath(path, project, home string) string {
	rel := func(base string) (string, bool) {
		r, err := filepath.Rel(base, path)
		return filepath.ToSlash(r), base != "" && err == nil && filepath.IsLocal(r)
	}
	p, inProject := rel(project)
	h, inHome := rel(home)
	switch {
	case inHome && (!inProject || len(home) > len(project)):
		return "~/" + h
	case inProject:
		return p
	}
	return path
}

// settingsFailure names the settings file and says how to recover.
func settingsFailure(path string, err error) error {
	return hinted(fmt.Errorf("%s: %w", path, err), "fix the file (Claude Code cannot read it either) and run the command again; wake left it untouched")
}

func (w *Wiring) warn(msg string) {
	if w.Warn != nil {
		w.Warn(msg)
	}
}
