package clients

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake"
	"github.com/wakeproto/wake/store"
	"github.com/wakeproto/wake/tiers"
)

// Uninstall takes client c out of the project: what the manifest records
// of its install there, each part only where it is still as install wrote
// it, and the files and directories install created once nothing else is
// left in them; without a record, only what the wiring can tell is
// wake's. With a memory root it holds the root's lock and logs one ledger
// line when it changed anything; without one there is nothing to lock,
// and no ledger to write to. The memory root and the boot files stay.
func Uninstall(ctx context.Context, c Client, o Options) (*Report, error) {
	o.defaults()
	root, cfg := filepath.Join(o.Project, tiers.DefaultDirName), tiers.DefaultConfig()
	found, err := wake.Find(o.Wake.FS, o.Root, o.Wake.Env["WAKE_ROOT"], o.Project)
	haveRoot := err == nil
	if haveRoot {
		root = found
		wake.Recover(root, o.Wake)
		// The configuration as install used it: the user's own settings,
		// and wake.toml's as far as the user's trust allows.
		if m, err := wake.Open(root, o.Wake); err == nil {
			cfg = m.Config()
		} else {
			o.warn(fmt.Sprintf("%v; naming the default skill import", err))
		}
	}
	env := o.env(c, root, cfg)
	about := c.About()
	r := &Report{Op: "uninstall", Client: about.Name, Project: o.Project}
	w := c.Wire(env)
	var notes []string
	run := func() (store.Entry, error) {
		plan, removed, err := uninstall(env, about, w, haveRoot)
		r.Edits, notes = plan.Edits, plan.Notes
		dirs := removedDirs(env, removed)
		r.Files = dirs.lines
		if err != nil {
			return store.Entry{}, err
		}
		return changeEntry(r, root, env.Home, dirs)
	}
	if haveRoot {
		store := &store.Store{FS: o.Wake.FS, Root: root, Now: o.Wake.Now, Locker: o.Wake.Locker, Writer: o.Wake.Writer}
		err = store.Mutate(ctx, run)
	} else {
		_, err = run()
	}
	if err != nil && !errors.Is(err, errUnchanged) {
		return nil, err
	}
	if !r.Changed() {
		r.Summary = "Nothing of wake's was found; nothing changed."
	}
	r.Notes = notes
	return r, nil
}

// uninstall plans and applies the uninstall, drops the project's record
// and returns the plan and the directories it removed.
func uninstall(env Env, about About, w Wiring, haveRoot bool) (UninstallPlan, []string, error) {
	m := manifest{Version: 1}
	if haveRoot {
		var err error
		if m, err = readManifest(env.FS, env.Root, about); err != nil {
			return UninstallPlan{}, nil, err
		}
	}
	i := m.find(env.Project)
	if i < 0 {
		plan, err := w.PlanUninstall(nil)
		if err != nil {
			return plan, nil, err
		}
		// Install created nothing uninstall knows of: only a file that
		// is wake's whole goes.
		for j := range plan.Edits {
			plan.Edits[j].Remove = plan.Edits[j].Remove && plan.Edits[j].New == nil
		}
		return plan, nil, apply(env.FS, plan.Edits)
	}
	rec := m.Installs[i]
	plan, err := w.PlanUninstall(&rec)
	if err != nil {
		return plan, nil, err
	}
	var dirs []string
	for _, c := range rec.Created {
		if fi, err := env.FS.Stat(c); err == nil && fi.IsDir() {
			dirs = append(dirs, c)
		}
	}
	for j := range plan.Edits {
		e := &plan.Edits[j]
		e.Remove = e.Changed && e.Remove && (slices.Contains(rec.Created, e.Path) || e.New == nil)
	}
	if err := apply(env.FS, plan.Edits); err != nil {
		return plan, nil, err
	}
	var removed []string
	for _, d := range slices.Backward(dirs) {
		if names, err := afero.ReadDir(env.FS, d); err == nil && len(names) == 0 && env.FS.Remove(d) == nil {
			removed = append(removed, d)
		}
	}
	m.Installs = slices.Delete(m.Installs, i, i+1)
	return plan, removed, m.write(env.FS, env.Root, about.Name)
}

// removedDirs names the directories uninstall removed, for the report and
// the ledger.
func removedDirs(env Env, removed []string) changes {
	var r changes
	for _, d := range removed {
		show := env.Show(d) + "/"
		r.lines = append(r.lines, show+": removed the directory, which install created and which was left empty")
		r.paths = append(r.paths, d)
		r.summary = append(r.summary, "removed the empty directory "+show)
	}
	return r
}
