package main

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/wakeproto/wake/handoff"
)

// The checks every text wake is given goes through before it is written
// (hand-off flags and documents, the decision-log commands): invalid UTF-8
// is replaced with U+FFFD, with a warning naming the text, since a
// hand-off refused at the end of a session may never be retried; a
// character [handoff.CheckText] refuses is a usage error naming the text
// and the character, since it would make the file unreadable.

// textHint is the hint of a text refused for a character in it.
const textHint = "remove the character: wake writes its memory as plain text (tab is kept, and newline where the text may span lines)"

// textCheck checks the texts of one source (the flags, or one --file
// document) and collects its warnings.
type textCheck struct {
	warnings []string
	// fixed lists the lines of a document on which invalid UTF-8 was
	// replaced before it was parsed; exact says the document held no
	// U+FFFD of its own, so that a text holding one is a text that was
	// fixed, and can be named.
	fixed []int
	exact bool
	named bool // a warning named a text that was fixed
}

// text makes *s valid UTF-8, ends its lines with "\n" alone when it may
// span lines, and returns a usage error naming it when it holds a
// character wake refuses. Line breaks in a one-line text are left to the
// caller, whose message says "must be one line".
func (c *textCheck) text(name string, s *string, multiline bool) error {
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
	if err := handoff.CheckText(v, multiline); err != nil {
		return hintError{usagef("%s: %v", name, err), textHint}
	}
	return nil
}

func (c *textCheck) fixedText(name string) {
	c.warnings = append(c.warnings, name+": invalid UTF-8 replaced with U+FFFD")
	c.named = true
}

// fixDocument replaces each run of invalid UTF-8 in a document with
// U+FFFD before it is parsed: JSON would do so silently, and YAML refuses
// it. The texts parsed from it are named as they are checked;
// [textCheck.finish] names the lines when they cannot be.
func (c *textCheck) fixDocument(data []byte) []byte {
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

// finish warns, when invalid UTF-8 was replaced but no text was named for
// it, on which lines of the document it was.
func (c *textCheck) finish(name string) {
	if len(c.fixed) == 0 || c.named {
		return
	}
	lines := make([]string, len(c.fixed))
	for i, n := range c.fixed {
		lines[i] = strconv.Itoa(n)
	}
	c.warnings = append(c.warnings, fmt.Sprintf("%s: invalid UTF-8 replaced with U+FFFD on line %s", name, strings.Join(lines, ", ")))
}

func (c *textCheck) print(w io.Writer) {
	for _, m := range c.warnings {
		fmt.Fprintf(w, "wake: warning: %s\n", m)
	}
}

// oneLineFlag is the usage error of a one-line flag given a line break;
// quote names the value too, for a repeatable flag.
func oneLineFlag(name, v string, quote bool) error {
	if !strings.ContainsAny(v, "\r\n") {
		return nil
	}
	if quote {
		return usagef("%s %q must be one line", name, v)
	}
	return usagef("%s must be one line", name)
}
