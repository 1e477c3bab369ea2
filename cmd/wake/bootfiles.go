package main

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"

	"github.com/spf13/afero"
	"github.com/spf13/cobra"

	"github.com/wakeproto/wake/boot"
	"github.com/wakeproto/wake/handoff"
	"github.com/wakeproto/wake/skill"
	"github.com/wakeproto/wake/tiers"
)

// bootFrontMatter opens boot.md: wake's files always carry a summary.
const bootFrontMatter = "---\nsummary: The boot context wake regenerates at every session start; edits here are overwritten\n---\n"

// skillFlags are the flags of the commands that write skill.md.
type skillFlags struct {
	noSkill    bool
	forceSkill bool
}

func addSkillFlags(cmd *cobra.Command, f *skillFlags) {
	cmd.Flags().BoolVar(&f.noSkill, "no-skill", false, "do not write skill.md")
	cmd.Flags().BoolVar(&f.forceSkill, "force-skill", false, "replace a file at skill.path that wake did not write")
}

// bootWrite says which boot files to write.
type bootWrite struct {
	skillFlags
	// bootAlways writes boot.md in full mode even when it does not exist
	// yet (the hook, install); otherwise an existing boot.md is refreshed.
	bootAlways bool
}

// writeBootFiles writes the boot files a client imports from a built
// context: boot.md in full mode, and skill.md unless --no-skill. Failing to
// write one is a warning on stderr and a line in the result, never an
// error: the context itself was produced.
func (a *app) writeBootFiles(s *session, ctx *boot.Context, text string, w bootWrite) boot.HookTarget {
	var t boot.HookTarget
	if s.cfg.Claude.Boot == tiers.BootFull {
		name := filepath.Join(s.root, tiers.BootPath)
		unsafe := handoff.CheckWritable(a.fs, s.root, tiers.BootPath)
		var old []byte
		exists := false
		if unsafe == nil {
			var err error
			old, err = afero.ReadFile(a.fs, name)
			exists = err == nil
		}
		data := []byte(bootFrontMatter + text)
		switch {
		case unsafe != nil:
			t.Problems = append(t.Problems, fmt.Sprintf("boot.md was not written (%v); run `wake load` for the whole context", unsafe))
			a.warn([]string{unsafe.Error()})
		case !exists && !w.bootAlways:
		case exists && bytes.Equal(old, data):
			t.BootPath = name
		default:
			if err := handoff.WriteFileIn(a.fs, s.root, tiers.BootPath, data, 0o644); err != nil {
				t.Problems = append(t.Problems, fmt.Sprintf("boot.md could not be written (%v); run `wake load` for the whole context", err))
				a.warn([]string{err.Error()})
				break
			}
			t.BootPath, t.BootChanged = name, true
		}
	}
	if !w.noSkill {
		path, changed, problem := a.writeSkill(s, ctx, w.forceSkill)
		t.SkillPath, t.SkillChanged = path, changed
		if problem != "" {
			t.Problems = append(t.Problems, problem)
		}
	}
	return t
}

// writeSkill writes skill.md to skill.path ("" disables it), atomically,
// mode 0600. A file there that wake did not write is left as it is, with a
// warning, unless force. It returns the path written (or found up to
// date), whether its content changed, and a line for the agent when it
// could not write.
func (a *app) writeSkill(s *session, ctx *boot.Context, force bool) (string, bool, string) {
	path, err := s.cfg.Skill.SkillPath(a.env["HOME"], s.root)
	if err != nil {
		a.warn([]string{err.Error()})
		return "", false, "skill.md was not written: " + err.Error()
	}
	if path == "" {
		return "", false, ""
	}
	if err := handoff.CheckWritable(a.fs, filepath.Dir(path), filepath.Base(path)); err != nil {
		a.warn([]string{fmt.Sprintf("skill.md was not written: %v", err)})
		return "", false, "skill.md was not written: " + err.Error()
	}
	data, err := a.skillText(s, ctx)
	if err != nil {
		a.warn([]string{fmt.Sprintf("skill.md was not written: %v", err)})
		return "", false, "skill.md was not written: " + err.Error()
	}
	old, err := afero.ReadFile(a.fs, path)
	switch {
	case err == nil && bytes.Equal(old, data):
		return path, false, ""
	case err == nil && !skill.HasMarker(old) && !force:
		fmt.Fprintf(a.errOut, "wake: warning: %s was not written by wake (it has no wake marker); left as it is\n", path)
		fmt.Fprintf(a.errOut, "wake: hint: pass --force-skill once to replace it, or set [skill] path in wake.toml to another file (\"\" stops writing skill.md)\n")
		return "", false, "skill.md was not written: " + path + " holds a file wake did not write"
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		a.warn([]string{fmt.Sprintf("skill.md was not written: %v", err)})
		return "", false, "skill.md was not written: " + err.Error()
	}
	if err := handoff.WriteFileMode(a.fs, path, data, 0o600); err != nil {
		a.warn([]string{fmt.Sprintf("skill.md was not written: %v", err)})
		return "", false, "skill.md was not written: " + err.Error()
	}
	return path, true, ""
}

// skillText builds and renders skill.md from a built context, warning of
// what the builder reports, and keeps the counts it learned.
func (a *app) skillText(s *session, ctx *boot.Context) ([]byte, error) {
	sk, err := skill.Build(boot.Options{FS: a.fs, Root: s.root, Config: s.cfg, Counter: s.cache, Now: a.now}, ctx)
	if err != nil {
		return nil, err
	}
	a.saveCache(s)
	a.warn(sk.Warnings)
	return []byte(skill.Render(sk)), nil
}

// handoffBootFiles regenerates the boot files once a hand-off is written,
// so that the next session's imports already show it: skill.md, and
// boot.md when it exists (Claude Code may read what CLAUDE.md imports before
// the SessionStart hook has regenerated it).
func (a *app) handoffBootFiles(s *session, f skillFlags) {
	ctx, text, err := a.bootContext(s, true)
	if err != nil {
		a.warn([]string{fmt.Sprintf("the boot files were not regenerated: %v", err)})
		return
	}
	t := a.writeBootFiles(s, ctx, text, bootWrite{skillFlags: f})
	if t.BootPath == "" && t.SkillPath == "" {
		return
	}
	fmt.Fprintln(a.out, "\nBoot files for the next session:")
	for _, p := range []string{t.BootPath, t.SkillPath} {
		if p != "" {
			fmt.Fprintf(a.out, "  %s\n", p)
		}
	}
}
