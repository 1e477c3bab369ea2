package tiers

import (
	"strings"
)

// Section is a Markdown section: an ATX heading and everything up to the
// next heading of the same or a higher level. Offsets index the text the
// section was found in.
type Section struct {
	Level     int
	Title     string
	Start     int // offset of the heading line
	BodyStart int // offset just past the heading line
	End       int // offset just past the section's last byte
}

// Body returns the section's text after its heading line.
func (s Section) Body(text string) string { return text[s.BodyStart:s.End] }

// Line is one line of a text with its offsets; Text excludes the newline.
type Line struct {
	Text       string
	Start, End int // End includes the newline, if any
	InFence    bool
}

// Lines splits text into lines, marking those inside fenced code blocks
// (the fence lines themselves included). As in CommonMark, a fence never
// closed runs to the end of the text; see [HeadingLines] for finding
// headings.
func Lines(text string) []Line {
	out, _ := scanLines(text, nil)
	return out
}

// HeadingLines is [Lines] for finding headings and sections: a fence that
// is never closed is not a fence. Its opening line is plain text and the
// lines after it are read as they would be without it, so a stray ``` in
// one section of main.md cannot swallow every heading below it (the
// HANDOFF block among them), as CommonMark's "runs to the end of the
// document" would. [UnclosedFences] finds such lines for a warning.
func HeadingLines(text string) []Line {
	// never[c] is the offset from which a fence of character c opens
	// nothing: an opener there found no closer before the end, so no later
	// one of that character can find one either. Each character is learnt
	// at most once, so this is at most three scans.
	never := map[byte]int{}
	for {
		out, open := scanLines(text, never)
		if open < 0 {
			return out
		}
		never[text[open+fenceIndent(text[open:])]] = open
	}
}

// UnclosedFences returns the 1-based line numbers of fence lines that open
// a code block no later line closes; [HeadingLines] reads them as plain
// text.
func UnclosedFences(text string) []int {
	var out []int
	never := map[byte]int{}
	for {
		_, open := scanLines(text, never)
		if open < 0 {
			return out
		}
		never[text[open+fenceIndent(text[open:])]] = open
		out = append(out, strings.Count(text[:open], "\n")+1)
	}
}

func fenceIndent(line string) int { return len(line) - len(strings.TrimLeft(line, " ")) }

// scanLines is one pass of [Lines]. open is the offset of the line opening
// a fence still open at the end of text, or -1.
func scanLines(text string, never map[byte]int) (out []Line, open int) {
	fence, open := "", -1
	for off := 0; off < len(text); {
		end := strings.IndexByte(text[off:], '\n')
		next := len(text)
		if end >= 0 {
			next = off + end + 1
		}
		raw := strings.TrimRight(text[off:next], "\r\n")
		l := Line{Text: raw, Start: off, End: next, InFence: fence != ""}
		trim := strings.TrimLeft(raw, " ")
		if len(raw)-len(trim) <= 3 {
			switch {
			case fence == "" && (strings.HasPrefix(trim, "```") || strings.HasPrefix(trim, "~~~")):
				if from, ok := never[trim[0]]; ok && off >= from {
					break
				}
				fence, open = trim[:3], off
				l.InFence = true
			case fence != "" && strings.HasPrefix(trim, fence) && strings.TrimSpace(strings.TrimLeft(trim, fence[:1])) == "":
				fence, open = "", -1
			}
		}
		out = append(out, l)
		off = next
	}
	return out, open
}

// HeadingLevel returns the ATX heading level of a line (1-6), or 0.
func HeadingLevel(line string) (int, string) {
	trim := strings.TrimLeft(line, " ")
	if len(line)-len(trim) > 3 {
		return 0, ""
	}
	n := 0
	for n < len(trim) && trim[n] == '#' {
		n++
	}
	if n == 0 || n > 6 || (n < len(trim) && trim[n] != ' ' && trim[n] != '\t') {
		return 0, ""
	}
	title := strings.TrimSpace(trim[n:])
	title = strings.TrimSpace(strings.TrimRight(title, "#"))
	return n, title
}

// Sections returns the sections of text at the given heading level, in
// order. Headings inside fenced code are ignored; a fence never closed
// hides nothing (see [HeadingLines]).
func Sections(text string, level int) []Section {
	var out []Section
	for _, l := range HeadingLines(text) {
		if l.InFence {
			continue
		}
		lv, title := HeadingLevel(l.Text)
		if lv == 0 || lv > level {
			continue
		}
		if n := len(out); n > 0 && out[n-1].End < 0 {
			out[n-1].End = l.Start
		}
		if lv == level {
			out = append(out, Section{Level: lv, Title: title, Start: l.Start, BodyStart: l.End, End: -1})
		}
	}
	if n := len(out); n > 0 && out[n-1].End < 0 {
		out[n-1].End = len(text)
	}
	return out
}

// FindSection returns the first section at level whose title matches name,
// ignoring case.
func FindSection(text string, level int, name string) (Section, bool) {
	for _, s := range Sections(text, level) {
		if strings.EqualFold(s.Title, name) {
			return s, true
		}
	}
	return Section{}, false
}

// StripComments removes HTML comments, which skeleton files use for
// guidance that is not content.
func StripComments(s string) string {
	for {
		i := strings.Index(s, "<!--")
		if i < 0 {
			return s
		}
		j := strings.Index(s[i:], "-->")
		if j < 0 {
			return s[:i]
		}
		s = s[:i] + s[i+j+3:]
	}
}

// FirstHeading returns the title of the first heading of any level outside
// front matter and code, or "".
func FirstHeading(body string) string {
	for _, l := range HeadingLines(body) {
		if l.InFence {
			continue
		}
		if lv, title := HeadingLevel(l.Text); lv > 0 {
			return title
		}
	}
	return ""
}

// Printable returns s with every C0 and C1 control character, and DEL,
// replaced by U+FFFD, except tab and newline. Text from a hand-editable
// file (a ledger line) must not carry terminal escapes into wake's output
// or into an agent's context.
func Printable(s string) string {
	clean := true
	for i := 0; i < len(s) && clean; i++ {
		c := s[i]
		clean = c >= ' ' && c != 0x7f && !(c == 0xc2 && i+1 < len(s) && s[i+1] >= 0x80 && s[i+1] <= 0x9f) || c == '\t' || c == '\n'
	}
	if clean {
		return s
	}
	return strings.Map(func(r rune) rune {
		if r == '\t' || r == '\n' || !(r < ' ' || r >= 0x7f && r <= 0x9f) {
			return r
		}
		return '\uFFFD'
	}, s)
}
