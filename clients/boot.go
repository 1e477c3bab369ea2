package clients

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake"
	"github.com/wakeproto/wake/handoff"
	"github.com/wakeproto/wake/skill"
	"github.com/wakeproto/wake/tiers"
)

// bootFiles is what writeBootFiles did: the files it changed, and whether
// boot.md is wake's, written or up to date.
type bootFiles struct {
	changes
	bootWritten bool
}

// writeBootFiles writes the boot files now, so that the next session
// reads a current copy even where the client reads its instructions
// before any hook has run. The caller holds the root's lock.
func writeBootFiles(m *wake.Memory, env Env, w wake.BootFiles) bootFiles {
	var r bootFiles
	w.BootAlways = true
	t, err := m.WriteBootFilesLocked(w)
	if err != nil {
		env.Warn(fmt.Sprintf("the boot files were not written: %v", err))
		return r
	}
	r.bootWritten = t.BootPath != ""
	for _, f := range []struct {
		path    string
		changed bool
		written string
	}{
		{t.BootPath, t.BootChanged, "written (the whole boot context; every session start regenerates it)"},
		{t.SkillPath, t.SkillChanged, "written (skill.md; wake load and wake handoff keep it current)"},
	} {
		if f.path == "" {
			continue
		}
		show, state := env.Show(f.path), "up to date"
		if f.changed {
			state = f.written
			r.paths = append(r.paths, f.path)
			r.summary = append(r.summary, "wrote "+show)
		}
		r.lines = append(r.lines, show+": "+state)
	}
	r.lines = append(r.lines, t.Problems...)
	return r
}

// checkBoot refuses to wire a client to a boot file wake did not write: a
// boot.md that could not be written (a symlink to a secret, say), or a
// skill.md from a root the user does not trust, or that is not wake's.
func checkBoot(m *wake.Memory, env Env, about About, b Boot, files bootFiles) error {
	if b.Skill {
		if !m.Trust().Trusted {
			return Hinted(fmt.Errorf("not importing skill.md into %s: this memory root is not trusted, and every %s session would read it", b.Into, about.Title),
				fmt.Sprintf("if you know this memory, run 'wake trust --root %s', then install again", m.Root()))
		}
		return checkSkill(m, env, b)
	}
	if files.bootWritten {
		return nil
	}
	why := strings.Join(files.lines, "; ")
	if why == "" {
		why = "the boot context could not be built"
	}
	return Hinted(fmt.Errorf("not importing %s into %s: wake could not write it (%s)", tiers.BootPath, b.Into, why),
		"wake imports only a boot.md it wrote: make .wake/boot.md a plain file (or remove it), then run install again")
}

// checkSkill refuses to import skill.md where every session reads it
// unless the file at skill.path is one wake wrote (it carries wake's
// marker) and is a plain file: an import of anything else would hand
// every session a file wake never vouched for.
func checkSkill(m *wake.Memory, env Env, b Boot) error {
	path, err := m.SkillPath()
	if err != nil {
		return err
	}
	if err := handoff.CheckWritable(env.FS, filepath.Dir(path), filepath.Base(path)); err != nil {
		return Hinted(fmt.Errorf("not importing %s into %s: %w", path, b.Into, err), "replace it with a plain file, or set [skill] path in your own ~/.config/wake/config.toml")
	}
	data, err := afero.ReadFile(env.FS, path)
	if err != nil || !skill.HasMarker(data) {
		return Hinted(fmt.Errorf("not importing %s into %s: wake did not write that file", path, b.Into),
			"wake imports only a skill.md it wrote: pass --force-skill to replace the file there, or choose another skill.path")
	}
	return nil
}
