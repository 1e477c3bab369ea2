package wake

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/wakeproto/wake/gitwork"
	"github.com/wakeproto/wake/store"
)

// MergeSetup says what [SetupMerge] did.
type MergeSetup struct {
	InGit bool // the root is in a git work tree; nothing else is set when not
	// Attributes says the root's .gitattributes was created.
	Attributes bool
	// Driver is the merge.wake.driver now configured; Configured says
	// this run set it (it was missing or named another program).
	Driver     string
	Configured bool
}

// SetupMerge makes the root at dir ready for git to merge it (DESIGN
// section 12), when it is in a git work tree: its .gitattributes, created
// when missing, and the merge driver in the clone's local configuration,
// running the wake at exe. A clone of a committed root needs only the
// second; every clone does, since git takes no driver from a repository.
func SetupMerge(ctx context.Context, dir, exe string, o Options) (MergeSetup, error) {
	m := bare(dir, o)
	g := m.gitw()
	var res MergeSetup
	if !gitwork.Found() || g.Outside(m.o.FS, dir) || !g.InWorkTree(ctx, dir) {
		return res, nil
	}
	res.InGit = true
	s := m.Store()
	created, err := s.WriteGitAttributes(ctx)
	if err != nil {
		return res, fmt.Errorf("writing %s: %w", store.GitAttributesPath, err)
	}
	res.Attributes = created
	want := gitwork.DriverCommand(exe)
	if res.Driver = g.Driver(ctx, dir); res.Driver != want {
		if err := g.SetDriver(ctx, dir, exe); err != nil {
			return res, err
		}
		res.Driver, res.Configured = want, true
	}
	if err := s.MarkMergeDriver("configured"); err != nil {
		m.warn(fmt.Sprintf("could not record the merge driver in .state/: %v", err))
	}
	return res, nil
}

// NoticeMergeDriver says once a clone, as a warning, that git will not
// merge the root safely: it has a .gitattributes naming wake's driver and
// the clone has no driver configured (or one naming a program that is
// gone). A clone found configured is remembered too, so that later
// commands run no git for it.
func NoticeMergeDriver(ctx context.Context, root string, o Options) {
	m := bare(root, o)
	s := m.Store()
	if _, err := m.o.FS.Stat(s.Path(store.GitAttributesPath)); err != nil || s.MergeDriverMarked() || !gitwork.Found() {
		return
	}
	g := m.gitw()
	mark := "configured"
	switch {
	case g.Outside(m.o.FS, m.root) || !g.InWorkTree(ctx, m.root):
		mark = "not in a git work tree" // a copied root: nothing to merge
	case !driverRuns(g.Driver(ctx, m.root)):
		mark = "warned"
		m.notify(Notice{Kind: "warning",
			Msg:  "this clone has no wake merge driver configured: git will merge .wake/ as plain text, with conflicts and lost records, until 'wake init' is run here (it only adds what is missing)",
			Hint: "run 'wake init' once in this clone",
		})
	}
	if err := s.MarkMergeDriver(mark); err != nil {
		m.warn(fmt.Sprintf("could not record the merge driver notice in .state/: %v", err))
	}
}

// driverRuns reports whether a configured driver command names a program
// that is there: "wake" on PATH, or an absolute path that exists.
func driverRuns(cmd string) bool {
	if cmd == "" {
		return false
	}
	prog := cmd
	if strings.HasPrefix(cmd, "'") {
		prog, _, _ = strings.Cut(cmd[1:], "'")
	} else {
		prog, _, _ = strings.Cut(cmd, " ")
	}
	if !filepath.IsAbs(prog) {
		return true // found on PATH when git runs it, or not: git says so then
	}
	_, err := os.Stat(prog)
	return err == nil
}
