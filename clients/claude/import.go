package claude

import (
	"errors"
	"fmt"
	"path/filepath"

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
