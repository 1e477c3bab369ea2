package campaign

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/store"
	"github.com/wakeproto/wake/tiers"
)

// emptyOK are the files of a root that are empty by design.
var emptyOK = map[string]bool{tiers.StateDir + "/lock": true}

// checkRoot checks what every root must hold once the next command has
// run: after its files are made older than [store.StaleTempAge] and a
// load has swept, no empty file, no temporary file, no record of an
// unfinished write, no torn ledger line; and wake check exits as it does
// on a root no kill touched.
func (r *Run) checkRoot() []string {
	if _, err := os.Lstat(r.Root); err != nil {
		return nil // the kill came before the root: nothing to check
	}
	var v []string
	backdate(r.Root, store.StaleTempAge+time.Minute)
	if _, err := r.MustWake("load"); err != nil {
		v = append(v, "the sweeping load: "+firstLine(err.Error()))
	}
	filepath.WalkDir(r.Root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			v = append(v, err.Error())
			return nil
		}
		rel, _ := filepath.Rel(r.Root, p)
		rel = filepath.ToSlash(rel)
		v = append(v, leftover(rel, d)...)
		return nil
	})
	if _, bad, err := store.ReadLedger(afero.NewOsFs(), r.Root); err != nil {
		v = append(v, "reading the ledger: "+err.Error())
	} else {
		for _, b := range bad {
			v = append(v, b.String())
		}
	}
	return v
}

// leftover says what is wrong with the entry rel of a swept root.
func leftover(rel string, d fs.DirEntry) []string {
	name := d.Name()
	switch {
	case strings.HasPrefix(name, ".") && strings.Contains(name, ".tmp-"):
		return []string{"temporary file left after the sweep: " + rel}
	case d.IsDir() && strings.HasPrefix(rel, tiers.StateDir+"/"+store.JournalDir+"/"):
		return []string{"hand-off journal left: " + rel}
	case d.IsDir():
		return nil
	case strings.HasPrefix(rel, tiers.StateDir+"/"+store.CreatesDir+"/"):
		return []string{"creation record left: " + rel}
	case rel == tiers.StateDir+"/"+store.DecisionsPending:
		return []string{"decision-log write left pending: " + rel}
	}
	if fi, err := d.Info(); err == nil && fi.Mode().IsRegular() && fi.Size() == 0 && !emptyOK[rel] {
		return []string{"empty file: " + rel}
	}
	return nil
}

// backdate sets every file's times under dir age back.
func backdate(dir string, age time.Duration) {
	t := time.Now().Add(-age)
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			os.Chtimes(p, t, t)
		}
		return nil
	})
}

// Ledger reads the run's ledger.
func (r *Run) Ledger() ([]store.Entry, error) {
	es, _, err := store.ReadLedger(afero.NewOsFs(), r.Root)
	return es, err
}

// read returns the root's file rel, "" when missing.
func (r *Run) read(rel string) string {
	b, _ := os.ReadFile(filepath.Join(r.Root, filepath.FromSlash(rel)))
	return string(b)
}

// opsNamed counts the ledger lines of op whose change summary or paths
// contain s.
func (r *Run) opsNamed(op, s string) (int, error) {
	es, err := r.Ledger()
	n := 0
	for _, e := range es {
		if e.Op == op && (strings.Contains(e.ChangeSummary, s) || strings.Contains(e.Summary, s) || strings.Contains(strings.Join(e.Paths, "\n"), s)) {
			n++
		}
	}
	return n, err
}

// recorded checks that what the command wrote (count of the text in the
// files) and its ledger lines agree: both none or both one.
func (r *Run) recorded(what string, inFiles, lines int) []string {
	if inFiles > 1 || lines > 1 || inFiles != lines {
		return []string{fmt.Sprintf("%s: %d in the files, %d ledger lines", what, inFiles, lines)}
	}
	return nil
}
