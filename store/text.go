package store

import (
	"fmt"
	"unicode/utf8"
)

// TextError is a character that wake refuses to write in a text given to
// it: a control character would make the file it lands in unreadable (a NUL
// makes it binary, and every later session skips it) or rewrite what a
// terminal shows.
type TextError struct {
	Rune      rune // the character refused; meaningless when Invalid
	Invalid   bool // the text is not valid UTF-8
	Multiline bool // the text may span lines
}

func (e *TextError) Error() string {
	switch {
	case e.Invalid:
		return "is not valid UTF-8"
	case e.LineBreak():
		return "must be one line"
	case e.Rune == '\u2028':
		return "line separator U+2028 is not allowed in a one-line text"
	case e.Rune == '\u2029':
		return "paragraph separator U+2029 is not allowed in a one-line text"
	case e.Multiline:
		return fmt.Sprintf("control character %U is not allowed (only tab and newline are)", e.Rune)
	}
	return fmt.Sprintf("control character %U is not allowed (only tab is)", e.Rune)
}

// LineBreak reports whether the character refused is a newline or a
// carriage return in a one-line text.
func (e *TextError) LineBreak() bool {
	return !e.Invalid && !e.Multiline && (e.Rune == '\n' || e.Rune == '\r')
}

// CheckText returns a [*TextError] for the first character of s that wake
// refuses to write: invalid UTF-8; a C0 control character (U+0000 to
// U+001F) other than tab, and other than newline in a multi-line text; DEL
// (U+007F); a C1 control character (U+0080 to U+009F); and, in a one-line
// text, the line and paragraph separators U+2028 and U+2029, which YAML and
// some editors break lines at. A multi-line text ends its lines with "\n"
// alone: a carriage return is refused there too ([Input.Normalize] turns
// CRLF into LF).
func CheckText(s string, multiline bool) error {
	for i := 0; i < len(s); {
		c := s[i]
		if c >= ' ' && c < 0x7f || c == '\t' {
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			return &TextError{Invalid: true, Multiline: multiline}
		}
		if refused(r, multiline) {
			return &TextError{Rune: r, Multiline: multiline}
		}
		i += n
	}
	return nil
}

func refused(r rune, multiline bool) bool {
	switch {
	case r == '\n':
		return !multiline
	case r < ' ', r >= 0x7f && r <= 0x9f:
		return true
	case r == '\u2028', r == '\u2029':
		return !multiline
	}
	return false
}

// checkTexts is [CheckText] for one-line texts.
func checkTexts(texts ...string) error {
	for _, t := range texts {
		if err := CheckText(t, false); err != nil {
			return err
		}
	}
	return nil
}
