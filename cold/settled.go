package cold

import (
	"iter"
	"slices"
	"strings"
	"time"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/internal/fsrecord"
	"github.com/wakeproto/wake/store"
	"github.com/wakeproto/wake/tiers"
)

// VerifiedFile is where a trusting scan (see [OpenIndexSettled]) keeps the
// path of the last document it lstat'ed in its rotation, inside the state
// directory. It is a cache: missing or corrupt, the rotation starts again
// from the first document.
const VerifiedFile = "cold-verified"

const verifiedHeader = "wake cold verified v1\n"

// settledAge: a document modified this recently is lstat'ed at every scan,
// trusted or not. An edit in place, the one a trusting scan can miss, is
// most likely on a document just written; and a modification time within
// a file system's clock granularity of the index's is always inside it.
const settledAge = 24 * time.Hour

// verifyPerScan is how many of the settled documents a trusting scan
// lstat'ed nonetheless, in path order from where the last one stopped: a
// document edited in place, its inode kept, is seen within
// ceil(documents / verifyPerScan) scans (16 at 1,000 cold documents).
var verifyPerScan = 64

// settled is what a trusting scan needs beyond the index: where its
// rotation stands.
type settled struct {
	after string // the last path the previous rotation lstat'ed
	next  string // the last path this run's rotation lstat'ed
}

// OpenIndexSettled is [OpenIndex] for the builds that run at every session
// start and hand-off: its scans of cold/ take a document the index knows
// as unchanged without an lstat when its directory still lists it, as a
// regular file, with the inode number the index recorded, and it was last
// modified (by what the index recorded) more than a day before now. A
// document added, removed, or replaced under its name (wake and most
// editors write a temporary file and rename it over) changes its
// directory's listing and is seen at once; one rewritten in place, its
// inode kept, changes nothing the listing shows, so every scan lstats
// [verifyPerScan] of the settled documents in turn, and such an edit is
// seen within a bounded number of starts. `wake cold` and the wake-up
// packet lstat every document (see [OpenIndex]).
func OpenIndexSettled(fsys afero.Fs, root, encoding string) *Index {
	return (*ParsedIndex)(nil).OpenSettled(fsys, root, encoding)
}

// RotationAfter is where the rotation of settled documents stands: the
// last path the previous one lstat'ed, "" to start from the first.
func RotationAfter(fsys afero.Fs, root string) string {
	data, err := tiers.ReadOwn(fsys, root, tiers.StateDir+"/"+VerifiedFile)
	if err != nil {
		return ""
	}
	if rest, ok := strings.CutPrefix(string(data), verifiedHeader); ok && strings.HasSuffix(rest, "\n") && strings.Count(rest, "\n") == 1 {
		return strings.TrimSuffix(rest, "\n")
	}
	return ""
}

// SaveRotation keeps last as where the rotation stands, past a recording
// file system: the record changes at every start and never what a start
// shows, and a write the recording saw would keep the start out of the
// start cache. It is a cache, written without a sync.
func SaveRotation(fsys afero.Fs, root, last string) error {
	if strings.Contains(last, "\n") {
		return nil
	}
	if r, ok := fsys.(*fsrecord.FS); ok {
		fsys = r.Fs
	}
	return store.WriteStateUnsynced(fsys, root, VerifiedFile, []byte(verifiedHeader+last+"\n"))
}

// Rotation picks the k paths that come next after after, in path order,
// going round to the first after the last: the documents a trusting scan
// lstats whatever it trusts, in turn. They come in the order the
// rotation takes them, picked in one pass without sorting the whole.
func Rotation(paths iter.Seq[string], after string, k int) []string {
	var next, first smallest
	for p := range paths {
		if p > after {
			next.add(p, k)
		} else {
			first.add(p, k)
		}
	}
	return append(next, first[:min(len(first), k-len(next))]...)
}

// known is what a scan through x gives [tiers.ScanColdKnown]: nil, for
// every document lstat'ed, unless x trusts itself (see
// [OpenIndexSettled]) and loaded entries to trust.
func (x *Index) known(now time.Time) tiers.Known {
	if x.settled == nil || x.loaded == 0 {
		return nil
	}
	verify := x.rotation()
	cut := now.Add(-settledAge).UnixNano()
	if x.TrustBefore != 0 && x.TrustBefore < cut {
		cut = x.TrustBefore
	}
	return func(rel string, ino uint64) (tiers.ColdFile, tiers.Vouch) {
		e := x.entries[rel]
		switch {
		case e == nil || !e.loaded || e.Ino == 0 || e.Ino != ino || e.CTime == 0,
			e.MTime >= cut || e.CTime >= cut:
			return tiers.ColdFile{}, tiers.Unknown
		}
		if _, ok := verify[rel]; ok {
			return tiers.ColdFile{}, tiers.Looked
		}
		return tiers.ColdFile{Path: rel, Size: e.Size, ModTime: time.Unix(0, e.MTime), CTime: e.CTime, Ino: e.Ino}, tiers.Vouched
	}
}

// rotation picks the documents this scan lstats whatever the index says:
// the verifyPerScan first in path order after the last the previous
// rotation took, going round to the first after the last. They are
// picked in one pass over the index, without sorting it.
func (x *Index) rotation() map[string]struct{} {
	loaded := func(yield func(string) bool) {
		for p, e := range x.entries {
			if e.loaded && !yield(p) {
				return
			}
		}
	}
	picked := Rotation(loaded, x.settled.after, verifyPerScan)
	verify := make(map[string]struct{}, len(picked))
	for _, p := range picked {
		verify[p] = struct{}{}
		x.settled.next = p
	}
	return verify
}

// VerifyPerScan is how many settled documents each scan, or each start
// served from the start cache, lstats in turn (see [OpenIndexSettled]).
func VerifyPerScan() int { return verifyPerScan }

// smallest keeps the few smallest strings added to it, in order.
type smallest []string

// add keeps p when it is among the k smallest added so far.
func (s *smallest) add(p string, k int) {
	if k <= 0 || len(*s) == k && p >= (*s)[k-1] {
		return
	}
	i, _ := slices.BinarySearch(*s, p)
	if len(*s) < k {
		*s = append(*s, "")
	}
	copy((*s)[i+1:], (*s)[i:len(*s)-1])
	(*s)[i] = p
}

// saveVerified keeps where the rotation stopped, when it moved. It writes
// past a recording file system (a start recorded for the start cache): the
// record changes at every start and never what a start shows, and a write
// the recording saw would keep the start out of the cache.
func saveVerified(fsys afero.Fs, root string, x *Index) error {
	if x.settled == nil || x.settled.next == x.settled.after || strings.Contains(x.settled.next, "\n") {
		return nil
	}
	if err := SaveRotation(fsys, root, x.settled.next); err != nil {
		return err
	}
	x.settled.after = x.settled.next
	return nil
}
