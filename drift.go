package wake

import (
	"encoding/json"
	"fmt"
	"maps"
	"path/filepath"
	"strings"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/boot"
	"github.com/wakeproto/wake/checks"
	"github.com/wakeproto/wake/store"
	"github.com/wakeproto/wake/tiers"
)

// overBudgetFile, in the state directory, counts for each warm file the
// sessions running in which it had to be cut to fit: wake's own record,
// updated once a session, at its hand-off.
const overBudgetFile = "over-budget.json"

type overBudget struct {
	Version int            `json:"version"`
	Files   map[string]int `json:"files"`
}

// driftOptions are what the drift findings need beyond the documents.
// Paths named in the memory are looked up in the project (the directory
// holding the root, when the root is the usual .wake) and in the root;
// with a root elsewhere the project is not known and the lookup is off.
func (m *Memory) driftOptions() checks.DriftOptions {
	o := checks.DriftOptions{Sessions: m.cfg.Checks.OverBudgetSessions, OverBudget: m.readOverBudget().Files,
		ReviewAfter: m.cfg.Checks.ReviewAfter, Now: m.o.Now}
	if filepath.Base(m.root) == tiers.DefaultDirName {
		o.Module = goModules(m.o.FS, filepath.Dir(m.root))
		// Searched only when a decision names an option or a dependency.
		p := newProjectFiles(m.o.FS, m.gitw(), filepath.Dir(m.root), m.root)
		if m.run != nil {
			p.searched = m.run.projectSearched
		}
		o.Mentioned, o.Dependencies = p.Mentioned, p.Dependencies
		bases := []string{filepath.Dir(m.root), m.root}
		o.Exists = func(rel string) bool {
			for _, b := range bases {
				if _, err := m.o.FS.Stat(filepath.Join(b, filepath.FromSlash(rel))); err == nil {
					return true
				}
			}
			return false
		}
	}
	return o
}

func (m *Memory) readOverBudget() overBudget {
	var ob overBudget
	if data, err := tiers.ReadOwn(m.o.FS, m.root, tiers.StateDir+"/"+overBudgetFile); err == nil {
		json.Unmarshal(data, &ob) // a damaged record starts the count again
	}
	return ob
}

// recordOverBudget counts one more session for each warm file the context
// had to cut, and forgets the others. The caller holds the root's lock.
func (m *Memory) recordOverBudget(c *boot.Context) {
	old := m.readOverBudget()
	next := overBudget{Version: 1, Files: map[string]int{}}
	for _, f := range c.Files() {
		if f.Tier == string(tiers.TierWarm) && f.Truncated {
			next.Files[f.Path] = old.Files[f.Path] + 1
		}
	}
	if maps.Equal(old.Files, next.Files) {
		return
	}
	data, _ := json.Marshal(next)
	if err := store.WriteState(m.o.FS, m.root, overBudgetFile, data); err != nil {
		m.warn(fmt.Sprintf("recording which warm files were cut to fit: %v", err))
	}
}

// goModules reads the modules the project's go.mod requires, for the
// review of decisions whose reason names one: present reports a module
// path required (or inside one required); known is false without a
// go.mod, or one that cannot be read.
func goModules(fsys afero.Fs, dir string) func(string) (bool, bool) {
	data, err := afero.ReadFile(fsys, filepath.Join(dir, "go.mod"))
	mods := goModPaths(string(data))
	return func(p string) (bool, bool) {
		if err != nil {
			return false, false
		}
		for _, m := range mods {
			if p == m || strings.HasPrefix(p, m+"/") {
				return true, true
			}
		}
		return false, true
	}
}

// goModPaths are the module path and the required modules' paths of a
// go.mod, read line by line (the module's own directives; comments and
// versions dropped).
func goModPaths(text string) []string {
	var out []string
	block := false
	for _, l := range strings.Split(text, "\n") {
		if i := strings.Index(l, "//"); i >= 0 {
			l = l[:i]
		}
		f := strings.Fields(l)
		switch {
		case len(f) == 0:
		case block && f[0] == ")":
			block = false
		case block:
			out = append(out, strings.Trim(f[0], `"`))
		case f[0] == "require" && len(f) >= 2 && f[1] == "(":
			block = true
		case (f[0] == "require" || f[0] == "module") && len(f) >= 2:
			out = append(out, strings.Trim(f[1], `"`))
		}
	}
	return out
}
