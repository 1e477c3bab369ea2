package store

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The checks every text wake is given goes through before it is written
// (hand-off flags and documents, the decision-log commands): invalid UTF-8
// is replaced with U+FFFD, with a warning naming the text, since a
// hand-off refused at the end of a session may never be retried; a
// character [CheckText] refuses is a usage error naming the text
// and the character, since it would make the file unreadable.

// TextHint is the hint of a text refused for a character in it.
const TextHint = "remove the character: wake writes its memory as plain text (tab is kept, and newline where the text may span lines)"

// TextCheck checks the texts of one source (the flags, or one --file
// document) and collects its warnings.
type TextCheck struct {
	Warnings []string // what was fixed in the texts, for the user
	// fixed lists the lines of a document on which invalid UTF-8 was
	// replaced before it was parsed; exact says the document held no
	// U+FFFD of its own, so that a text holding one is a text that was
	// fixed, and can be named.
	fixed []int
	exact bool
	named bool // a warning named a text that was fixed
}

// Text makes *s valid UTF-8, ends its lines with "\n" alone when it may
// span lines, and returns a usage error naming it when it holds a
// character wake refuses. Line breaks in a one-line text are left to the
// caller, whose message says "must be one line".
func (c *TextCheck) Text(name string, s *string, multiline bool) error {
	switch {
	case !utf8.ValidString(*s):
		*s = strings.ToValidUTF8(*s, "\uFFFD")
		c.fixedText(name)
	case len(c.fixed) > 0 && c.exact && strings.ContainsRune(*s, utf8.RuneError):
		c.fixedText(name)
	}
	v := *s
	if multiline {
		v = strings.ReplaceAll(v, "\r\n", "\n")
		*s = v
	} else {
		v = strings.NewReplacer("\r", " ", "\n", " ").Replace(v)
	}
	if err := CheckText(v, multiline); err != nil {
		return inputHint(fmt.Sprintf("%s: %v", name, err), TextHint)
	}
	return nil
}

func (c *TextCheck) fixedText(name string) {
	c.Warnings = append(c.Warnings, name+": invalid UTF-8 replaced with U+FFFD")
	c.named = true
}

// FixDocument replaces each run of invalid UTF-8 in a document with
// U+FFFD before it is parsed: JSON would do so silently, and YAML refuses
// it. The texts parsed from it are named as they are checked;
// [TextCheck.Finish] names the lines when they cannot be.
func (c *TextCheck) FixDocument(data []byte) []byte {
	if utf8.Valid(data) {
		return data
	}
	low := bytes.ToLower(data)
	c.exact = !bytes.Contains(data, []byte("\uFFFD")) && !bytes.Contains(low, []byte("fffd"))
	line := 1
	for i := 0; i < len(data); {
		r, n := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && n == 1 && (len(c.fixed) == 0 || c.fixed[len(c.fixed)-1] != line) {
			c.fixed = append(c.fixed, line)
		}
		if r == '\n' {
			line++
		}
		i += n
	}
	return bytes.ToValidUTF8(data, []byte("\uFFFD"))
}

// Finish warns, when invalid UTF-8 was replaced but no text was named for
// it, on which lines of the document it was.
func (c *TextCheck) Finish(name string) {
	if len(c.fixed) == 0 || c.named {
		return
	}
	lines := make([]string, len(c.fixed))
	for i, n := range c.fixed {
		lines[i] = strconv.Itoa(n)
	}
	c.Warnings = append(c.Warnings, fmt.Sprintf("%s: invalid UTF-8 replaced with U+FFFD on line %s", name, strings.Join(lines, ", ")))
}

// InputError is input wake refuses before writing anything: a text with
// a character wake does not write, a document it cannot read. It names
// the field; a front end reports it as the user's mistake (the command
// line's exit status 2).
type InputError struct {
	Msg  string
	hint string
}

func (e *InputError) Error() string { return e.Msg }

// Hint says what the user can do about it.
func (e *InputError) Hint() string { return e.hint }

func inputErrorf(format string, args ...any) error {
	return &InputError{Msg: fmt.Sprintf(format, args...)}
}

func inputHint(msg, hint string) error { return &InputError{Msg: msg, hint: hint} }

// NewInputError is an [InputError] with msg and, when not "", a hint.
func NewInputError(msg, hint string) *InputError { return &InputError{Msg: msg, hint: hint} }
