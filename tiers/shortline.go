package tiers

import (
	"strings"
	"unicode/utf8"
)

// maxTitleRunes bounds a listing's title, so that a pasted page in a
// summary does not fill the table of contents.
const maxTitleRunes = 160

// ShortLine makes s a title for one line of a listing: printable, its
// whitespace runs made single spaces, cut with "…" past maxTitleRunes.
func ShortLine(s string) string {
	if isOneLine(s) {
		return s
	}
	s = strings.Join(strings.Fields(Printable(s)), " ")
	if utf8.RuneCountInString(s) <= maxTitleRunes {
		return s
	}
	r := []rune(s)
	return strings.TrimSpace(string(r[:maxTitleRunes-1])) + "…"
}

// isOneLine reports whether ShortLine would return s as it is: no control
// whitespace, no runs or edges of spaces, not too long.
func isOneLine(s string) bool {
	if len(s) > maxTitleRunes || strings.HasPrefix(s, " ") || strings.HasSuffix(s, " ") || strings.Contains(s, "  ") {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < ' ' || c == 0x7f || c >= 0x80 {
			return false
		}
	}
	return true
}

// CutBytes is the longest head of s of at most n bytes that does not end
// inside a character.
func CutBytes(s string, n int) string {
	if n <= 0 {
		return ""
	}
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
