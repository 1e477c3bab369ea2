package wake

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/cold"
	"github.com/wakeproto/wake/internal/fsrecord"
	"github.com/wakeproto/wake/tiers"
)

// The start cache and the cold tier's settled documents.
//
// A start recorded for the start cache stamps the directories of cold/
// (see fsrecord.FS.Stamped): each is keyed by its inode and times, which
// change when a document is added, removed or renamed over (and by its
// names while those times are racy). The cold walk then lstats each
// settled document its index knows by inode number through the
// directory's descriptor (see cold.OpenIndexSettled, Index.TrustBefore),
// unrecorded: none is in the key, which holds the cold
// tier's directories and its recent, new and changed documents, not one
// entry a document, so that a start served from the cache costs what
// changed since, not the history. What the stamps cannot show is a settled document rewritten in
// place, its inode kept: as the scans do, each start served from the
// cache lstats the next few of the documents the key leaves out, in turn,
// and one changed since the recording is a miss, so that such an edit is
// seen within as many starts as it takes the rotation to come round.

// coldStamped reports the directories of the cold tier, which a recorded
// start stamps.
func (m *Memory) coldStamped(name string) bool {
	dir := filepath.Join(m.root, tiers.ColdDir)
	return name == dir || strings.HasPrefix(name, dir+string(filepath.Separator))
}

// trustedColdUnchanged lstats the next documents in the rotation among
// those of the stamped directories of key that key leaves out, and
// reports whether none changed since since, the moment the recording
// started (Unix ns): a change time within [fsrecord.RacyWindow] before
// it counts as changed, for a file system's clock may lag the system's.
// A document found changed is put first in the rotation, so that the
// build the miss leads to lstats it and reads it again; otherwise the
// rotation moves on.
func (m *Memory) trustedColdUnchanged(key []fsrecord.Entry, since int64) bool {
	dirs, _, tie := m.stampedDirs(key)
	if len(dirs) == 0 {
		return true
	}
	keyed := make(map[string]bool, len(key))
	for _, e := range key {
		if rel, err := filepath.Rel(m.root, e.Path); err == nil && m.coldStamped(e.Path) {
			keyed[filepath.ToSlash(rel)] = true
		}
	}
	k := cold.VerifyPerScan()
	after := cold.RotationAfter(m.o.FS, m.root)
	var picked []string
	if names, ok := readNames(m.o.FS, m.root, tie); ok {
		picked = pickNames(names, after, k, keyed)
	} else {
		t := trustedDocs{fsys: m.o.FS, root: m.root, keyed: keyed, dirs: dirs}
		picked = t.pick(after, "", k)
		if len(picked) < k && after != "" {
			// Round to the first.
			picked = append(picked, t.pick("", after, k-len(picked))...)
		}
	}
	if len(picked) == 0 {
		return true
	}
	cut := since - int64(fsrecord.RacyWindow) // as trustBefore
	for _, rel := range picked {
		if changedSince(m.o.FS, m.path(rel), cut) {
			// The path just before rel in the rotation's order: the
			// build's rotation starts with rel.
			_ = cold.SaveRotation(m.o.FS, m.root, rel[:len(rel)-1])
			return false
		}
	}
	_ = cold.SaveRotation(m.o.FS, m.root, picked[len(picked)-1])
	return true
}

// trustedDocs are the documents of a key's stamped directories that the
// key leaves out, listed a directory at a time as the rotation needs them.
type trustedDocs struct {
	fsys  afero.Fs
	root  string
	keyed map[string]bool // the key's paths in cold/, root-relative
	dirs  []string        // the stamped directories, root-relative, sorted
}

// pick returns the k smallest of the documents whose root-relative path
// is after after and, unless upto is "", at most upto, in path order. A
// directory's paths all sort after its own path with a "/": directories
// whose paths cannot be among those wanted are not listed, so that a
// start lists about as many as the rotation's documents fill.
func (t *trustedDocs) pick(after, upto string, k int) []string {
	var got []string
	for _, d := range t.dirs {
		low := d + "/"
		if upto != "" && low > upto || len(got) == k && low >= got[k-1] {
			break // so are the directories after it
		}
		if low < after && !strings.HasPrefix(after, low) {
			continue // every path in it sorts before after
		}
		names, ok := listNames(t.fsys, filepath.Join(t.root, filepath.FromSlash(d)))
		if !ok {
			continue // unreadable now: its stamp did not match
		}
		for _, n := range names {
			p := low + n
			if strings.HasPrefix(n, ".") || p <= after || upto != "" && p > upto || t.keyed[p] {
				continue
			}
			got = keepSmallest(got, p, k)
		}
	}
	return got
}

// keepSmallest adds p to the sorted s when it is among the k smallest.
func keepSmallest(s []string, p string, k int) []string {
	if len(s) == k && p >= s[k-1] {
		return s
	}
	i, _ := slices.BinarySearch(s, p)
	s = slices.Insert(s, i, p)
	return s[:min(len(s), k)]
}

// changedSince reports whether the file at name was modified or changed
// at or after cut (Unix ns), or is gone; a directory or anything else
// not a regular file is not a document, and not looked at further.
func changedSince(fsys afero.Fs, name string, cut int64) bool {
	id := fsrecord.Observe(fsys, name, false)
	switch {
	case !id.Exists:
		return true // gone, or unreadable
	case !os.FileMode(id.Mode).IsRegular():
		return false
	}
	return id.MTime >= cut || id.CTime >= cut
}

// listNames lists the directory dir's names.
func listNames(fsys afero.Fs, dir string) ([]string, bool) {
	d, err := fsys.Open(dir)
	if err != nil {
		return nil, false
	}
	defer d.Close()
	names, err := d.Readdirnames(-1)
	return names, err == nil
}

// trustBefore is the moment a settled document the recording's cold scan
// vouches for was last changed before: the recording's start less a racy
// file's window, which [Memory.trustedColdUnchanged] counts as changed.
func (r *cachedRun) trustBefore() int64 { return r.started - int64(fsrecord.RacyWindow) }

// recordingStarted is the moment a recorded start began, by the system's
// clock, which the files' change times are stamped by (not the Memory's
// clock, which a test or a simulation may set).
func recordingStarted() int64 { return time.Now().UnixNano() }
