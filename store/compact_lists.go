package store

import (
	"regexp"
	"strings"

	"github.com/wakeproto/wake/tiers"
)

// finishedItems splits a task or question list into what stays and the
// finished items to archive: list items checked off ("- [x] …") and list
// items under a heading that names them finished (done, doneHeads), each
// with the lines indented under it. Headings, paragraphs, open items and
// front matter stay, byte for byte; so does everything inside a code fence,
// where a "- [x]" is an example, not an item.
func finishedItems(text string, doneHeads []string) (kept string, moved []string) {
	var keep strings.Builder
	start := 0
	if _, body, ok := tiers.SplitFrontMatter([]byte(text)); ok {
		start = len(text) - len(body)
		keep.WriteString(text[:start])
	}
	lines := splitKeepEOL(text[start:])
	doneLevel, fence := 0, false
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		bare := strings.TrimRight(l, "\r\n")
		if isFence(bare) {
			fence = !fence
		}
		if fence || isFence(bare) {
			keep.WriteString(l)
			continue
		}
		if lvl, title := tiers.HeadingLevel(bare); lvl > 0 {
			if doneLevel > 0 && lvl <= doneLevel {
				doneLevel = 0
			}
			if doneLevel == 0 && finishedHeading(title, doneHeads) {
				doneLevel = lvl
			}
			keep.WriteString(l)
			continue
		}
		m := listItem().FindStringSubmatch(bare)
		if m == nil || !(m[2] != "" || doneLevel > 0 && m[1] == "") {
			keep.WriteString(l)
			continue
		}
		item := l
		for i+1 < len(lines) && indentedUnder(lines[i+1], len(m[1])) {
			i++
			item += lines[i]
		}
		if !strings.HasSuffix(item, "\n") {
			item += "\n"
		}
		moved = append(moved, item)
	}
	return keep.String(), moved
}

// listItem matches a list item: its indentation, and "x" when it is
// checked off.
func listItem() *regexp.Regexp { return listItemRE }

var listItemRE = regexp.MustCompile(`^([ \t]*)(?:[-*+]|\d+[.)])[ \t]+(?:\[([xX])\]|\[[ ]\])?`)

// indentedUnder reports whether line belongs to an item indented by
// indent: a non-blank line indented deeper.
func indentedUnder(line string, indent int) bool {
	bare := strings.TrimRight(line, "\r\n")
	if strings.TrimSpace(bare) == "" {
		return false
	}
	return len(bare)-len(strings.TrimLeft(bare, " \t")) > indent
}

// finishedHeading reports whether a heading's title names a section of
// finished items: one of heads, alone or first ("Done (this week)").
func finishedHeading(title string, heads []string) bool {
	t := strings.ToLower(strings.TrimSpace(title))
	for _, h := range heads {
		if t == h || strings.HasPrefix(t, h) && !isLetter(t[len(h)]) {
			return true
		}
	}
	return false
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func isFence(line string) bool {
	t := strings.TrimLeft(line, " ")
	return strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~")
}

// splitKeepEOL splits text into lines, each keeping its line ending.
func splitKeepEOL(text string) []string {
	var out []string
	for text != "" {
		i := strings.IndexByte(text, '\n')
		if i < 0 {
			out = append(out, text)
			break
		}
		out = append(out, text[:i+1])
		text = text[i+1:]
	}
	return out
}
