package clients

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/wakeproto/wake"
	"github.com/wakeproto/wake/boot"
	"github.com/wakeproto/wake/tiers"
)

// bootFiles is what writeBootFiles did: the files it changed, and which
// of the files a client may import it wrote or found up to date.
type bootFiles struct {
	changes
	bootWritten  bool
	skillWritten bool   // the root's own skill.md
	noSkill      string // why skill.md was not written at all; "" when it was asked for
}

// writeBootFiles writes the boot files now, so that the next session
// reads a current copy even where the client reads its instructions
// before any hook has run. The caller holds the root's lock.
func writeBootFiles(m *wake.Memory, env Env, w wake.BootFiles) bootFiles {
	var r bootFiles
	if w.NoSkill {
		r.noSkill = "--no-skill was given"
	}
	w.BootAlways = true
	t, err := m.WriteBootFilesLocked(w)
	if err != nil {
		env.Warn(fmt.Sprintf("the boot files were not written: %v", err))
		return r
	}
	r.bootWritten, r.skillWritten = t.BootPath != "", t.SkillPath != ""
	for _, f := range []struct {
		path    string
		changed bool
		written string
	}{
		{t.BootPath, t.BootChanged, "written (the whole boot context; each hand-off writes it again)"},
		{t.SkillPath, t.SkillChanged, "written (this root's own skill.md; wake load and wake handoff keep it current)"},
		{sharedWritten(t.Shared), t.Shared.Changed, "written (skill.md at skill.path, naming this root; wake load and wake handoff keep it current)"},
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
	if t.Shared.Whose == boot.WhoseOther {
		r.lines = append(r.lines, fmt.Sprintf("%s: left as it is: the skill.md at skill.path is another memory root's, %s ('wake skill --write --force-skill' makes it this root's)", env.Show(t.Shared.Path), t.Shared.Owner))
	}
	r.lines = append(r.lines, t.Problems...)
	return r
}

// sharedWritten is the path of the skill.md at skill.path when it is this
// root's, "" otherwise.
func sharedWritten(f boot.SkillFile) string {
	if f.Whose != boot.WhoseThis {
		return ""
	}
	return f.Path
}

// checkBoot refuses to wire a client to a boot file wake did not write: a
// boot.md or the root's skill.md that could not be written (a symlink to a
// secret, say).
func checkBoot(env Env, b Boot, files bootFiles) error {
	name, written := tiers.BootPath, files.bootWritten
	if b.Skill {
		name, written = tiers.RootSkillPath, files.skillWritten
	}
	if written {
		return nil
	}
	why := strings.Join(files.lines, "; ")
	switch {
	case b.Skill && files.noSkill != "":
		why = files.noSkill
	case why == "":
		why = "the boot context could not be built"
	}
	return Hinted(fmt.Errorf("not importing %s into %s: wake could not write it (%s)", name, b.Into, why),
		fmt.Sprintf("wake imports only a %s it wrote: make %s a plain file (or remove it), then run install again", name, env.Show(filepath.Join(env.Root, name))))
}
