package clients

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/store"
)

// FileEdit is one file install or uninstall changes.
type FileEdit struct {
	Path    string
	Base    string // the project, when path is in it: no symlink between them is followed
	Show    string // how the report names it
	Old     []byte
	Exists  bool
	New     []byte
	Changed bool
	Remove  bool   // delete the file: see [UninstallPlan]
	Done    string // what the change was: "added the import @x"
	Kept    string // why nothing changed
}

// Read is the edit of the file at path as it is now, to be planned by
// setting New and Changed. A file wake could not write (a symlink on the
// way, from the project or at the file itself) is refused here, before
// anything is changed.
func (e Env) Read(path string) (FileEdit, error) {
	ed := FileEdit{Path: path, Show: e.Show(path)}
	base, rel := filepath.Dir(path), filepath.Base(path)
	if r, err := filepath.Rel(e.Project, path); err == nil && filepath.IsLocal(r) {
		ed.Base, base, rel = e.Project, e.Project, r
	}
	if err := store.CheckWritable(e.FS, base, rel); err != nil {
		return ed, err
	}
	data, err := afero.ReadFile(e.FS, path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return ed, fmt.Errorf("reading %s: %w", path, err)
	default:
		ed.Old, ed.Exists = data, true
	}
	return ed, nil
}

// Show names path for the report: relative to the project or "~/..."
// under home, whichever is nearer, else absolute.
func (e Env) Show(path string) string {
	rel := func(base string) (string, bool) {
		r, err := filepath.Rel(base, path)
		return filepath.ToSlash(r), base != "" && err == nil && filepath.IsLocal(r)
	}
	p, inProject := rel(e.Project)
	h, inHome := rel(e.Home)
	switch {
	case inHome && (!inProject || len(e.Home) > len(e.Project)):
		return "~/" + h
	case inProject:
		return p
	}
	return path
}

// line is the report's line about the edit, "" when there is nothing to
// say.
func (ed FileEdit) line() string {
	switch {
	case ed.Changed && ed.Remove && ed.New == nil:
		return fmt.Sprintf("%s: %s", ed.Show, ed.Done) // a file wake's whole: Done says it went
	case ed.Changed && ed.Remove:
		return fmt.Sprintf("%s: %s; deleted the file, which install created and which held nothing else", ed.Show, ed.Done)
	case ed.Changed && !ed.Exists:
		return fmt.Sprintf("%s: created; %s", ed.Show, ed.Done)
	case ed.Changed:
		return fmt.Sprintf("%s: %s", ed.Show, ed.Done)
	case ed.Kept != "":
		return fmt.Sprintf("%s: %s", ed.Show, ed.Kept)
	}
	return ""
}

// apply writes or deletes the edited files, atomically, keeping a file's
// permissions.
func apply(fsys afero.Fs, edits []FileEdit) error {
	for _, e := range edits {
		if !e.Changed {
			continue
		}
		if e.Remove {
			if err := fsys.Remove(e.Path); err != nil {
				return fmt.Errorf("removing %s: %w", e.Path, err)
			}
			continue
		}
		var err error
		if e.Base != "" {
			rel, _ := filepath.Rel(e.Base, e.Path)
			err = store.WriteFileIn(fsys, e.Base, rel, e.New, 0o644)
		} else {
			err = store.WriteFile(fsys, e.Path, e.New, 0o644)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// changed reports whether any edit changes its file.
func changed(edits []FileEdit) bool {
	return slices.ContainsFunc(edits, func(e FileEdit) bool { return e.Changed })
}

// missingDirs lists dir and those of its parents that do not exist yet,
// outermost first: what writing a file into dir creates.
func missingDirs(fsys afero.Fs, dir string) []string {
	var out []string
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := fsys.Stat(d); err == nil || filepath.Dir(d) == d {
			break
		}
		out = append(out, d)
	}
	slices.Reverse(out)
	return out
}
