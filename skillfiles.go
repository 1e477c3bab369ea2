package wake

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/boot"
	"github.com/wakeproto/wake/skill"
	"github.com/wakeproto/wake/store"
	"github.com/wakeproto/wake/tiers"
)

// A memory root has two skill.md files, so that no session ever reads
// another project's memory:
//
//   - its own copy, <root>/skill.md ([tiers.RootSkillPath]), written
//     whenever skill.md is; with [claude] boot = "skill" the project's
//     CLAUDE.md imports it, as it imports boot.md in full mode;
//   - the file at skill.path (by default ~/.claude/agentchat.skill.md,
//     where seed 001's tools read it), which every root configured alike
//     shares. It names its root in wake's marker, and wake writes it only
//     when it is absent, names this root, or names a root that is gone:
//     another root's is left as it is, which wake says once, until
//     --force-skill takes it over.

// sharedNoticeFile, in the state directory, records the other root whose
// shared skill.md wake last said it left alone, so that it says so once
// rather than at every session start.
const sharedNoticeFile = "shared-skill.json"

// sharedNotice is what sharedNoticeFile holds.
type sharedNotice struct {
	Path  string `json:"path"`
	Owner string `json:"owner"`
}

// wantsSkill reports whether skill.md is written at all: skill.path names
// a file, or the project imports the root's own copy (boot = "skill").
func (m *Memory) wantsSkill() bool {
	return m.cfg.Skill.Path != "" || m.cfg.Claude.Boot == tiers.BootSkill
}

// writeSkills writes the root's skill.md files, from text, into t: the
// root's own copy, then the shared file at skill.path as [Memory.whose]
// allows (force takes over another root's, or a file wake did not write).
// Failing to write one is a warning and a line of t.Problems, never an
// error.
func (m *Memory) writeSkills(t *boot.HookTarget, text func() ([]byte, error), force bool) {
	if !m.wantsSkill() {
		return
	}
	shared, err := m.SkillPath()
	if err != nil {
		m.warn(err.Error())
		t.Problems = append(t.Problems, "skill.md was not written to skill.path: "+err.Error())
	}
	data, err := text()
	if err != nil {
		m.warn(fmt.Sprintf("skill.md was not written: %v", err))
		t.Problems = append(t.Problems, "skill.md was not written: "+err.Error())
		return
	}
	own := m.path(tiers.RootSkillPath)
	// The root's own skill.md is committed with the project: its marker
	// names the root by its own directory. The shared one, outside the
	// root, names the root by its path, which says whose it is.
	ownData := bytes.Replace(data, []byte(skill.Marker(m.root)), []byte(skill.Marker(".")), 1)
	t.SkillPath, t.SkillChanged = m.writeOwnSkill(ownData, &t.Problems)
	if shared != "" && shared != own {
		t.Shared = m.writeSharedSkill(shared, data, force, &t.Problems)
	}
}

// writeOwnSkill writes the root's own skill.md; it returns its path (""
// when it could not be written) and whether its content changed.
func (m *Memory) writeOwnSkill(data []byte, problems *[]string) (string, bool) {
	fail := func(err error) (string, bool) {
		m.writeFailed(fmt.Sprintf("%s was not written: %v", m.path(tiers.RootSkillPath), err))
		*problems = append(*problems, "skill.md was not written: "+err.Error())
		return "", false
	}
	if err := store.CheckWritable(m.o.FS, m.root, tiers.RootSkillPath); err != nil {
		return fail(err)
	}
	old, err := tiers.ReadOwn(m.o.FS, m.root, tiers.RootSkillPath)
	if err == nil && bytes.Equal(old, data) {
		return m.path(tiers.RootSkillPath), false
	}
	if err := store.WriteFileIn(m.o.FS, m.root, tiers.RootSkillPath, data, 0o644); err != nil {
		return fail(err)
	}
	return m.path(tiers.RootSkillPath), true
}

// writeSharedSkill writes skill.md to path, the file at skill.path,
// atomically, mode 0600, unless another root's or a file wake did not
// write is there (and not force). It returns the file and whose it is
// now, and adds a line to problems for the agent when it could not write.
func (m *Memory) writeSharedSkill(path string, data []byte, force bool, problems *[]string) boot.SkillFile {
	f := boot.SkillFile{Path: path, Shared: true}
	fail := func(err error) boot.SkillFile {
		m.writeFailed(fmt.Sprintf("skill.md was not written: %v", err))
		*problems = append(*problems, "skill.md was not written: "+err.Error())
		return f
	}
	// A path inside the root is checked from the root, like every file
	// there; elsewhere the user's own directories are taken as they are.
	base, rel := filepath.Dir(path), filepath.Base(path)
	if r, err := filepath.Rel(m.root, path); err == nil && filepath.IsLocal(r) {
		base, rel = m.root, r
	} else if !m.trust.Trusted {
		// The user's own directories are read by the tools of every
		// project: only a root the user made or trusted writes there.
		m.notify(Notice{Kind: "warning", Msg: "skill.md was not written to " + path + ": this memory root is not trusted (it came with its repository, or its skill.path changed since it was trusted)",
			Hint: fmt.Sprintf("if you know this memory, run 'wake trust --root %s'", m.root)})
		*problems = append(*problems, "skill.md was not written to "+path+" (skill.path): this memory root is not trusted")
		return f
	}
	if err := store.CheckWritable(m.o.FS, base, rel); err != nil {
		return fail(err)
	}
	old, err := afero.ReadFile(m.o.FS, path)
	switch {
	case err == nil:
		f.Whose, f.Owner = m.whose(old)
	case errors.Is(err, fs.ErrNotExist):
		f.Whose = boot.WhoseNone
	default:
		return fail(err)
	}
	switch {
	case f.Whose == boot.WhoseThis && bytes.Equal(old, data):
		m.forgetSharedNotice()
		return f
	case f.Whose == boot.WhoseForeign && !force:
		m.notify(Notice{Kind: "warning", Msg: path + " was not written by wake (it has no wake marker); left as it is",
			Hint: "pass --force-skill once to replace it, or set [skill] path in wake.toml to another file (\"\" stops writing skill.md)"})
		*problems = append(*problems, "skill.md was not written: "+path+" holds a file wake did not write")
		return f
	case f.Whose == boot.WhoseOther && !force:
		m.sayShared(f)
		return f
	}
	if err := store.WriteFileMode(m.o.FS, path, data, 0o600); err != nil {
		return fail(err)
	}
	if base != m.root {
		m.recordOutside(context.Background(), path, "skill.md at skill.path, shared by the memory roots that write there")
	}
	m.forgetSharedNotice()
	return boot.SkillFile{Path: path, Shared: true, Whose: boot.WhoseThis, Owner: m.root, Changed: true}
}

// whose says whose skill.md data is, and the root it names: this root's
// (by its path, or the same directory reached another way), another
// root's that still exists, one naming a root that is gone (or none),
// or not wake's at all.
func (m *Memory) whose(data []byte) (boot.Whose, string) {
	if !skill.HasMarker(data) {
		return boot.WhoseForeign, ""
	}
	owner := skill.MarkerRoot(data)
	switch {
	case owner == "":
		return boot.WhoseGone, ""
	case owner == m.root:
		return boot.WhoseThis, owner
	}
	if real, err := tiers.RealRoot(m.o.FS, owner); err == nil && real == m.trust.Root {
		return boot.WhoseThis, owner
	}
	fi, err := m.o.FS.Stat(owner)
	if errors.Is(err, fs.ErrNotExist) || err == nil && !fi.IsDir() {
		return boot.WhoseGone, owner
	}
	return boot.WhoseOther, owner
}

// sayShared says, once for each root that holds it, that the shared
// skill.md is another root's and was left alone, and how to take it over.
func (m *Memory) sayShared(f boot.SkillFile) {
	rec := sharedNotice{Path: f.Path, Owner: f.Owner}
	if data, err := tiers.ReadOwn(m.o.FS, m.root, tiers.StateDir+"/"+sharedNoticeFile); err == nil {
		var said sharedNotice
		if json.Unmarshal(data, &said) == nil && said == rec {
			return
		}
	}
	if m.prime != nil {
		// A priming tells nothing, and a notice said once must reach
		// someone: the next start, built, says it.
		m.prime.spoiled = true
		return
	}
	m.notify(Notice{Kind: "warning",
		Msg: fmt.Sprintf("%s (skill.path, shared by every memory root that writes there) is the skill.md of another memory root, %s; left as it is. This root's own skill.md is %s (wake says this once)",
			f.Path, f.Owner, m.path(tiers.RootSkillPath)),
		Hint: "to make the shared file this root's, run 'wake skill --write --force-skill' here; to stop writing it, set [skill] path = \"\" in wake.toml"})
	data, _ := json.Marshal(rec)
	if err := store.WriteState(m.o.FS, m.root, sharedNoticeFile, append(data, '\n')); err != nil {
		m.writeFailed(fmt.Sprintf("recording that it was said: %v", err))
	}
}

// forgetSharedNotice forgets the notice sayShared recorded, so that it is
// said again should another root take the shared file.
func (m *Memory) forgetSharedNotice() {
	name := m.path(tiers.StateDir + "/" + sharedNoticeFile)
	if err := m.o.FS.Remove(name); err != nil && !errors.Is(err, fs.ErrNotExist) {
		m.writeFailed(fmt.Sprintf("removing %s: %v", name, err))
	}
}

// SkillFiles lists the root's skill.md files and whose each is, reading
// them only: the root's own copy, then the file at skill.path unless it is
// "" or the same file.
func (m *Memory) SkillFiles() ([]boot.SkillFile, error) {
	own := boot.SkillFile{Path: m.path(tiers.RootSkillPath), Whose: boot.WhoseNone}
	if data, err := tiers.ReadOwn(m.o.FS, m.root, tiers.RootSkillPath); err == nil {
		own.Whose, own.Owner = m.whose(data)
		if skill.MarkerRoot(data) == "." {
			// The root's own copy names its root by its own directory.
			own.Whose, own.Owner = boot.WhoseThis, m.root
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("reading %s: %w", own.Path, err)
	}
	out := []boot.SkillFile{own}
	path, err := m.SkillPath()
	if err != nil || path == "" || path == own.Path {
		return out, err
	}
	f := boot.SkillFile{Path: path, Shared: true, Whose: boot.WhoseNone}
	data, err := afero.ReadFile(m.o.FS, path)
	switch {
	case err == nil:
		f.Whose, f.Owner = m.whose(data)
	case !errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	return append(out, f), nil
}

// WriteSkills builds skill.md as [Memory.Skill] does and writes the root's
// skill.md files as a session start does, under the root's shared lock:
// the root's own copy, and the file at skill.path unless it is another
// root's or not wake's, which force takes over. It returns what it did:
// [Memory.SkillFiles] with Changed set where it wrote, and the problems.
func (m *Memory) WriteSkills(ctx context.Context, force bool) ([]boot.SkillFile, []string, error) {
	unlock, err := m.o.Locker.RLock(ctx, m.root)
	if err != nil {
		return nil, nil, err
	}
	defer unlock()
	var t boot.HookTarget
	if m.wantsSkill() {
		m.writeSkills(&t, m.Skill, force)
	} else {
		t.Problems = append(t.Problems, "skill.md is not written: skill.path is \"\" and [claude] boot is not \"skill\"")
	}
	files, err := m.SkillFiles()
	for i := range files {
		switch {
		case !files[i].Shared:
			files[i].Changed = t.SkillChanged
		case files[i].Path == t.Shared.Path:
			files[i].Changed = t.Shared.Changed
		}
	}
	return files, t.Problems, err
}
