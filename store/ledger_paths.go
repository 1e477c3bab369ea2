package store

import (
	"path/filepath"
	"strings"
)

// The ledger is committed, so a file outside the root that wake wrote (an
// install's settings and imports) is named in it without the machine's
// absolute paths where it can be: relative to the root when beside it in
// the directory holding it ("../CLAUDE.md"), relative to the home
// directory under it ("~/.claude/settings.json"), absolute only
// elsewhere. Lines older wakes wrote name them absolute.
const homePrefix = "~/"

// LedgerPath is how a ledger line names the file path: relative to root
// inside it, "../" and the path relative to the root's directory beside
// it, "~/" and the path relative to home under it (home "" when unknown),
// else absolute; with forward slashes.
func LedgerPath(root, home, path string) string {
	if rel, err := filepath.Rel(root, path); err == nil && filepath.IsLocal(rel) {
		return filepath.ToSlash(rel)
	}
	if rel, err := filepath.Rel(filepath.Dir(root), path); err == nil && filepath.IsLocal(rel) {
		return "../" + filepath.ToSlash(rel)
	}
	if home != "" {
		if rel, err := filepath.Rel(home, path); err == nil && filepath.IsLocal(rel) {
			return homePrefix + filepath.ToSlash(rel)
		}
	}
	return filepath.ToSlash(path)
}

// OutsidePath returns the absolute path of a file outside root that a
// ledger line names as p (see [LedgerPath]), and false when p names a
// file of the root, or a home-relative one while home is unknown.
func OutsidePath(root, home, p string) (string, bool) {
	switch sys := filepath.FromSlash(p); {
	case filepath.IsAbs(sys):
		return filepath.Clean(sys), true
	case strings.HasPrefix(p, "../"):
		abs := filepath.Join(filepath.Dir(root), filepath.FromSlash(p[len("../"):]))
		if rel, err := filepath.Rel(filepath.Dir(root), abs); err != nil || !filepath.IsLocal(rel) {
			return "", false
		}
		return abs, true
	case strings.HasPrefix(p, homePrefix) && home != "":
		abs := filepath.Join(home, filepath.FromSlash(p[len(homePrefix):]))
		if rel, err := filepath.Rel(home, abs); err != nil || !filepath.IsLocal(rel) {
			return "", false
		}
		return abs, true
	}
	return "", false
}

// outsideForm reports whether p, a path a ledger line names, can name a
// file outside the root: absolute, "../" or "~/".
func outsideForm(p string) bool {
	return filepath.IsAbs(filepath.FromSlash(p)) || strings.HasPrefix(p, "../") || strings.HasPrefix(p, homePrefix)
}
