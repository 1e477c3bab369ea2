package store

import "github.com/spf13/afero"

// noteOwnWrite brings the records of the tracked files e names up to date,
// e being wake's own change, just logged. It is best effort: a record
// left behind is settled by the next session start, which finds e past
// it in the ledger.
func noteOwnWrite(fsys afero.Fs, root string, e Entry) {
	if e.Op == OpEdit {
		return
	}
	var paths []string
	for _, p := range e.Paths {
		if isTracked(p) {
			paths = append(paths, p)
		}
	}
	if len(paths) == 0 {
		return
	}
	sc := OpenEditScan(fsys, root, e.At)
	if !sc.baselined() {
		return
	}
	sc.own = true
	for _, p := range paths {
		if o, err := ObservePath(fsys, root, p); err == nil {
			sc.Look(o)
		}
	}
	sc.Commit()
}

// noteHandEdit records what was edited by hand in rel since wake last saw
// it, before wake replaces or moves the file: otherwise the ledger line of
// wake's own write would account for the edit too, and it would never be
// recorded. Best effort, like [noteOwnWrite]: a failure costs at most that
// one edit's entry, never the write.
func (s *Store) noteHandEdit(rel string) {
	if !isTracked(rel) {
		return
	}
	sc := OpenEditScan(s.FS, s.Root, s.Now())
	if !sc.baselined() {
		return
	}
	if o, err := ObservePath(s.FS, s.Root, rel); err == nil && sc.Look(o) == nil {
		sc.Commit()
	}
}
