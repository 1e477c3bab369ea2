package claude

import (
	"errors"
	"fmt"
	"path/filepath"

	"github.com/spf13/afero"
	"github.com/wakeproto/wake/internal/splice"
)

// addImport returns a CLAUDE.md with the import line added, and whether it
// was missing: see [splice.AddLine]. A file that ends inside an unclosed
// code fence is an error: an import there would be read as code.
func addImport(src []byte, exists bool, line string) ([]byte, bool, error) {
	out, added, err := splice.AddLine(src, exists, line)
	if errors.Is(err, splice.ErrOpenFence) {
		err = fmt.Errorf("%w, where Claude Code would not follow an import", err)
	}
	return out, added, err
}

// removeImport returns the CLAUDE.md without the import line, and whether
// it was there. An import at the end goes with the line ending install put
// before it.
func removeImport(src []byte, line string) ([]byte, bool) { return splice.RemoveLine(src, line) }

// findImport locates the first line that is exactly the import, outside
// fenced code (where Claude Code does not import), with its newline.
func findImport(text, line string) (int, int, bool) { return splice.FindLine(text, line) }

// importLine is the CLAUDE.md line that imports target: "~/..." under home
// when preferHome is set (the user's CLAUDE.md), else relative to the
// importing file's directory when target lies under it, "~/..." under home,
// absolute otherwise.
func importLine(fromDir, target, home string, preferHome bool) string {
	underHome := func() (string, bool) {
		if home == "" {
			return "", false
		}
		rel, err := filepath.Rel(home, target)
		return rel, err == nil && filepath.IsLocal(rel)
	}
	if rel, ok := underHome(); ok && preferHome {
		return "@~/" + filepath.ToSlash(rel)
	}
	if rel, err := filepath.Rel(fromDir, target); err == nil && filepath.IsLocal(rel) {
		return "@" + filepath.ToSlash(rel)
	}
	if rel, ok := underHome(); ok {
		return "@~/" + filepath.ToSlash(rel)
	}
	return "@" + filepath.ToSlash(target)
}

// ImportsBoot reports whether the session started in dir has read the
// boot file bootPath through an import: the CLAUDE.md in dir itself
// imports it by a path under dir. Claude Code does not expand the imports
// of a CLAUDE.md above the directory a session starts in, and asks before
// following an import out of the project, which 'claude -p' never does:
// in those cases the session holds no copy, and the hook must give it
// the context.
func ImportsBoot(fs afero.Fs, dir, bootPath string) bool {
	rel, err := filepath.Rel(dir, bootPath)
	if err != nil || !filepath.IsLocal(rel) {
		return false
	}
	data, err := afero.ReadFile(fs, filepath.Join(dir, "CLAUDE.md"))
	if err != nil {
		return false
	}
	_, _, ok := findImport(string(data), "@"+filepath.ToSlash(rel))
	return ok
}

// ImportsGlobally reports whether the user's ~/.claude/CLAUDE.md, which
// every session on the machine reads, imports target: the import an older
// wake added in skill mode.
func ImportsGlobally(fs afero.Fs, home, target string) bool {
	if home == "" || target == "" {
		return false
	}
	dir := filepath.Join(home, ".claude")
	data, err := afero.ReadFile(fs, filepath.Join(dir, "CLAUDE.md"))
	if err != nil {
		return false
	}
	for _, line := range []string{importLine(dir, target, home, true), importLine(dir, target, home, false), "@" + filepath.ToSlash(target)} {
		if _, _, ok := findImport(string(data), line); ok {
			return true
		}
	}
	return false
}
