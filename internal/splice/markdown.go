package splice

import (
	"bytes"
	"errors"
	"strings"

	"github.com/wakeproto/wake/tiers"
)

// ErrOpenFence is a Markdown file that ends inside a code fence never
// closed: a line added at its end would be read as code.
var ErrOpenFence = errors.New("the file ends inside a code fence that is never closed")

// AddLine returns a Markdown file with line added, and whether it was
// missing. An existing file gets a blank line and the line at its end, in
// the file's own line endings (those of its first line); a missing one
// (exists false) is created with the line alone. [RemoveLine] gives back
// the original bytes exactly. A file that ends inside an unclosed code
// fence is [ErrOpenFence].
func AddLine(src []byte, exists bool, line string) ([]byte, bool, error) {
	if _, _, ok := FindLine(string(src), line); ok {
		return src, false, nil
	}
	if !exists {
		return []byte(line + "\n"), true, nil
	}
	eol := LineEnding(src)
	out := string(src) + eol + line + eol
	if _, _, ok := FindLine(out, line); !ok {
		return nil, false, ErrOpenFence
	}
	return []byte(out), true, nil
}

// RemoveLine returns the file without line, and whether it was there. A
// line at the end goes with the line ending [AddLine] put before it.
func RemoveLine(src []byte, line string) ([]byte, bool) {
	text := string(src)
	start, end, ok := FindLine(text, line)
	if !ok {
		return src, false
	}
	if eol := text[findEOL(text, end):end]; end == len(text) && eol != "" && strings.HasSuffix(text[:start], eol) {
		start -= len(eol)
	}
	return []byte(text[:start] + text[end:]), true
}

// FindLine locates the first line that is exactly line (but for the
// spaces around it) outside fenced code, with its newline.
func FindLine(text, line string) (int, int, bool) {
	for _, l := range tiers.Lines(text) {
		if !l.InFence && strings.TrimSpace(l.Text) == line {
			return l.Start, l.End, true
		}
	}
	return 0, 0, false
}

// LineEnding is the line ending of the file's first line: "\r\n" or "\n".
func LineEnding(src []byte) string {
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
