package wake

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/budget"
	"github.com/wakeproto/wake/checks"
	"github.com/wakeproto/wake/cold"
	"github.com/wakeproto/wake/internal/fsrecord"
	"github.com/wakeproto/wake/internal/startcache"
	"github.com/wakeproto/wake/store"
	"github.com/wakeproto/wake/tiers"
)

// A View is what a front end makes of a session start: the text of
// `wake load`, a client's hook text. Its Render reads only through fsys
// and tells of anything through notify, so that the start cache knows
// every file the output depends on and gives its notices again.
type View struct {
	// Name tells the views of one root apart, with everything the
	// rendering depends on beyond the files (the client, the hook's
	// source, the directory it ran in).
	Name   string
	Render func(st *Start, fsys afero.Fs, notify func(Notice)) (string, error)
}

// StartView is a session start ([Memory.Start]) whose result is what v
// renders of it. A start that finds nothing changed since one that
// rendered v (the files that start read, the configuration, the
// environment that shapes the output, and the clock short of the moment
// the context reads differently: see [boot.Context.ValidUntil]) gives
// that output again, byte for byte, with the same notices, instead of
// building the context: what it still does every time is the edit scan
// of the tier files and the session's cold accounting. The boot files
// need no writing then: the start that filled the cache read them as
// they would be written, and they are part of its key.
func (m *Memory) StartView(ctx context.Context, w BootFiles, v View) (string, error) {
	_, out, err := m.start(ctx, w, &v)
	return out, err
}

// PrimeStart runs the start of the view v as the next session's start of
// it will run, and keeps its output in the start cache, so that the next
// start of v is served from it: a hand-off calls it for the views the
// cache holds ([Memory.StartViews]), since what it wrote makes the next
// start a miss otherwise. It runs with the boot files the view's last
// start wrote, and only while that start's environment (program, home,
// configuration) still holds. The priming start opens no cold session
// (the session that primes may go on pulling) and tells no notice (the
// entry keeps them for the next start to tell); it records edits made
// outside wake, as any start does; where it would say a thing wake says
// once, it keeps nothing, so that a built start says it. It returns
// whether v's output is kept: false also when the start wrote a file it
// read (a boot file), which a second call then finds as written. An
// error, or nothing kept, leaves the next start to build, as it would
// have.
func (m *Memory) PrimeStart(ctx context.Context, v View) (bool, error) {
	// The view's last start says how the next one will run (the boot
	// files its flags asked for); one whose environment has changed
	// since (program, home, configuration) could serve no start.
	e, ok := m.startEntry(v.Name)
	w := bootFlags(e.Boot).files()
	if !ok || e.Env != m.startEnv(w, &v) {
		return false, nil
	}
	// A priming waits for the root's lock briefly: it is an optimisation,
	// and the hand-off it follows is done.
	ctx, cancel := context.WithTimeout(ctx, primeLockWait)
	defer cancel()
	pm := *m
	pm.prime = &priming{}
	pm.o.Notify = nil
	if _, _, err := pm.start(ctx, w, &v); err != nil {
		return false, err
	}
	return pm.prime.kept, nil
}

// primeLockWait bounds a priming's wait for the root's lock.
const primeLockWait = 2 * time.Second

// startEntry is the start cache's entry for the view named name.
func (m *Memory) startEntry(name string) (startcache.Entry, bool) {
	c, _ := startcache.Read(m.o.FS, m.root)
	if e := c.Lookup(name); e != nil {
		return *e, true
	}
	return startcache.Entry{}, false
}

// StartViews names the views the start cache holds an output of, the
// most recent last: the ways this root's sessions have started.
func (m *Memory) StartViews() []string {
	c, ok := startcache.Read(m.o.FS, m.root)
	if !ok {
		return nil
	}
	return c.Names()
}

// bootFlags are [BootFiles] as a start cache entry keeps them.
type bootFlags uint8

const (
	bootNoSkill bootFlags = 1 << iota
	bootForceSkill
	bootAlways
	bootKeep
)

func flagsOf(w BootFiles) bootFlags {
	var f bootFlags
	if w.NoSkill {
		f |= bootNoSkill
	}
	if w.ForceSkill {
		f |= bootForceSkill
	}
	if w.BootAlways {
		f |= bootAlways
	}
	if w.KeepBootMD {
		f |= bootKeep
	}
	return f
}

func (f bootFlags) files() BootFiles {
	return BootFiles{NoSkill: f&bootNoSkill != 0, ForceSkill: f&bootForceSkill != 0, BootAlways: f&bootAlways != 0, KeepBootMD: f&bootKeep != 0}
}

// cachedRun is a start being recorded for the cache: it runs on a copy
// of the Memory whose file system records what it reads and whose
// notices are kept.
type cachedRun struct {
	m       *Memory
	rec     *fsrecord.FS
	now     time.Time
	started int64 // by the system's clock (see recordingStarted)
	// searched: git searched the project's files for the review of
	// decisions, whose answers no key holds (see projectSearchHolds).
	searched atomic.Bool
	notices  []Notice
	pre      int
	spoiled  bool
	// index is the cold index the start's build went through, which
	// knows the documents as its scan took them.
	index *cold.Index
}

// projectSearchHolds is how long a start whose review of decisions asked
// git about the project's files (whether they still mention an option,
// which dependencies their manifests list) is served from the start
// cache: git's answers are no file the key holds, and running git at
// every start would cost more than the start. A project file changed
// since shows in the review within this time, or at the first start
// something the key holds changed.
const projectSearchHolds = 10 * time.Minute

func (r *cachedRun) projectSearched() { r.searched.Store(true) }

func (r *cachedRun) spoil() {
	if r != nil {
		r.spoiled = true
	}
}

func (r *cachedRun) split() {
	if r != nil {
		r.pre = len(r.notices)
	}
}

func (m *Memory) recordRun() *cachedRun {
	r := &cachedRun{now: m.o.Now(), started: recordingStarted()}
	r.rec = fsrecord.New(m.o.FS, m.notKeyed)
	r.rec.Stamped = m.coldStamped
	mm := *m
	mm.o.FS, mm.run = r.rec, r
	notify := m.o.Notify
	mm.o.Notify = func(n Notice) {
		r.notices = append(r.notices, n)
		if notify != nil {
			notify(n)
		}
	}
	r.m = &mm
	return r
}

// notKeyed are the state files whose content never changes a start's
// output: the caches of counts, of the contradiction check's findings
// (keyed by the log's bytes, which are keyed here) and of the cold tier
// with where its rotation stands (see [cold.OpenIndexSettled]), the cold accounting
// (written by every start), the lock, this cache, and the edit scan's
// record (the scan runs at every start, before the cache is consulted).
func (m *Memory) notKeyed(name string) bool {
	rel, err := filepath.Rel(m.root, name)
	if err != nil {
		return false
	}
	rel = filepath.ToSlash(rel)
	state, ok := strings.CutPrefix(rel, tiers.StateDir+"/")
	if !ok {
		return false
	}
	switch state {
	case budget.CacheFile, checks.ContradictionCacheFile, cold.IndexFile, cold.VerifiedFile, store.ColdSessionFile, store.LockFile, startcache.File, store.SeenFile, namesFile:
		return true
	}
	return strings.HasPrefix(state, store.SeenDir+"/")
}

// startEnv is everything besides the files and the clock a view's output
// depends on: the program, the root, the user's directories, the
// configuration in force with the trust that settled it, the encoding,
// the boot files asked for and the view.
func (m *Memory) startEnv(w BootFiles, v *View) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00%s\x00%s\x00%#v\x00%#v\x00%s\x00%#v\x00%s",
		programIdentity(), m.root, m.o.Env["HOME"], m.o.Env["XDG_CONFIG_HOME"], m.cfg, m.trust, m.enc.Name(), w, v.Name)
	return hex.EncodeToString(h.Sum(nil))
}

// programIdentity tells builds of wake apart: a new wake may render the
// same files differently.
var programIdentity = sync.OnceValue(func() string {
	var b strings.Builder
	if bi, ok := debug.ReadBuildInfo(); ok {
		b.WriteString(bi.GoVersion + " " + bi.Main.Version)
		for _, s := range bi.Settings {
			if strings.HasPrefix(s.Key, "vcs.") {
				b.WriteString(" " + s.Key + "=" + s.Value)
			}
		}
	}
	if p, err := os.Executable(); err == nil {
		if fi, err := os.Stat(p); err == nil {
			fmt.Fprintf(&b, " %s %d %d", p, fi.Size(), fi.ModTime().UnixNano())
		}
	}
	return b.String()
})

// startFromCache serves the start from the cache when v's entry there
// still holds: the notices it gave, the cold accounting, the edit scan
// settled. A missing, damaged or stale cache is a miss.
func (m *Memory) startFromCache(ctx context.Context, w BootFiles, v *View, edits *startEdits) (string, bool) {
	c, ok := startcache.Read(m.o.FS, m.root)
	if !ok {
		return "", false
	}
	e := c.Lookup(v.Name)
	now := m.o.Now().UnixNano()
	switch {
	case e == nil, now < e.Built, e.Until != 0 && now >= e.Until, e.Env != m.startEnv(w, v):
		return "", false
	}
	files, err := fsrecord.ParseKey(e.Key())
	checked := time.Now()
	if err != nil || !fsrecord.Unchanged(m.o.FS, files) || !e.Intact() || !m.trustedColdUnchanged(files, e) {
		return "", false
	}
	out := e.Output()
	if settled, ok := fsrecord.Settle(files, checked); ok {
		// Files this entry keeps by content (written just before the
		// start that kept it) were past their racy window when they
		// matched: keep the entry without reading them at every start.
		// Should the write fail, the next start reads them again.
		e.Set(fsrecord.AppendKey(nil, settled), out)
		_ = startcache.Write(m.o.FS, m.root, c)
	}
	if m.prime != nil {
		m.prime.kept = true
		edits.none(ctx)
		return "", true // primed already
	}
	m.replay(e.Pre)
	if err := m.Store().StartColdSession(e.Tokens); err != nil {
		m.warn(fmt.Sprintf("starting the cold session: %v", err))
	}
	m.replay(e.Post)
	edits.none(ctx)
	// The cache's bytes are this call's own and nothing writes to them:
	// the output is given as a string without a copy of its hundred
	// kilobytes or so (pages a warm start would fault in for nothing).
	return unsafe.String(unsafe.SliceData(out), len(out)), true
}

func (m *Memory) replay(ns []startcache.Notice) {
	for _, n := range ns {
		m.notify(Notice{Kind: n.Kind, Msg: n.Msg, Hint: n.Hint})
	}
}

// keepStart keeps a recorded start's output for v, unless the start
// changed a file it read (it wrote boot.md, say: the next start, reading
// it as written, keeps its own output) or something else spoiled it.
func (m *Memory) keepStart(w BootFiles, v *View, st *Start, out string, r *cachedRun) {
	if r.spoiled || st.Context == nil || m.prime != nil && m.prime.spoiled {
		return
	}
	now := time.Now()
	files, ok := r.rec.Key(now)
	if !ok {
		return
	}
	// The cold documents' edits are settled against this record; a start
	// served from the cache does not look at them again.
	for _, name := range []string{store.SeenColdFile, store.SeenColdChangesFile} {
		seen, err := fsrecord.Take(m.o.FS, m.path(tiers.StateDir+"/"+name), false, now)
		if err != nil {
			return
		}
		files = append(files, seen)
	}
	until := st.Context.ValidUntil(m.cfg, r.now)
	if r.searched.Load() {
		if held := r.now.Add(projectSearchHolds); until.IsZero() || held.Before(until) {
			until = held
		}
	}
	e := startcache.Entry{Name: v.Name, Env: m.startEnv(w, v), Boot: uint8(flagsOf(w)), Built: r.now.UnixNano(), Trusted: r.started, Tokens: st.Context.Totals.Output}
	if !until.IsZero() {
		e.Until = until.UnixNano()
	}
	for _, n := range r.notices {
		e.Post = append(e.Post, startcache.Notice{Kind: n.Kind, Msg: n.Msg, Hint: n.Hint})
	}
	e.Pre, e.Post = e.Post[:r.pre:r.pre], e.Post[r.pre:]
	e.Set(fsrecord.AppendKey(nil, files), []byte(out))
	names, tie, named := m.namesBody(files, r.index)
	if named {
		e.Names = bodySum(names)
	}
	// Keep the other views whose output is still at hand.
	old, _ := startcache.Read(m.o.FS, m.root)
	if err := startcache.Write(m.o.FS, m.root, old.With(e)); err != nil {
		m.warn(fmt.Sprintf("saving the start cache: %v", err))
		return
	}
	m.saveNames(names, tie, named)
	if m.prime != nil {
		m.prime.kept = true
	}
}
