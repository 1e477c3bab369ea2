package codex

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/wakeproto/wake/internal/splice"
	"github.com/wakeproto/wake/tiers"
)

// The lines that open and close wake's block in AGENTS.md. Everything
// between them is wake's; everything outside them is the user's.
const (
	blockBegin = "<!-- wake:begin (added by 'wake install codex'; 'wake uninstall codex' takes it out) -->"
	blockEnd   = "<!-- wake:end -->"
)

// DocMaxBytes is how much of the project's instructions (AGENTS.md)
// Codex reads by default: project_doc_max_bytes. Past it the file is cut.
const DocMaxBytes = 32 * 1024

// agentsBlock is wake's block in AGENTS.md, with line endings eol: the
// fallback for a session whose SessionStart hook did not run (not yet
// trusted, or another client reading AGENTS.md), and the instruction to
// hand off. root and boot name the memory root and boot.md as the agent
// should find them.
func agentsBlock(root, boot, eol string) []byte {
	lines := []string{
		blockBegin,
		"## Memory: wake",
		"",
		"This project's memory is wake's, in " + root + ": wake loads it at every",
		"session start. If your context does not hold wake's whole boot context (it",
		`opens with "# wake: memory loaded (the whole boot context"), read ` + boot,
		`before you start: all of it, or the parts its "Left out" section names.`,
		"",
		"Before you end the session, hand off to the next one:",
		"",
		`    wake handoff --summary "what this session did, in a sentence or two" --next "the single most important thing to do next"`,
		blockEnd,
	}
	return []byte(strings.Join(lines, eol) + eol)
}

// findBlock locates wake's block in text: from the start of its opening
// line to the end of its closing one, outside fenced code. The opening
// line is the last one before the closing line: an opening line whose
// closing line the user deleted is left as the user's text, never taken
// with everything after it up to the next block's end.
func findBlock(text string) (start, end int, ok bool) {
	start = -1
	for _, l := range tiers.Lines(text) {
		switch t := strings.TrimSpace(l.Text); {
		case l.InFence:
		case strings.HasPrefix(t, "<!-- wake:begin"):
			start = l.Start
		case start >= 0 && t == blockEnd:
			return start, l.End, true
		}
	}
	return 0, 0, false
}

// placement says where addBlock put the block, for the report.
type placement struct {
	Top bool // at the top, where Codex reads it: the file is too long for the end
	// Size is the file's size with the block; Max what Codex reads of it.
	Size, Max int
}

// addBlock returns AGENTS.md with wake's block: put back as it should
// be where it is, else added at the end after a blank line, or at the
// top when the end lies past max bytes (Codex cuts the file there) or
// inside a code fence never closed. changed is false when the block was
// there as it should be.
func addBlock(src []byte, root, boot string, max int) (out []byte, where placement, changed bool) {
	eol := splice.LineEnding(src)
	block := agentsBlock(root, boot, eol)
	text := string(src)
	if start, end, ok := findBlock(text); ok {
		out = []byte(text[:start] + string(block) + text[end:])
		return out, placement{Top: start == 0, Size: len(out), Max: max}, !bytes.Equal(out, src)
	}
	if len(src) == 0 {
		return block, placement{Size: len(block), Max: max}, true
	}
	sep := eol
	if !bytes.HasSuffix(src, []byte("\n")) {
		sep = eol + eol
	}
	out = []byte(text + sep + string(block))
	if _, _, ok := findBlock(string(out)); ok && len(out) <= max {
		return out, placement{Size: len(out), Max: max}, true
	}
	out = []byte(string(block) + eol + text)
	return out, placement{Top: true, Size: len(out), Max: max}, true
}

// removeBlock returns AGENTS.md without wake's block and the blank line
// install put beside it, and whether the block was there.
func removeBlock(src []byte) ([]byte, bool) {
	text := string(src)
	start, end, ok := findBlock(text)
	if !ok {
		return src, false
	}
	before, after := text[:start], text[end:]
	switch {
	case before == "":
		after = trimBlankLine(after, false)
	case after == "":
		before = trimBlankLine(before, true)
	case strings.HasSuffix(before, "\n\n") || strings.HasSuffix(before, "\n\r\n"):
		after = trimBlankLine(after, false)
	}
	return []byte(before + after), true
}

// trimBlankLine takes one empty line off the end of s (atEnd) or off its
// start.
func trimBlankLine(s string, atEnd bool) string {
	for _, eol := range []string{"\r\n", "\n"} {
		switch {
		case atEnd && (strings.HasSuffix(s, "\n"+eol) || s == eol):
			return s[:len(s)-len(eol)]
		case !atEnd && strings.HasPrefix(s, eol):
			return s[len(eol):]
		}
	}
	return s
}

// sizeWarning says what Codex does not read of AGENTS.md, "" when it
// reads all of it.
func (p placement) sizeWarning(show string) string {
	if p.Size <= p.Max {
		return ""
	}
	where := "at the end"
	if p.Top {
		where = "at the top, where Codex reads it"
	}
	return fmt.Sprintf("%s is %d bytes with wake's block (%s), and Codex reads only its first %d (project_doc_max_bytes): trim the file, or raise project_doc_max_bytes in ~/.codex/config.toml", show, p.Size, where, p.Max)
}
