package tiers

import (
	"fmt"
	"path/filepath"
	"strings"
)

// SkillPath resolves skill.path: "" (writing disabled) stays "", a leading
// "~/" is home, a relative path is relative to the memory root. home comes
// from the caller's environment; it is needed only for a "~" path.
func (s Skill) SkillPath(home, root string) (string, error) {
	p := s.Path
	switch {
	case p == "":
		return "", nil
	case p == "~" || strings.HasPrefix(p, "~/"):
		if home == "" {
			return "", fmt.Errorf("skill.path %q starts with ~ but HOME is not set", p)
		}
		return filepath.Join(home, strings.TrimPrefix(p, "~")), nil
	case strings.HasPrefix(p, "~"):
		return "", fmt.Errorf("skill.path %q: only ~/ is expanded, not ~user", p)
	case filepath.IsAbs(p):
		return filepath.Clean(p), nil
	}
	return filepath.Join(root, p), nil
}
