package clients

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake"
	"github.com/wakeproto/wake/store"
	"github.com/wakeproto/wake/tiers"
)

// Options is what a front end installs or uninstalls with.
type Options struct {
	// Wake opens the memory root: the file system, the environment
	// (HOME, WAKE_ROOT, PATH), the clock, the lock and the notices.
	Wake wake.Options
	// Project is the project directory the client runs in, absolute.
	Project string
	// Root is the memory root as the user named it (--root); "" finds it
	// from $WAKE_ROOT, else up from the project.
	Root string
	// Cwd is the working directory, for relative PATH entries.
	Cwd string
	// BootFiles says how install writes skill.md; it always writes
	// boot.md.
	BootFiles wake.BootFiles
	// MCP registers 'wake mcp' in the client's config too (install
	// only; uninstall takes out whatever install recorded).
	MCP bool
	// ProjectOnly wires the project alone (see [Env.ProjectOnly]).
	ProjectOnly bool
	// Local writes into the client's per-user settings ([Env.Local]).
	Local bool
}

// Report is what an install or uninstall did, for the front end to show:
// a heading, a line about each file, the summary, the warnings, the notes.
type Report struct {
	Op, Client, Project string // "install", "claude", the project
	Edits               []FileEdit
	// Files are the report's lines about the files changed besides the
	// edits: the boot files install wrote, the directories uninstall
	// removed.
	Files []string
	// Summary says what the run means; "" when there is nothing to say.
	Summary string
	// Warnings come after the summary: what the user must do for the
	// wiring to work.
	Warnings []wake.Notice
	Notes    []string // said last
}

// Lines is the report's line about each file, edits first.
func (r *Report) Lines() []string {
	var out []string
	for _, e := range r.Edits {
		if l := e.line(); l != "" {
			out = append(out, l)
		}
	}
	return append(out, r.Files...)
}

// Changed reports whether the run changed a file of the client's.
func (r *Report) Changed() bool { return changed(r.Edits) }

// defaults fills in what [wake.Open] would, for the file access and the
// lock taken here.
func (o *Options) defaults() {
	if o.Wake.FS == nil {
		o.Wake.FS = afero.NewOsFs()
	}
	if o.Wake.Env == nil {
		o.Wake.Env = map[string]string{}
	}
	if o.Wake.Now == nil {
		o.Wake.Now = time.Now
	}
	if o.Wake.Locker == nil {
		o.Wake.Locker = store.FileLocker{Timeout: wake.LockTimeout}
	}
}

// env is the Env of the client's wiring into the project.
func (o *Options) env(c Client, root string, cfg tiers.Config) Env {
	return Env{FS: o.Wake.FS, Project: o.Project, Root: root, Home: o.Wake.Env["HOME"], Config: cfg,
		Manifest: manifestPath(root, c.About().Name), Warn: o.warn, Vars: o.Wake.Env, Cwd: o.Cwd, MCP: o.MCP, ProjectOnly: o.ProjectOnly, Local: o.Local, client: c.About()}
}

func (o *Options) warn(msg string) {
	if o.Wake.Notify != nil {
		o.Wake.Notify(wake.Notice{Kind: "warning", Msg: msg})
	}
}

// open finds and opens the project's memory root.
func (o *Options) open() (*wake.Memory, error) {
	root, err := wake.Find(o.Wake.FS, o.Root, o.Wake.Env["WAKE_ROOT"], o.Project)
	if errors.Is(err, tiers.ErrNoRoot) {
		return nil, Hinted(fmt.Errorf("no memory root for %s", o.Project), "run 'wake init' in the project first, or pass --root DIR")
	}
	if err != nil {
		return nil, err
	}
	m, err := wake.Open(root, o.Wake)
	var ce *wake.ConfigError
	if errors.As(err, &ce) {
		return nil, Hinted(err, "fix the key in that file; 'wake init' writes a commented copy of every wake.toml default")
	}
	return m, err
}

// Install wires client c into the project: under the root's lock it
// writes the boot files first (the wiring must name a file wake has
// written), checks that the client may read them, applies the client's
// edits with their record in the manifest, and logs one ledger line when
// anything of the client's changed.
func Install(ctx context.Context, c Client, o Options) (*Report, error) {
	o.defaults()
	m, err := o.open()
	if err != nil {
		return nil, err
	}
	env := o.env(c, m.Root(), m.Config())
	w := c.Wire(env)
	b, err := w.Boot()
	if err != nil {
		return nil, err
	}
	about := c.About()
	r := &Report{Op: "install", Client: about.Name, Project: o.Project}
	var plan InstallPlan
	var then []string
	m.Precount()
	err = m.Store().MutateThen(ctx, func() (store.Entry, error) {
		files := writeBootFiles(m, env, o.BootFiles)
		if err := checkBoot(env, b, files); err != nil {
			return store.Entry{}, err
		}
		var err error
		if plan, err = w.PlanInstall(); err != nil {
			return store.Entry{}, err
		}
		r.Edits, r.Files = plan.Edits, files.lines
		if err := applyRecorded(env, about, plan); err != nil {
			return store.Entry{}, err
		}
		if plan.Then != nil {
			f, err := plan.Then(ctx, func(add func(*Record) error) error { return addRecord(env, about, add) })
			r.Edits, r.Warnings, then = append(r.Edits, f.Edits...), f.Warnings, f.Notes
			if err != nil {
				return store.Entry{}, err
			}
		}
		return changeEntry(r, m.Root(), env.Home, files.changes)
	}, func() error {
		// boot.md's digest lists the ledger: written again with the
		// install's own line, it is the copy the next session's import
		// reads, and the hook has nothing to add.
		if _, err := m.WriteBootFilesLocked(wake.BootFiles{NoSkill: true}); err != nil {
			env.Warn(fmt.Sprintf("the boot files were not written again after the install's ledger line: %v", err))
		}
		return nil
	})
	if err != nil && !errors.Is(err, errUnchanged) {
		return nil, err
	}
	r.Summary, r.Notes = plan.Unchanged, append(then, plan.Notes...)
	if r.Changed() {
		r.Summary = plan.Done
	}
	// The hooks find the root as wake does from the project: a root named
	// by --root alone is not theirs.
	if found, err := wake.Find(env.FS, "", o.Wake.Env["WAKE_ROOT"], o.Project); plan.Command != "" && (err != nil || found != m.Root()) {
		what := "no memory root"
		if err == nil {
			what = "the memory root " + found
		}
		r.Warnings = append(r.Warnings, wake.Notice{Kind: "warning",
			Msg:  fmt.Sprintf("%s's hooks run 'wake' in %s, which finds %s there, not %s", about.Title, o.Project, what, m.Root()),
			Hint: fmt.Sprintf("set WAKE_ROOT=%s in the environment %s starts with, or give the project its own root with 'wake init'", m.Root(), about.Title)})
	}
	// The wiring runs the bare command, so that it keeps working when wake
	// is upgraded or moved (and 'go run' leaves no binary to name): the
	// client must find wake on the PATH it starts with.
	if plan.Command != "" && !onPath(env.FS, o.Wake.Env["PATH"], o.Cwd, "wake") {
		r.Warnings = append(r.Warnings, wake.Notice{Kind: "warning",
			Msg:  fmt.Sprintf("'wake' is not on PATH; the hook runs the bare command %q, so %s cannot run it until wake is on the PATH %s starts with", plan.Command, about.Title, about.Title),
			Hint: fmt.Sprintf("install wake into a directory on PATH (go install puts it in $(go env GOPATH)/bin), or add its directory to PATH, then start %s again", about.Title)})
	}
	return r, nil
}

// applyRecorded records in the manifest what the plan adds and creates,
// then applies its edits. The record comes first: should wake stop in
// between, uninstall finds a record of something not there, which it
// passes over, rather than an addition it has no record of. When applying
// fails, the manifest is put back as it was.
func applyRecorded(env Env, about About, plan InstallPlan) error {
	m, err := readManifest(env.FS, env.Root, about)
	if err != nil || !changed(plan.Edits) {
		return err
	}
	before := m
	before.Installs = slices.Clone(m.Installs)
	var created []string
	for _, e := range plan.Edits {
		if e.Changed && !e.Exists {
			created = append(append(created, missingDirs(env.FS, filepath.Dir(e.Path))...), e.Path)
		}
	}
	if err := m.record(env.Project, plan, created); err != nil {
		return err
	}
	if err := m.write(env.FS, env.Root, about.Name); err != nil {
		return err
	}
	if err := apply(env.FS, plan.Edits); err != nil {
		if rerr := before.write(env.FS, env.Root, about.Name); rerr != nil {
			env.Warn(fmt.Sprintf("%s records an install that failed: %v", env.Manifest, rerr))
		}
		return err
	}
	return nil
}

// addRecord adds to the project's record in the manifest, and writes it.
func addRecord(env Env, about About, add func(*Record) error) error {
	m, err := readManifest(env.FS, env.Root, about)
	if err != nil {
		return err
	}
	if err := m.record(env.Project, InstallPlan{Record: add}, nil); err != nil {
		return err
	}
	return m.write(env.FS, env.Root, about.Name)
}

// changeEntry is the ledger line of an install or uninstall: the files it
// changed and what it did to each; errUnchanged when it changed no file of
// the client's. Boot files alone are not logged: wake load regenerates
// them at every start without a ledger line, and boot.md shows the
// ledger's digest, so logging its refresh would change it again at every
// run.
func changeEntry(r *Report, root, home string, also changes) (store.Entry, error) {
	e := store.Entry{Op: r.Op}
	var what []string
	for _, ed := range r.Edits {
		if ed.Changed {
			e.Paths = append(e.Paths, store.LedgerPath(root, home, ed.Path))
			what = append(what, ed.Show+": "+ed.Done)
		}
	}
	if len(e.Paths) == 0 {
		return e, errUnchanged
	}
	for _, p := range also.paths {
		e.Paths = append(e.Paths, store.LedgerPath(root, home, p))
	}
	what = append(what, also.summary...)
	e.ChangeSummary = "wake " + r.Op + " " + r.Client + ": " + strings.Join(what, "; ")
	return e, nil
}

// changes are the files a run changed besides the client's edits: a line
// about each for the report, their paths and what was done for the
// ledger.
type changes struct {
	lines   []string
	paths   []string // absolute
	summary []string // "wrote .wake/boot.md"
}

// onPath reports whether a directory in the PATH list path holds an
// executable regular file name.
func onPath(fsys afero.Fs, path, cwd, name string) bool { return LookPath(fsys, path, cwd, name) != "" }

// LookPath returns the first executable regular file name in the
// directories of the PATH list path, as a shell finds a command, or ""
// when there is none; relative entries (and "", the current directory)
// are taken from cwd.
func LookPath(fsys afero.Fs, path, cwd, name string) string {
	for _, dir := range filepath.SplitList(path) {
		if dir == "" {
			dir = "."
		}
		if !filepath.IsAbs(dir) {
			dir = filepath.Join(cwd, dir)
		}
		p := filepath.Join(dir, name)
		if fi, err := fsys.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0 {
			return p
		}
	}
	return ""
}
