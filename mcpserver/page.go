package mcpserver

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Paginate cuts text into pages of at most limit tokens as count counts
// them, at line ends where it can (a line longer than a page is cut
// between characters). Every page but the last ends with a line naming
// the next page; a text that fits is one page, unchanged.
func Paginate(count func(string) int, text string, limit int) []string {
	// A token is at least a byte: a text of limit bytes fits uncounted.
	if len(text) <= limit || count(text) <= limit {
		return []string{text}
	}
	// The closing line's room, with its blank line and a line end.
	room := max(limit-count("\n\n"+footer(99999, 99999)), 1)
	// Lines counted apart can count less than together; a page over the
	// bound is cut again with less room.
	for {
		pages := cut(count, text, room)
		over := 0
		for _, p := range pages {
			over = max(over, count(p)-limit)
		}
		if over <= 0 || room == 1 {
			return pages
		}
		room = max(room-over-8, 1)
	}
}

// cut is text in pages of bodies of at most room tokens counted line by
// line, each but the last with its closing line.
func cut(count func(string) int, text string, room int) []string {
	var bodies []string
	var cur strings.Builder
	curTokens := 0
	flush := func() {
		if cur.Len() > 0 {
			bodies = append(bodies, cur.String())
			cur.Reset()
			curTokens = 0
		}
	}
	for _, line := range splitLines(text) {
		for _, piece := range cutLine(count, line, room) {
			n := count(piece)
			if curTokens+n > room {
				flush()
			}
			cur.WriteString(piece)
			curTokens += n
		}
	}
	flush()
	pages := make([]string, len(bodies))
	for i, b := range bodies {
		pages[i] = b
		if i < len(bodies)-1 {
			if !strings.HasSuffix(b, "\n") {
				pages[i] += "\n"
			}
			pages[i] += "\n" + footer(i+1, len(bodies))
		}
	}
	return pages
}

// footer is the closing line of page n of a result of total pages.
func footer(n, total int) string {
	return fmt.Sprintf("[wake: page %d of %d; call the tool again with the same arguments and page: %d for the rest]\n", n, total, n+1)
}

// splitLines is text's lines, each with its line end.
func splitLines(text string) []string {
	var lines []string
	for text != "" {
		i := strings.IndexByte(text, '\n')
		if i < 0 {
			lines = append(lines, text)
			break
		}
		lines = append(lines, text[:i+1])
		text = text[i+1:]
	}
	return lines
}

// cutLine is line in pieces of at most room tokens each, cut between
// characters, by halving: a line that fits is one piece.
func cutLine(count func(string) int, line string, room int) []string {
	if count(line) <= room || utf8.RuneCountInString(line) < 2 {
		return []string{line}
	}
	runes := []rune(line)
	mid := len(runes) / 2
	return append(cutLine(count, string(runes[:mid]), room), cutLine(count, string(runes[mid:]), room)...)
}
