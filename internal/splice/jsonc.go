package splice

import "bytes"

// ParseJSONC parses src as JSON with comments (// and /* */) and trailing
// commas, as OpenCode reads its opencode.json. It returns the located
// nodes and blank, a copy of src with every comment and trailing comma
// turned into spaces (line breaks kept), so that offsets, lines and
// columns are those of src. Read structure and style from blank; splice
// into src, which keeps the user's comments where they were.
func ParseJSONC(src []byte) (top *Node, blank []byte, err error) {
	blank, err = blankJSONC(src)
	if err != nil {
		return nil, nil, err
	}
	top, err = ParseJSON(blank)
	return top, blank, err
}

// blankJSONC turns comments and trailing commas into spaces, outside
// strings. An unterminated block comment is an error at its start.
func blankJSONC(src []byte) ([]byte, error) {
	out := bytes.Clone(src)
	// lastComma is a comma after a value with nothing after it yet but
	// whitespace and comments; prev is the last byte of JSON seen.
	lastComma, prev := -1, byte(0)
	for i := 0; i < len(out); i++ {
		c := out[i]
		switch {
		case c == '"':
			i = stringEnd(out, i)
			lastComma, prev = -1, '"'
		case c == '/' && i+1 < len(out) && out[i+1] == '/':
			j := i
			for j < len(out) && out[j] != '\n' && out[j] != '\r' {
				out[j] = ' '
				j++
			}
			i = j - 1
		case c == '/' && i+1 < len(out) && out[i+1] == '*':
			end := bytes.Index(out[i+2:], []byte("*/"))
			if end < 0 {
				line, col := LineCol(src, i)
				return nil, &SyntaxError{line, col, "unterminated /* comment"}
			}
			for j := i; j < i+2+end+2; j++ {
				if out[j] != '\n' && out[j] != '\r' {
					out[j] = ' '
				}
			}
			i += 2 + end + 1
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
		case c == ',':
			lastComma = -1
			if !bytes.ContainsRune([]byte("[{,:"), rune(prev)) {
				lastComma = i
			}
			prev = c
		case c == ']' || c == '}':
			if lastComma >= 0 {
				out[lastComma] = ' '
			}
			lastComma, prev = -1, c
		default:
			lastComma, prev = -1, c
		}
	}
	return out, nil
}

// stringEnd returns the offset of the closing quote of the string that
// opens at i, or the last offset when it is not closed (ParseJSON then
// reports it).
func stringEnd(src []byte, i int) int {
	for j := i + 1; j < len(src); j++ {
		switch src[j] {
		case '\\':
			j++
		case '"':
			return j
		}
	}
	return len(src) - 1
}
