package tiers

import (
	"bytes"
	"unicode/utf8"
)

// plainFront decodes front matter in the form wake writes it, one key a
// line with a plain value ("summary: Session 12 moved the import on"),
// without the YAML parser, which was a tenth of a first load's reading
// of a long history's cold documents. ok is false for anything else:
// a comment, a blank or indented line, a quoted, flow, block or
// tagged value, an anchor or alias, a value holding ": " or " #", a
// character YAML reads as a line break or does not print, a key given
// twice or misspelt near sensitivity, a sensitivity that is not a
// level, source_of_truth. Those go to [decodeFront]'s YAML decoder,
// which reads what this reads the same (FuzzPlainFront proves it) and
// words the errors.
func plainFront(y []byte) (FrontMatter, bool) {
	var m FrontMatter
	var seen uint16 // the known keys given, a bit each
	for len(y) > 0 {
		line, rest, ok := bytes.Cut(y, []byte{'\n'})
		if !ok {
			return m, false // decodeFront's blocks end with a newline
		}
		y = rest
		colon := bytes.IndexByte(line, ':')
		if colon <= 0 || !plainKey(line[:colon]) {
			return m, false
		}
		key, value := string(line[:colon]), line[colon+1:]
		if len(value) > 0 {
			if value[0] != ' ' {
				return m, false // "key:value" is one plain scalar, no key
			}
			value = value[1:]
		}
		if !plainValue(value) {
			return m, false
		}
		s := string(value)
		switch s {
		case "", "~", "null", "Null", "NULL":
			s = ""
		}
		field, known := frontKeys[key]
		switch {
		case !known:
			if near(key, "sensitivity") {
				return m, false
			}
			continue
		case field == nil: // source_of_truth
			return m, false
		}
		bit := uint16(1) << plainKeyBit(key)
		if seen&bit != 0 {
			return m, false
		}
		seen |= bit
		if key == "sensitivity" {
			level, ok := normalLevel(s)
			if !ok {
				return m, false
			}
			s = level
		}
		*field(&m) = s
	}
	return m, true
}

// plainKey reports whether k is a key as wake writes it: lower-case
// ASCII letters with underscores between, not long (YAML refuses a key of
// more than 1,024 characters as malformed, which it must then report).
func plainKey(k []byte) bool {
	if len(k) > 64 || k[0] == '_' || k[len(k)-1] == '_' {
		return false
	}
	for _, c := range k {
		if (c < 'a' || c > 'z') && c != '_' {
			return false
		}
	}
	return true
}

// plainKeyBit numbers the known keys for plainFront's record of those
// given.
func plainKeyBit(key string) int {
	switch key {
	case "summary":
		return 0
	case "memory_type":
		return 1
	case "sensitivity":
		return 2
	case "project_id":
		return 3
	case "session":
		return 4
	case "primary_objective":
		return 5
	case "next_priority":
		return 6
	case "open_risk":
		return 7
	}
	return 8 // emotional_register
}

// plainValue reports whether v, as it follows "key: ", is a YAML plain
// scalar whose value is its text: it starts with no indicator or space,
// ends with no space, and holds no ": ", " #", tab, and no character
// YAML takes for a line break or refuses to print (besides invalid
// UTF-8).
func plainValue(v []byte) bool {
	if len(v) == 0 {
		return true
	}
	switch v[0] {
	case '-', '?', ':', ',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`', ' ':
		return false
	}
	if v[len(v)-1] == ' ' || v[len(v)-1] == ':' {
		return false
	}
	if bytes.Contains(v, []byte(": ")) || bytes.Contains(v, []byte(" #")) {
		return false
	}
	for i := 0; i < len(v); {
		c := v[i]
		if c < utf8.RuneSelf {
			if c < 0x20 || c == 0x7f {
				return false // a tab or a control character
			}
			i++
			continue
		}
		r, n := utf8.DecodeRune(v[i:])
		switch {
		case r == utf8.RuneError && n == 1,
			r < 0xA0,                   // C1 controls, NEL (a line break to YAML)
			r == 0x2028 || r == 0x2029, // line and paragraph separators
			r >= 0xD800 && r < 0xE000,
			r == 0xFEFF || r == 0xFFFE || r == 0xFFFF:
			return false
		}
		i += n
	}
	return true
}
