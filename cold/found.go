package cold

import (
	"time"

	"github.com/wakeproto/wake/handoff"
)

// What the index learnt of the cold documents in this run, for
// [handoff.EditScan], which records the changes made to them outside wake.

// HasScan reports whether a scan of cold/ went through the index in this
// run: without one, nothing can be taken as gone.
func (x *Index) HasScan() bool { return x != nil && x.scanned }

// Unchanged reports whether the scan of cold/ this run learnt nothing the
// index did not know when it was loaded: no document was read (none new,
// none changed) and none it knew is gone.
func (x *Index) Unchanged() bool {
	return x.HasScan() && !x.learnt && !x.Dirty()
}

// Found returns the documents the scan of cold/ found, by path, as they
// are now (size and modification time); those the index knew unchanged
// were not opened. A document the scan found but could not read is left
// out.
func (x *Index) Found() map[string]handoff.Observed {
	found := map[string]handoff.Observed{}
	if !x.HasScan() {
		return found
	}
	for p, e := range x.entries {
		if e.seen && e.fresh {
			found[p] = handoff.Observed{Path: p, Exists: true, Size: e.Size, ModTime: time.Unix(0, e.MTime)}
		}
	}
	return found
}
