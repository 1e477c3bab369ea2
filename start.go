package wake

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/boot"
	"github.com/wakeproto/wake/cold"
	"github.com/wakeproto/wake/skill"
	"github.com/wakeproto/wake/store"
	"github.com/wakeproto/wake/tiers"
)

// BootFrontMatter opens boot.md: the files wake writes always carry a summary.
const BootFrontMatter = "---\nsummary: The boot context wake regenerates at every session start; edits here are overwritten\n---\n"

// BootFiles says which boot files an operation writes.
type BootFiles struct {
	NoSkill bool // do not write skill.md
	// ForceSkill replaces the file at skill.path when wake did not write
	// it, or wrote it for another memory root.
	ForceSkill bool
	// BootAlways writes boot.md in full mode even when it does not exist
	// yet (the Claude Code hook, install); otherwise an existing boot.md is
	// refreshed.
	BootAlways bool
	// KeepBootMD leaves an existing boot.md as it is: it is the copy a
	// client's import read for this start (Claude Code's, at a start or
	// resume), and the hook's text then says what changed since that
	// copy, whichever of the import and the hook ran first. A hand-off,
	// or `wake load`, writes it again.
	KeepBootMD bool
}

// A Start is a session start: the boot context, its Markdown text, and
// what became of the boot files.
type Start struct {
	Context *boot.Context
	Text    string
	Target  boot.HookTarget
}

// Start is a session start, shared by `wake load`, its Claude Code hook
// and any other front end: the boot context, the session's cold
// accounting opened with the context's size, and the boot files.
//
// It holds the root's shared lock throughout, so that it reads the root as
// it was before a hand-off or after it, never between its renames, and
// writes the boot files from the state it read while no mutation can have
// changed it. Where the lock cannot be had at all (a read-only root, a
// .state/ that is a symlink) the context is still built, but nothing is
// written: boot files from a state that may be moving are worse than none.
//
// It first records the edits made outside wake since it last looked, as
// ledger entries the context's digest lists (see [store.EditScan]);
// when there are any it trades the shared lock for the exclusive one,
// which every ledger line is written under.
func (m *Memory) Start(ctx context.Context, w BootFiles) (*Start, error) {
	st, _, err := m.start(ctx, w, nil)
	return st, err
}

// start is [Memory.Start], and with a view, [Memory.StartView]: the
// view's output is then kept in the start cache, and taken from it while
// nothing the start read has changed (see startcache.go). A start served
// from the cache returns no *Start.
func (m *Memory) start(ctx context.Context, w BootFiles, v *View) (*Start, string, error) {
	unlock, err := m.o.Locker.RLock(ctx, m.root)
	if errors.Is(err, store.ErrLockTimeout) {
		return nil, "", err
	}
	locked := err == nil
	var edits *startEdits
	if locked {
		edits = m.startEdits(unlock, false)
		defer func() { edits.done() }()
		edits.tiers(ctx)
		locked = edits.held
	} else {
		m.warn(fmt.Sprintf("the memory root's lock could not be taken (%v); the boot files and caches are left as they are", err))
	}
	var run *cachedRun
	if v != nil && locked && edits.warnings == 0 {
		if out, ok := m.startFromCache(ctx, w, v, edits); ok {
			return nil, out, nil
		}
		run = m.recordRun()
	}
	mm := m
	if run != nil {
		mm = run.m
	}
	st, err := mm.startBuild(ctx, locked, edits, w, run)
	if err != nil {
		return nil, "", err
	}
	if v == nil {
		return st, "", nil
	}
	out, err := v.Render(st, mm.o.FS, mm.notify)
	if err != nil {
		return nil, "", err
	}
	if run != nil && edits.warnings == 0 && edits.held {
		m.keepStart(w, v, st, out, run)
	}
	return st, out, nil
}

// startBuild is the rest of a session start once the tier files' edits
// are recorded: the context, the cold documents' edits, the cold
// accounting and the boot files. run, when the start is recorded for the
// cache, is told which notices come before the cold accounting.
func (m *Memory) startBuild(ctx context.Context, locked bool, edits *startEdits, w BootFiles, run *cachedRun) (*Start, error) {
	c, text, idx, err := m.bootContext(locked)
	if err != nil {
		return nil, err
	}
	if locked && edits.cold(ctx, idx) {
		// The digest lists the edits just recorded.
		if c, text, idx, err = m.bootContext(edits.held); err != nil {
			return nil, err
		}
	}
	if run != nil {
		run.index = idx
	}
	locked = locked && edits.held
	m.warnAll(c.Warnings)
	st := &Start{Context: c, Text: text}
	if !locked {
		st.Target.Problems = []string{"the boot files were not written: the memory root's lock could not be taken"}
		return st, nil
	}
	if m.prime != nil {
		// The session that primes is not over yet: its cold accounting
		// stays; the next start opens its own.
	} else if err := m.Store().StartColdSession(c.Totals.Output); err != nil {
		m.warn(fmt.Sprintf("starting the cold session: %v", err))
		run.spoil()
	}
	run.split()
	st.Target = m.writeBootFiles(c, text, w)
	return st, nil
}

// BootContext builds and measures the boot context, and keeps what the
// build learned (the counts, the cold index) when save is set, which the
// caller may do only holding the root's lock.
func (m *Memory) BootContext(save bool) (*boot.Context, string, error) {
	c, text, _, err := m.bootContext(save)
	if err == nil && save {
		m.SaveCache()
	}
	return c, text, err
}

// bootContext is [Memory.BootContext] with the cold index the build went
// through, which knows every cold document as it is now. It keeps the
// cold index when save is set, but not the counts: its callers build more
// (skill.md, a second context) and save them once, with
// [Memory.writeBootFiles].
//
// Its scan of cold/ trusts the index for the documents that settled (see
// [cold.OpenIndexSettled]): a start or a hand-off lstats the documents
// that changed their directory's listing and a bounded rotation of the
// rest, not every one of the history's. The index file is parsed once
// for the builds of one command that find it unchanged (a hand-off's
// three or four: see [cold.ParsedIndex]).
func (m *Memory) bootContext(save bool) (*boot.Context, string, *cold.Index, error) {
	idx := m.caches.index.OpenSettled(m.o.FS, m.root, m.cfg.Encoding)
	if m.run != nil {
		idx.TrustBefore = m.run.trustBefore()
	}
	if save {
		// For the look at edits made outside wake that may follow.
		idx.KeepVersions()
	}
	o := m.bootOptions()
	// The checks run only in a build: only it reads the drift record and
	// the contradiction check's findings.
	o.ColdIndex, o.Drift, o.Contradictions = idx, m.driftOptions(), m.contradictions()
	c, err := boot.Build(o)
	if err != nil {
		return nil, "", nil, err
	}
	text := c.Text()
	if save {
		m.saveIndex(idx)
	}
	return c, text, idx, nil
}

// precount builds the boot context once without the lock, for its token
// counts only: an operation that must build it under the exclusive lock
// then finds every count in the cache, and holds no other wake process up
// while a long text is counted. Whatever fails here fails again under the
// lock, where it is reported.
func (m *Memory) precount() { m.BootContext(false) }

// saveIndex keeps what the cold index learned; failing to is only worth a
// warning.
func (m *Memory) saveIndex(idx *cold.Index) {
	if err := cold.SaveIndex(m.o.FS, m.root, idx); err != nil {
		m.writeFailed(fmt.Sprintf("saving the cold index: %v", err))
	}
}

// writeBootFiles writes the boot files a client imports from a built
// context: boot.md in full mode, and the skill.md files unless NoSkill
// (see [Memory.writeSkills]). Failing to write one is a warning and a line
// in the result, never an error: the context itself was produced. It then
// keeps the counts the context's build and skill.md's learned, once (the
// caller holds the root's lock).
func (m *Memory) writeBootFiles(c *boot.Context, text string, w BootFiles) boot.HookTarget {
	var t boot.HookTarget
	defer m.SaveCache()
	if m.cfg.Claude.Boot == tiers.BootFull {
		m.writeBootMD(&t, text, w.BootAlways, w.KeepBootMD)
	}
	if !w.NoSkill {
		m.writeSkills(&t, func() ([]byte, error) { return m.skillText(c) }, w.ForceSkill)
		t.SkillImported = t.SkillPath != "" && m.cfg.Claude.Boot == tiers.BootSkill
	}
	return t
}

// writeBootMD refreshes boot.md, or creates it with always; with keep,
// an existing one stays as it is.
func (m *Memory) writeBootMD(t *boot.HookTarget, text string, always, keep bool) {
	name := m.path(tiers.BootPath)
	if err := store.CheckWritable(m.o.FS, m.root, tiers.BootPath); err != nil {
		t.Problems = append(t.Problems, fmt.Sprintf("boot.md was not written (%v); run `wake load` for the whole context", err))
		m.writeFailed(err.Error())
		return
	}
	old, err := tiers.ReadOwn(m.o.FS, m.root, tiers.BootPath)
	exists := err == nil
	if exists {
		t.Before, t.BeforeRead = boot.Local(strings.TrimPrefix(string(old), BootFrontMatter), m.root), true
	}
	// boot.md is committed with the project: it names the root by its
	// own directory, not by this machine's absolute path.
	data := []byte(BootFrontMatter + boot.Portable(text, m.root))
	switch {
	case !exists && !always:
	case exists && (keep || bytes.Equal(old, data)):
		t.BootPath, t.Kept = name, keep
	default:
		if err := store.WriteFileIn(m.o.FS, m.root, tiers.BootPath, data, 0o644); err != nil {
			t.Problems = append(t.Problems, fmt.Sprintf("boot.md could not be written (%v); run `wake load` for the whole context", err))
			m.writeFailed(err.Error())
			return
		}
		t.BootPath, t.BootChanged = name, true
	}
}

// SkillPath is where skill.md is written: "" when writing it is disabled.
func (m *Memory) SkillPath() (string, error) {
	return m.cfg.Skill.SkillPath(m.home(), m.root)
}

// skillText builds and renders skill.md from a built context, warning of
// what the builder reports; [Memory.writeBootFiles] keeps the counts it
// learned.
func (m *Memory) skillText(c *boot.Context) ([]byte, error) {
	o := m.bootOptions()
	o.Branches = m.branches()
	sk, err := skill.Build(o, c)
	if err != nil {
		return nil, err
	}
	m.warnAll(sk.Warnings)
	return []byte(skill.Render(sk)), nil
}

// Skill builds skill.md from what it needs alone: the tier files, and the
// cold index for History; not the boot context's table of contents, digest
// or fitting. Nothing is written but wake's caches.
func (m *Memory) Skill() ([]byte, error) {
	idx := cold.OpenIndex(m.o.FS, m.root, m.cfg.Encoding)
	o := m.bootOptions()
	o.ColdIndex = idx
	o.Branches = m.branches()
	c, err := boot.Read(o)
	if err != nil {
		return nil, err
	}
	m.warnAll(c.Warnings)
	sk, err := skill.Build(o, c)
	if err != nil {
		return nil, err
	}
	m.SaveCache()
	m.saveIndex(idx)
	m.warnAll(sk.Warnings)
	return []byte(skill.Render(sk)), nil
}

// ErrNotWakeFile is a file wake was asked to replace but did not write: it
// has no wake marker, and wake leaves it as it is.
var ErrNotWakeFile = errors.New("the file was not written by wake (it has no wake marker); left as it is")

// ErrOtherRoot is a skill.md wake was asked to replace that holds the
// memory of another root, which still exists: wake leaves it as it is.
var ErrOtherRoot = errors.New("the file holds the memory of another memory root; left as it is")

// WriteSkillTo builds skill.md as [Memory.Skill] does and writes it to
// path, atomically, mode 0600. A file at path that wake did not write, or
// that another memory root still there wrote (the shared skill.path of
// another project), is replaced only with force; else the error is
// [ErrNotWakeFile] or [ErrOtherRoot].
func (m *Memory) WriteSkillTo(path string, force bool) error {
	data, err := m.Skill()
	if err != nil {
		return err
	}
	old, err := afero.ReadFile(m.o.FS, path)
	switch {
	case err == nil && !skill.HasMarker(old) && !force:
		return ErrNotWakeFile
	case err == nil && !force:
		if whose, owner := m.whose(old); whose == boot.WhoseOther {
			return fmt.Errorf("%w (%s)", ErrOtherRoot, owner)
		}
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return err
	}
	return store.WriteFileMode(m.o.FS, path, data, 0o600)
}

// Status reads the root for `wake status`: every tier file counted whole,
// nothing fitted or written but the count cache.
func (m *Memory) Status() (*boot.Context, error) {
	o := m.bootOptions()
	o.Now = nil
	c, err := boot.Read(o)
	if err != nil {
		return nil, err
	}
	m.SaveCache()
	m.warnAll(c.Warnings)
	return c, nil
}

// Precount builds the boot context once without the lock, for its token
// counts only: an operation that must build it under the exclusive lock
// then finds every count in the cache, and holds no other wake process up
// while a long text is counted.
func (m *Memory) Precount() { m.precount() }

// WriteBootFilesLocked builds the boot context and writes the boot files;
// the caller holds the root's exclusive lock (install, which changes what
// they show, must not race a session start) and should have called
// [Memory.Precount] before taking it.
func (m *Memory) WriteBootFilesLocked(w BootFiles) (boot.HookTarget, error) {
	c, text, _, err := m.bootContext(true)
	if err != nil {
		return boot.HookTarget{}, err
	}
	return m.writeBootFiles(c, text, w), nil
}
