package wake

import (
	"encoding/json"
	"fmt"
	"maps"
	"path/filepath"

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
	o := checks.DriftOptions{Sessions: m.cfg.Checks.OverBudgetSessions, OverBudget: m.readOverBudget().Files}
	if filepath.Base(m.root) == tiers.DefaultDirName {
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
