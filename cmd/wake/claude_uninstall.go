package main

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/wakeproto/wake"
	"github.com/wakeproto/wake/clients/claude"
	"github.com/wakeproto/wake/handoff"
	"github.com/wakeproto/wake/tiers"
)

func (a *app) uninstallRun(ctx context.Context, o *installOptions) error {
	project, err := a.projectDir(o.project)
	if err != nil {
		return err
	}
	root, cfg := filepath.Join(project, tiers.DefaultDirName), tiers.DefaultConfig()
	r, err := a.findRootFrom(project)
	haveRoot := err == nil
	if haveRoot {
		root = r
		// The configuration as install used it: the user's own settings,
		// and wake.toml's as far as the user's trust allows.
		if m, err := wake.Open(root, a.options()); err == nil {
			cfg = m.Config()
		} else {
			a.warn([]string{fmt.Sprintf("%v; naming the default skill import", err)})
		}
	}
	// The wiring only names import lines install may have added; an error
	// about the skill import leaves it unnamed.
	w, _ := claude.NewWiring(a.fs, project, root, a.env["HOME"], cfg)
	w.Warn = func(m string) { a.warn([]string{m}) }
	var u claude.Plan
	run := func() (handoff.Entry, error) {
		var err error
		if u, err = w.Uninstall(haveRoot); err != nil {
			return handoff.Entry{}, err
		}
		return changeEntry("uninstall", root, u.Edits, dirReport(u, w))
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
	changed := a.reportEdits(u.Edits)
	for _, l := range dirReport(u, w).lines {
		fmt.Fprintf(a.out, "  %s\n", l)
	}
	if !changed {
		fmt.Fprintln(a.out, "Nothing of wake's was found; nothing changed.")
	}
	for _, n := range u.Notes {
		fmt.Fprintln(a.out, n)
	}
	return nil
}

// dirReport names the directories uninstall removed, for the report and
// the ledger.
func dirReport(u claude.Plan, w *claude.Wiring) bootReport {
	var r bootReport
	for _, d := range u.Removed {
		show := claude.DisplayPath(d, w.Project, w.Home) + "/"
		r.lines = append(r.lines, show+": removed the directory, which install created and which was left empty")
		r.changed = append(r.changed, d)
		r.summary = append(r.summary, "removed the empty directory "+show)
	}
	return r
}
