package wake

import (
	"context"
	"fmt"

	"github.com/wakeproto/wake/cold"
	"github.com/wakeproto/wake/store"
)

// startEdits records the changes made outside wake to the memory files
// since it last saw them, as ledger entries (see [store.EditScan]), for
// an operation holding the root's lock: a session start, or the end of a
// hand-off. The tier files are looked at before the context is built, so
// that its digest lists their edits; the cold documents after, through
// the cold index the build went through, which knows them unchanged
// without opening them.
//
// Looking, and taking a first baseline, need only the shared lock: two
// starts at once write the same record. Appending entries needs the
// exclusive one, as every ledger line does, or two starts at once would
// record the same edit twice; so when there is something to record the
// shared lock is given up for the exclusive one, kept from then on, and
// the changed files are looked at again under it (another start may have
// recorded them in between).
type startEdits struct {
	m      *Memory
	sc     *store.EditScan
	unlock func() error // releases the lock held
	// exclusive: the lock held is the exclusive one; held: one is;
	// gaveUp: the exclusive one could not be had, so nothing is recorded.
	exclusive, held, gaveUp bool
	// warnings counts the warnings given: a start that gave any is not
	// kept in the start cache, whose hit would not give them again.
	warnings int
}

func (e *startEdits) warn(msg string) {
	e.warnings++
	e.m.warn(msg)
}

// startEdits begins for a caller holding the lock unlock releases.
//
// The records the looks set are written once, by the last look that
// records nothing or by [startEdits.done] (see [store.EditScan.SaveLater]).
func (m *Memory) startEdits(unlock func() error, exclusive bool) *startEdits {
	e := &startEdits{m: m, unlock: unlock, exclusive: exclusive, held: true}
	e.open()
	return e
}

// open opens the record afresh.
func (e *startEdits) open() {
	e.sc = store.OpenEditScan(e.m.o.FS, e.m.root, e.m.o.Now())
	e.sc.SaveLater()
}

// save writes the records the looks set, while the lock is held.
func (e *startEdits) save() {
	if !e.held {
		return
	}
	if err := e.sc.Save(); err != nil {
		e.warn(fmt.Sprintf("recording edits made outside wake: %v", err))
	}
}

// done writes the records the looks set, when no last look did (a start
// whose build failed), and releases the lock.
func (e *startEdits) done() {
	e.save()
	e.unlock()
}

// tiers looks at the tier files and records their edits.
func (e *startEdits) tiers(ctx context.Context) {
	if err := e.sc.LookAtTiers(); err != nil {
		e.warn(fmt.Sprintf("looking for edits made outside wake: %v", err))
	}
	e.record(ctx)
}

// cold looks at the cold documents as the build's scan of cold/ found them
// and records their edits; it reports whether it recorded any, which the
// context built before does not list.
func (e *startEdits) cold(ctx context.Context, idx *cold.Index) bool {
	defer e.save()
	if !idx.HasScan() {
		return e.record(ctx)
	}
	look := store.ColdLook{Index: idx.Sum(), Unchanged: idx.Unchanged(), Found: idx.Found, Read: idx.Version,
		Loaded: idx.LoadedSum(), Learnt: idx.Learnt, Has: idx.Has}
	if err := e.sc.LookAtCold(look); err != nil {
		e.warn(fmt.Sprintf("looking for edits made outside wake: %v", err))
	}
	return e.record(ctx)
}

// record settles what was looked at and reports whether entries were
// recorded.
func (e *startEdits) record(ctx context.Context) bool {
	entries, err := e.sc.Settle()
	if err != nil {
		e.warn(fmt.Sprintf("edits made outside wake were not recorded: %v", err))
		return false
	}
	switch {
	case !e.held || len(entries) > 0 && e.gaveUp:
		return false
	case len(entries) > 0 && !e.exclusive:
		changed := e.sc.Changed()
		// What earlier looks set, before the record is opened afresh.
		e.save()
		if !e.lockExclusive(ctx) {
			return false
		}
		for _, p := range changed {
			if o, err := store.ObservePath(e.m.o.FS, e.m.root, p); err == nil {
				e.sc.Look(o)
			}
		}
	}
	n, err := e.sc.Commit()
	if err != nil {
		e.warn(fmt.Sprintf("recording edits made outside wake: %v", err))
	}
	return n > 0
}

// lockExclusive gives up the shared lock for the exclusive one and opens
// the record afresh under it. Failing that, it takes the shared lock
// again, if it can, and leaves the edits to the next start.
func (e *startEdits) lockExclusive(ctx context.Context) bool {
	m := e.m
	e.unlock()
	ex, err := m.o.Locker.Lock(ctx, m.root)
	if err == nil {
		e.unlock, e.exclusive = ex, true
		e.open()
		return true
	}
	e.warn(fmt.Sprintf("edits made outside wake were not recorded (%v); the next session start records them", err))
	e.unlock, e.held, e.gaveUp = func() error { return nil }, false, true
	if shared, err := m.o.Locker.RLock(ctx, m.root); err == nil {
		e.unlock, e.held = shared, true
	}
	e.open()
	return false
}

// none settles a start that looked at no cold document: one served from
// the start cache, whose key holds every cold document as the start that
// filled it looked at them. A root never baselined gets its first record.
func (e *startEdits) none(ctx context.Context) {
	e.record(ctx)
	e.save()
}
