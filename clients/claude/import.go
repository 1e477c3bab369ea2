package claude

import (
	"bytes"
	"errors"
	"path/filepath"
	"strings"

	"github.com/wakeproto/wake/tiers"
)

// AddImport returns a CLAUDE.md with the import line added, and whether it
// was missing. An existing file gets a blank line and the import at its
// end, in the file's own line endings (those of its first line); a missing
// one is created with the import alone. [RemoveImport] gives back the
// original bytes exactly. A file that ends inside an unclosed code fence is
// an error: an import there would be read as code.
func AddImport(src []byte, exists bool, line string) ([]byte, bool, error) {
	if _, _, ok := FindImport(string(src), line); ok {
		return src, false, nil
	}
	if !exists {
		return []byte(line + "\n"), true, nil
	}
	eol := lineEnding(src)
	out := string(src) + eol + line + eol
	if _, _, ok := FindImport(out, line); !ok {
		return nil, false, errors.New("the file ends inside a code fence that is never closed, where Claude Code would not follow an import")
	}
	return []byte(out), true, nil
}

// RemoveImport returns the CLAUDE.md without the import line, and whether
// it was there. An import at the end goes with the line ending install put
// before it.
func RemoveImport(src []byte, line string) ([]byte, bool) {
	text := string(src)
	start, end, ok := FindImport(text, line)
	if !ok {
		return src, false
	}
	if eol := text[findEOL(text, end):end]; end == len(text) && eol != "" && strings.HasSuffix(text[:start], eol) {
		start -= len(eol)
	}
	return []byte(text[:start] + text[end:]), true
}

// lineEnding is the line ending of the file's first line: "\r\n" or "\n".
func lineEnding(src []byte) string {
	i := bytes.IndexByte(src, '\n')
	if i > 0 && src[i-1] == '\r' {
		return "\r\n"
	}
	return "\n"
}

// findEOL returns where the line ending of the line that ends at end
// starts (end itself when it has none).
func findEOL(text string, end int) int {
	switch {
	case strings.HasSuffix(text[:end], "\r\n"):
		return end - 2
	case strings.HasSuffix(text[:end], "\n"):
		return end - 1
	}
	return end
}

// FindImport locates the first line that is exactly the import, outside
// fenced code (where Claude Code does not import), with its newline.
func FindImport(text, line string) (int, int, bool) {
	for _, l := range tiers.Lines(text) {
		if !l.InFence && strings.TrimSpace(l.Text) == line {
			return l.Start, l.End, true
		}
	}
	return 0, 0, false
}

// ImportLine is the CLAUDE.md line that imports target: "~/..." under home
// when preferHome is set (the user's CLAUDE.md), else relative to the
// importing file's directory when target lies under it, "~/..." under home,
// absolute otherwise.
func ImportLine(fromDir, target, home string, preferHome bool) string {
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
