package store

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/internal/fsrecord"
	"github.com/wakeproto/wake/tiers"
)

// OpEdit is the op of a ledger entry recording a change made outside wake:
// by hand, or by the agent's editor.
const OpEdit = "edit"

// seenRacyWindow: a file modified this close to the moment it was recorded
// may be modified again without its size or modification time changing
// (coarse file-system clocks), so its content is compared at the next look.
const seenRacyWindow = 2 * time.Second

// Observed is a memory file as a look found it, from its stat alone.
type Observed struct {
	Path    string // relative to the root, slash-separated
	Exists  bool
	Size    int64
	ModTime time.Time
	CTime   int64 // the change time, Unix nanoseconds; 0 when the stat has none
}

// ObservePath stats rel under the root. A missing file is observed as not
// existing; any other failure is an error, never a deletion.
func ObservePath(fsys afero.Fs, root, rel string) (Observed, error) {
	fi, err := fsys.Stat(filepath.Join(root, filepath.FromSlash(rel)))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return Observed{Path: rel}, nil
	case err != nil:
		return Observed{}, err
	}
	return Observed{Path: rel, Exists: true, Size: fi.Size(), ModTime: fi.ModTime(), CTime: fsrecord.ChangeTime(fi)}, nil
}

// isTracked reports whether rel is a memory file whose changes wake
// records: a tier file (main.md, recent/, warm/*.md) or a cold document.
// Names starting with "." (editor and temporary files, wake's own staged
// files) are not.
func isTracked(rel string) bool {
	if rel != path.Clean(rel) || strings.HasPrefix(rel, "../") || path.IsAbs(rel) {
		return false
	}
	for _, p := range strings.Split(rel, "/") {
		if strings.HasPrefix(p, ".") {
			return false
		}
	}
	for _, ph := range tiers.Phases() {
		if slices.Contains(ph.Paths, rel) {
			return true
		}
	}
	dir, name := path.Split(rel)
	return dir == tiers.WarmDir+"/" && strings.HasSuffix(name, ".md") || strings.HasPrefix(rel, tiers.ColdDir+"/")
}

// An EditScan compares memory files with what wake last saw of them
// ([SeenFile]) and records each change made outside wake as a ledger
// entry (op "edit"): the path and a one-line summary of a line diff of
// the two versions. A change that a ledger entry of wake's own accounts
// for (one past the file's record that names it) is taken as it is,
// without an entry. The first scan of a root takes the baseline and
// records nothing.
//
// A file whose size and modification time match its record is not
// opened. The caller holds the root's lock: the exclusive one to record
// entries, at least the shared one to take a baseline.
type EditScan struct {
	fsys afero.Fs
	root string
	now  time.Time
	seen *seen
	// own: every change is wake's own write, just logged.
	own bool
	// whole: every tracked file was looked at.
	whole bool
	// lazy: a Commit that appends no entry leaves the records to write
	// to a later one, or to [EditScan.Save] (see [EditScan.SaveLater]).
	lazy    bool
	changes []change
	updates map[string]*version // records to set at Commit; nil forgets one
	settled bool
	entries []Entry
}

type change struct {
	path string
	old  *seenRecord // nil: the file is new
	cur  *version    // nil: the file is gone
}

// version is one version of a file as read now.
type version struct {
	rec seenRecord
	sig *signature // nil when none is kept
}

// OpenEditScan loads wake's record of the root's files.
func OpenEditScan(fsys afero.Fs, root string, now time.Time) *EditScan {
	return &EditScan{fsys: fsys, root: root, now: now, seen: loadSeen(fsys, root), updates: map[string]*version{}}
}

// SaveLater makes a [EditScan.Commit] that appends no entry keep the
// records it sets in memory, for the next Commit that appends one, or for
// [EditScan.Save], to write: a session start, which looks at the tier
// files, then builds the context, then looks at the cold documents,
// writes its record once. A Commit that appends entries still writes
// every record before it returns, as it must (a record behind the ledger
// would have the next look record the same edits again); a record not
// written because the process died costs the next look reading the files
// it names again and taking wake's own writes for its own through the
// ledger, as it does for a record that failed to be written.
func (sc *EditScan) SaveLater() { sc.lazy = true }

// Save writes the records a [EditScan.Commit] left to write (see
// [EditScan.SaveLater]); nothing when there are none.
func (sc *EditScan) Save() error { return sc.seen.save(sc.fsys, sc.root) }

// baselined reports whether the root has a record to compare with.
func (sc *EditScan) baselined() bool { return sc.seen.loaded }

// Changed returns the paths whose content differs from their record, in
// the order they were looked at.
func (sc *EditScan) Changed() []string {
	out := make([]string, len(sc.changes))
	for i, c := range sc.changes {
		out[i] = c.path
	}
	return out
}

// Look compares one file with its record. A file whose stat matches a
// record that is not racy is not opened; one that cannot be read as a
// document (outside the root, not a regular file) is left as it was.
func (sc *EditScan) Look(o Observed) error {
	if isColdDoc(o.Path) {
		sc.seen.readCold(sc.fsys, sc.root)
	}
	if sc.settledByStat(o) {
		return nil
	}
	return sc.compare(o, sc.read(o))
}

// settledByStat reports whether o needs no reading: its stat matches a
// record that is not racy, or it is not a file whose changes are recorded.
// The change time counts where both have one: a file rewritten with its
// size kept and its modification time set back (touch -d) is read.
func (sc *EditScan) settledByStat(o Observed) bool {
	old, had := sc.seen.files[o.Path]
	if had && o.Exists && !old.Racy && old.Size == o.Size && old.MTime == o.ModTime.UnixNano() &&
		(old.CTime == 0 || o.CTime == 0 || old.CTime == o.CTime) {
		if old.CTime == 0 && o.CTime != 0 {
			// A record an older wake wrote: it learns the change time, so
			// that from now on an edit with the time set back is seen.
			rec := old
			rec.CTime = o.CTime
			sc.updates[o.Path] = &version{rec: rec}
		}
		return true
	}
	return !isTracked(o.Path)
}

// readOutcome is what reading a file observed found: see [readVersion].
type readOutcome struct {
	v      *version
	exists bool
	err    error
}

// read reads the file o observed, when it exists. It changes nothing of
// the scan, so that many files may be read at once.
func (sc *EditScan) read(o Observed) readOutcome {
	if !o.Exists {
		return readOutcome{}
	}
	v, exists, err := readVersion(sc.fsys, sc.root, o.Path, sc.now)
	return readOutcome{v, exists, err}
}

// compare compares the file o observed, as read, with its record.
func (sc *EditScan) compare(o Observed, r readOutcome) error {
	old, had := sc.seen.files[o.Path]
	var oldp *seenRecord
	if had {
		oldp = &old
	}
	if !o.Exists {
		if had {
			sc.changes = append(sc.changes, change{path: o.Path, old: oldp})
		}
		return nil
	}
	v, exists, err := r.v, r.exists, r.err
	switch {
	case err != nil:
		return err
	case v == nil && exists:
		return nil
	case v == nil && had:
		sc.changes = append(sc.changes, change{path: o.Path, old: oldp})
		return nil
	case v == nil:
		return nil
	}
	// Recorded as observed, so that the next look compares like with like
	// (the scan of cold/ stats a symlink inside the root as itself).
	v.rec.Size, v.rec.MTime, v.rec.CTime, v.rec.Racy = o.Size, o.ModTime.UnixNano(), o.CTime, isSeenRacy(o.ModTime, sc.now)
	if had && old.Hash == v.rec.Hash {
		// The same content: only its stat moved (or a racy record aged).
		v.rec.Mark = old.Mark
		if v.rec != old {
			sc.updates[o.Path] = v
		}
		return nil
	}
	sc.changes = append(sc.changes, change{path: o.Path, old: oldp, cur: v})
	return nil
}

// lookAll looks at the files observed, reading those their stat does not
// settle on all cores (a first start reads every cold document) unless
// known gives their version, and comparing them with their records in
// path order.
func (sc *EditScan) lookAll(found map[string]Observed, known func(string) (DocVersion, bool)) []error {
	var todo []Observed
	for _, p := range slices.Sorted(maps.Keys(found)) {
		if o := found[p]; !sc.settledByStat(o) {
			todo = append(todo, o)
		}
	}
	read := make([]readOutcome, len(todo))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(todo)) {
		wg.Go(func() {
			for i := int(next.Add(1)) - 1; i < len(todo); i = int(next.Add(1)) - 1 {
				if known != nil && todo[i].Exists {
					if dv, ok := known(todo[i].Path); ok && dv.v != nil {
						v := *dv.v // compare sets its stat
						read[i] = readOutcome{v: &v, exists: true}
						continue
					}
				}
				read[i] = sc.read(todo[i])
			}
		})
	}
	wg.Wait()
	var errs []error
	for i, o := range todo {
		errs = append(errs, sc.compare(o, read[i]))
	}
	return errs
}

// LookAtTiers looks at every tier file: those of the loading phases, and
// any other warm/*.md. warm/ is listed only when its modification time
// moved since the last listing, which adding or removing a file there
// does; the files listed before are stat'ed.
func (sc *EditScan) LookAtTiers() error {
	var errs []error
	look := func(rel string) {
		o, err := ObservePath(sc.fsys, sc.root, rel)
		if err == nil {
			err = sc.Look(o)
		}
		errs = append(errs, err)
	}
	for _, ph := range tiers.Phases() {
		for _, rel := range ph.Paths {
			look(rel)
		}
	}
	extras, err := sc.warmExtras()
	errs = append(errs, err)
	n := len(errs)
	for _, rel := range extras {
		look(rel)
	}
	if errors.Join(errs[n:]...) != nil {
		// warm/ is listed again next time, so that no file is missed.
		delete(sc.updates, warmDirKey)
	}
	return errors.Join(errs...)
}

// warmExtras returns the warm files outside the loading phases: those
// recorded, and those a listing of warm/ finds when it changed.
func (sc *EditScan) warmExtras() ([]string, error) {
	set := map[string]bool{}
	for p := range sc.seen.files {
		if p != warmDirKey && strings.HasPrefix(p, warmDirKey) && isTracked(p) && !isPhasePath(p) {
			set[p] = true
		}
	}
	dir, err := ObservePath(sc.fsys, sc.root, tiers.WarmDir)
	if err != nil {
		return slices.Sorted(maps.Keys(set)), err
	}
	rec, had := sc.seen.files[warmDirKey]
	switch {
	case !dir.Exists:
		if had {
			sc.updates[warmDirKey] = nil
		}
	case !had || rec.Racy || rec.MTime != dir.ModTime.UnixNano():
		infos, err := afero.ReadDir(sc.fsys, filepath.Join(sc.root, tiers.WarmDir))
		if err != nil {
			return slices.Sorted(maps.Keys(set)), fmt.Errorf("listing %s: %w", tiers.WarmDir, err)
		}
		for _, fi := range infos {
			if p := tiers.WarmDir + "/" + fi.Name(); !fi.IsDir() && isTracked(p) && !isPhasePath(p) {
				set[p] = true
			}
		}
		r := seenRecord{MTime: dir.ModTime.UnixNano(), Racy: isSeenRacy(dir.ModTime, sc.now), Mark: rec.Mark}
		if r != rec {
			sc.updates[warmDirKey] = &version{rec: r}
		}
	}
	return slices.Sorted(maps.Keys(set)), nil
}

func isPhasePath(p string) bool {
	for _, ph := range tiers.Phases() {
		if slices.Contains(ph.Paths, p) {
			return true
		}
	}
	return false
}

// ColdLook is what a session start's scan of cold/ knows of the cold
// documents, through the cold index.
type ColdLook struct {
	// Index identifies the cold index's file as the start left it. While
	// it is the file the last look at the cold documents saw, and the
	// scan learnt nothing it did not know (Unchanged), no cold document
	// changed since: none is compared with its record, and the records
	// are not even read. "" when there is no such file.
	Index     string
	Unchanged bool
	// Found returns the documents the scan found, as they are now.
	Found func() map[string]Observed
	// Read, when not nil, returns the version of a document the scan
	// read whole in this run (see [VersionOf]), so that it is not read
	// again; false for any other.
	Read func(path string) (DocVersion, bool)
	// Loaded identifies the cold index's file as the start loaded it,
	// before the scan taught it anything. While that is the file the last
	// look saw, the documents the scan found as the index knew them are
	// as the last look found them: only those the scan read (Learnt), and
	// the records of documents it did not find (Has), are looked at, not
	// every document (a hand-off adds one record to thousands). Without
	// Learnt and Has, every document Found returns is looked at.
	Loaded string
	Learnt func() map[string]Observed
	Has    func(path string) (Observed, bool)
}

// LookAtCold looks at the cold documents: at each one the scan of cold/
// found, and at the recorded ones it did not find, which are stat'ed and
// recorded as deleted only when they are gone (a document the scan
// skipped, unreadable, is left as it was); or at none, when the cold
// index says none changed. Every tracked file has then been looked at.
func (sc *EditScan) LookAtCold(c ColdLook) error {
	sc.whole = true
	stamp, had := sc.seen.files[coldIndexKey]
	if c.Unchanged && had && c.Index != "" && stamp.Hash == c.Index {
		return nil
	}
	sc.seen.readCold(sc.fsys, sc.root)
	if !sc.seen.coldOK {
		// Written even when cold/ is empty: a baseline of nothing is one.
		sc.seen.coldDirty = true
	}
	var found map[string]Observed
	has := func(p string) bool { _, ok := found[p]; return ok }
	if delta := c.Learnt != nil && c.Has != nil && sc.seen.coldOK && had && c.Loaded != "" && stamp.Hash == c.Loaded; delta {
		found = c.Learnt()
		for p, r := range sc.seen.files {
			// A record taken racy is read again whatever the stat says.
			if r.Racy && isColdDoc(p) {
				if o, ok := c.Has(p); ok {
					found[p] = o
				}
			}
		}
		has = func(p string) bool { _, ok := c.Has(p); return ok }
	} else {
		found = c.Found()
	}
	errs := sc.lookAll(found, c.Read)
	for p := range sc.seen.files {
		if !isColdDoc(p) || has(p) {
			continue
		}
		o, err := ObservePath(sc.fsys, sc.root, p)
		if err == nil && !o.Exists {
			err = sc.Look(o)
		}
		errs = append(errs, err)
	}
	if err := errors.Join(errs...); err != nil {
		// The stamp stays as it was, so that the next start looks again.
		return err
	}
	switch {
	case c.Index == "" && had:
		sc.updates[coldIndexKey] = nil
	case c.Index != "" && (!had || stamp.Hash != c.Index):
		sc.updates[coldIndexKey] = &version{rec: seenRecord{Hash: c.Index}}
	}
	return nil
}

// Settle decides, for each changed file, whether wake's own write accounts
// for it, and returns the entries [EditScan.Commit] will append for the
// others: none on the first scan, which only takes the baseline.
func (sc *EditScan) Settle() ([]Entry, error) {
	if sc.settled {
		return sc.entries, nil
	}
	var writes map[string]int64
	if sc.seen.loaded && !sc.own && len(sc.changes) > 0 {
		from := sc.seen.mark
		for _, c := range sc.changes {
			if c.old != nil {
				from = min(from, c.old.Mark)
			}
		}
		// Past the ledger's end, from finds nothing: see ledgerWrites.
		var err error
		if writes, err = ledgerWrites(sc.fsys, sc.root, from); err != nil {
			return nil, err
		}
	}
	// Looked at in the order of a map's keys: recorded in path order.
	slices.SortStableFunc(sc.changes, func(a, b change) int { return strings.Compare(a.path, b.path) })
	for _, c := range sc.changes {
		sc.updates[c.path] = c.cur
		mark := sc.seen.mark
		if c.old != nil {
			mark = c.old.Mark
		}
		baselined := sc.seen.loaded && (!isColdDoc(c.path) || sc.seen.coldOK)
		if !baselined || sc.own || writes[c.path] > mark {
			continue
		}
		sc.entries = append(sc.entries, sc.entry(c))
	}
	sc.settled = true
	return sc.entries, nil
}

// Commit appends the entries [EditScan.Settle] decided on, then saves the
// records, each stamped with the ledger's size after the entries. It
// returns how many entries it appended. The scan may then look at more
// files, to commit again.
func (sc *EditScan) Commit() (int, error) {
	entries, err := sc.Settle()
	if err != nil {
		return 0, err
	}
	defer func() {
		sc.changes, sc.updates, sc.settled, sc.entries = nil, map[string]*version{}, false, nil
	}()
	n := 0
	for _, e := range entries {
		if err := AppendLedger(sc.fsys, sc.root, e); err != nil {
			return n, err
		}
		n++
	}
	if len(sc.updates) > 0 || !sc.seen.loaded || sc.seen.coldDirty {
		if err := sc.setRecords(); err != nil {
			return n, err
		}
	}
	if sc.lazy && n == 0 {
		return n, nil
	}
	return n, sc.seen.save(sc.fsys, sc.root)
}

// setRecords sets the records of the files looked at, each stamped with
// the ledger's size.
func (sc *EditScan) setRecords() error {
	size, err := ledgerSize(sc.fsys, sc.root)
	if err != nil {
		return err
	}
	for _, p := range slices.Sorted(maps.Keys(sc.updates)) {
		v := sc.updates[p]
		if v == nil {
			sc.seen.set(p, nil, nil)
			continue
		}
		r := v.rec
		r.Mark = size
		var sig []byte
		if v.sig != nil {
			sig = v.sig.encode()
		}
		sc.seen.set(p, &r, sig)
	}
	if sc.whole || !sc.seen.loaded {
		sc.seen.mark, sc.seen.dirty = size, true
	}
	sc.seen.loaded = true
	return nil
}
