package report

import (
	"fmt"
	"io"

	"github.com/wakeproto/wake/boot"
)

// SkillFile is one of a memory root's skill.md files in the JSON of
// `wake skill`: the root's own copy ("root"), and the file at skill.path
// ("shared"), which every root configured alike writes to, with whose
// each is.
type SkillFile struct {
	Path string `json:"path"`
	Kind string `json:"kind"` // "root" or "shared"
	// Whose is "this" (this root's), "other" (another root's, which
	// exists: wake leaves it), "gone" (wake's, naming a root that is
	// gone: wake takes it over), "foreign" (not written by wake) or
	// "absent".
	Whose   string `json:"whose"`
	Owner   string `json:"owner,omitempty"`   // the memory root the file names
	Changed bool   `json:"changed,omitempty"` // --write wrote it
}

// Skill is `wake skill --format json`: skill.md's text (without --files)
// and the root's skill.md files.
type Skill struct {
	Version  int         `json:"version"`
	Root     string      `json:"root"`
	Text     string      `json:"skill_md,omitempty"`
	Files    []SkillFile `json:"files"`
	Problems []string    `json:"problems,omitempty"`
}

func newSkillFiles(files []boot.SkillFile) []SkillFile {
	out := []SkillFile{}
	for _, f := range files {
		kind := "root"
		if f.Shared {
			kind = "shared"
		}
		out = append(out, SkillFile{Path: f.Path, Kind: kind, Whose: string(f.Whose), Owner: f.Owner, Changed: f.Changed})
	}
	return out
}

// SkillJSON renders skill.md's text ("" leaves it out) and the root's
// skill.md files.
func SkillJSON(root string, text []byte, files []boot.SkillFile, problems []string) ([]byte, error) {
	return marshal(Skill{Version: Version, Root: root, Text: string(text), Files: newSkillFiles(files), Problems: problems})
}

// SkillFilesText says which of the root's skill.md files is whose, and
// what wake does with each.
func SkillFilesText(w io.Writer, root string, files []boot.SkillFile, problems []string) {
	fmt.Fprintf(w, "skill.md files of the memory root %s:\n", root)
	for _, f := range files {
		what := "this root's own copy (CLAUDE.md imports it with [claude] boot = \"skill\")"
		if f.Shared {
			what = "skill.path, shared by every memory root that writes there"
		}
		fmt.Fprintf(w, "  %s\n    %s: %s\n", f.Path, what, skillWhose(f))
	}
	for _, p := range problems {
		fmt.Fprintf(w, "  - %s\n", p)
	}
}

// skillWhose says whose a skill.md file is, and what wake does about it.
func skillWhose(f boot.SkillFile) string {
	written := ""
	if f.Changed {
		written = "; written now"
	}
	switch {
	case f.Whose == boot.WhoseNone:
		return "absent"
	case f.Whose == boot.WhoseThis:
		return "this root's" + written
	case !f.Shared:
		return "not this root's (" + string(f.Whose) + "); the next write replaces it with this root's"
	}
	switch f.Whose {
	case boot.WhoseOther:
		return "the skill.md of another memory root, " + f.Owner + "; left as it is ('wake skill --write --force-skill' makes it this root's)"
	case boot.WhoseGone:
		if f.Owner == "" {
			return "wake's, naming no memory root; the next write makes it this root's"
		}
		return "the skill.md of " + f.Owner + ", which is gone; the next write makes it this root's"
	case boot.WhoseForeign:
		return "not written by wake; left as it is ('wake skill --write --force-skill' replaces it)"
	}
	return string(f.Whose)
}
