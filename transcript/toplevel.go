package transcript

import (
	"bytes"
	"unicode/utf8"
)

// topLevel returns the value of the string member key of the JSON object
// line, at its top level only (a member of a nested object is not it),
// as encoding/json decodes it into a field of that name: the key matched
// without regard to case, the last one when there are several. ok is
// false when line is no such object or has no such member, or when a key
// or the value is escaped. It skims strings with IndexByte: a line of a
// tool's file contents is passed over far faster than a parse would.
func topLevel(line []byte, key string) (value string, ok bool) {
	escaped := false
	defer func() {
		if escaped {
			value, ok = "", false
		}
	}()
	i := skipSpace(line, 0)
	if i >= len(line) || line[i] != '{' {
		return "", false
	}
	i = skipSpace(line, i+1)
	if i < len(line) && line[i] == '}' {
		return "", false
	}
	for {
		if i >= len(line) || line[i] != '"' {
			return "", false
		}
		end := stringEnd(line, i)
		if end < 0 {
			return "", false
		}
		k := line[i+1 : end-1]
		if i = skipSpace(line, end); i >= len(line) || line[i] != ':' {
			return "", false
		}
		i = skipSpace(line, i+1)
		start := i
		if i = skipValue(line, i); i < 0 {
			return "", false
		}
		if bytes.IndexByte(k, '\\') >= 0 {
			escaped = true
		} else if bytes.EqualFold(k, []byte(key)) {
			v := line[start:i]
			ok = len(v) >= 2 && v[0] == '"' && bytes.IndexByte(v, '\\') < 0
			value = ""
			if ok {
				value = decoded(v[1 : len(v)-1])
			}
		}
		switch i = skipSpace(line, i); {
		case i < len(line) && line[i] == ',':
			i = skipSpace(line, i+1)
		case i < len(line) && line[i] == '}':
			return value, ok
		default:
			return "", false
		}
	}
}

// decoded is an unescaped JSON string's text as encoding/json gives it:
// each byte that is not valid UTF-8 becomes U+FFFD, as a range over the
// string reads it.
func decoded(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	return string([]rune(string(b)))
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n') {
		i++
	}
	return i
}

// stringEnd is the index past the closing quote of the string that opens
// at b[i]; -1 when it does not close.
func stringEnd(b []byte, i int) int {
	for j := i + 1; ; {
		k := bytes.IndexByte(b[j:], '"')
		if k < 0 {
			return -1
		}
		q := j + k
		n := 0
		for p := q - 1; p > i && b[p] == '\\'; p-- {
			n++
		}
		if n%2 == 0 {
			return q + 1
		}
		j = q + 1
	}
}

// skipValue is the index past the JSON value at b[i]; -1 when it is cut
// short. A scalar is taken as written, up to what ends it.
func skipValue(b []byte, i int) int {
	if i >= len(b) {
		return -1
	}
	switch b[i] {
	case '"':
		return stringEnd(b, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(b); {
			k := bytes.IndexAny(b[j:], `"{}[]`)
			if k < 0 {
				return -1
			}
			j += k
			switch b[j] {
			case '"':
				if j = stringEnd(b, j); j < 0 {
					return -1
				}
				continue
			case '{', '[':
				depth++
			default:
				if depth--; depth == 0 {
					return j + 1
				}
			}
			j++
		}
		return -1
	}
	j := i
	for j < len(b) && !bytes.ContainsRune([]byte(",}] \t\r\n"), rune(b[j])) {
		j++
	}
	if j == i {
		return -1
	}
	return j
}
