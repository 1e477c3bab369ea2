package wake

import (
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/cold"
	"github.com/wakeproto/wake/internal/fsrecord"
	"github.com/wakeproto/wake/internal/startcache"
	"github.com/wakeproto/wake/tiers"
)

// The start cache and the cold tier's settled documents.
//
// A start recorded for the start cache stamps the directories of cold/
// (see fsrecord.FS.Stamped): each is keyed by its inode and times, which
// change when a document is added, removed or renamed over (and by its
// names while those times are racy). Its cold scan takes each settled
// document as the cold index knows it, as every trusting scan does (see
// cold.OpenIndexSettled, Index.TrustBefore), and lstats the rotation's
// few through the directory's descriptor, unrecorded: none is in the key,
// which holds the cold tier's directories and its recent, new and changed
// documents, not one entry a document, so that a start served from the
// cache costs what changed since, not the history. What the stamps cannot
// show is a settled document rewritten in place, its inode kept: as the
// scans do, each start served from the cache lstats the next few of the
// documents the key leaves out, in turn, and one that is not as the
// recorded start knew it (see start_names.go) is a miss, so that such an
// edit is seen within as many starts as it takes the rotation to come
// round.

// coldStamped reports the directories of the cold tier, which a recorded
// start stamps.
func (m *Memory) coldStamped(name string) bool {
	dir := filepath.Join(m.root, tiers.ColdDir)
	return name == dir || strings.HasPrefix(name, dir+string(filepath.Separator))
}

// trustedColdUnchanged lstats the next documents in the rotation among
// those of the stamped directories of e's key that the key leaves out,
// and reports whether each is as the recorded start knew it (the names
// kept with it, see start_names.go). A name the recording knew as no
// document counts as changed when it is a regular file modified or
// changed since the recording started: a change time within
// [fsrecord.RacyWindow] before it counts, for a file system's clock may
// lag the system's. Names that are not the ones e was recorded with make
// the start a miss. A document found changed is put first in the
// rotation, so that the build the miss leads to lstats it and reads it
// again; otherwise the rotation moves on.
func (m *Memory) trustedColdUnchanged(key []fsrecord.Entry, e *startcache.Entry) bool {
	dirs, _, tie := m.stampedDirs(key)
	if len(dirs) == 0 {
		return true
	}
	names, ok := readNames(m.o.FS, m.root, tie, e.Names)
	if !ok {
		return false
	}
	keyed := make(map[string]bool, len(key))
	for _, f := range key {
		if rel, err := filepath.Rel(m.root, f.Path); err == nil && m.coldStamped(f.Path) {
			keyed[filepath.ToSlash(rel)] = true
		}
	}
	picked := pickNames(names, cold.RotationAfter(m.o.FS, m.root), cold.VerifyPerScan(), keyed)
	if len(picked) == 0 {
		return true
	}
	cut := e.Trusted - int64(fsrecord.RacyWindow) // as trustBefore
	for _, k := range picked {
		if k.changed(m.o.FS, m.path(k.path), cut) {
			// The path just before it in the rotation's order: the
			// build's rotation starts with it.
			_ = cold.SaveRotation(m.o.FS, m.root, k.path[:len(k.path)-1])
			return false
		}
	}
	_ = cold.SaveRotation(m.o.FS, m.root, picked[len(picked)-1].path)
	return true
}

// changed reports whether the file at name is not as the recording knew
// it: gone or unreadable, or a document whose size or times differ; for
// a name the recording knew as no document, a regular file modified or
// changed at or after cut (Unix ns). A directory or anything else not a
// regular file is not a document, and not looked at further.
func (k keptName) changed(fsys afero.Fs, name string, cut int64) bool {
	id := fsrecord.Observe(fsys, name, false)
	switch {
	case !id.Exists:
		return true // gone, or unreadable
	case k.known:
		return !os.FileMode(id.Mode).IsRegular() || id.Size != k.size || id.MTime != k.mtime || id.CTime != k.ctime
	case !os.FileMode(id.Mode).IsRegular():
		return false
	}
	return id.MTime >= cut || id.CTime >= cut
}

// trustBefore is the moment a settled document the recording's cold scan
// vouches for was last changed before: the recording's start less a racy
// file's window, which [Memory.trustedColdUnchanged] counts as changed.
func (r *cachedRun) trustBefore() int64 { return r.started - int64(fsrecord.RacyWindow) }

// recordingStarted is the moment a recorded start began, by the system's
// clock, which the files' change times are stamped by (not the Memory's
// clock, which a test or a simulation may set).
func recordingStarted() int64 { return time.Now().UnixNano() }
