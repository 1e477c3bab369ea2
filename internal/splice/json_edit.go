package splice

import (
	"bytes"
	"encoding/json"
	"strings"
)

// Style is how a file lays its JSON out, for the text wake inserts: the
// indentation of one level and the line ending.
type Style struct{ Unit, EOL string }

// StyleOf reads the style of src, whose top-level value is top.
func StyleOf(src []byte, top *Node) Style {
	return Style{indentUnit(src, top), LineEnding(src)}
}

// Indent is the indentation of a line at depth.
func (st Style) Indent(depth int) string { return strings.Repeat(st.Unit, depth) }

// indentUnit guesses the file's indentation from the top-level object's
// first member, two spaces when it cannot tell.
func indentUnit(src []byte, top *Node) string {
	if top.Kind != '{' || len(top.Members) == 0 {
		return "  "
	}
	gap := src[top.Start+1 : top.Members[0].KeyStart]
	i := bytes.LastIndexByte(gap, '\n')
	if i < 0 || len(bytes.Trim(gap[i+1:], " \t")) > 0 || i+1 == len(gap) {
		return "  "
	}
	return string(gap[i+1:])
}

// lastBreak returns where the last line break inside an empty container
// begins (at the CR of a CRLF), or -1.
func lastBreak(src []byte, c *Node) int {
	i := bytes.LastIndexByte(c.Inside(src), '\n')
	if i < 0 {
		return -1
	}
	at := c.Start + 1 + i
	if at > c.Start+1 && src[at-1] == '\r' {
		at--
	}
	return at
}

// Insert adds item, rendered for its place (a member as `"key": value`,
// or an element), as the last item of container c in src, on a line of
// its own, in the file's style. Where c holds other items, [Node.Remove] of
// the new one gives back src exactly. An empty c cannot be told from the
// result ("{}" and "{\n}" fill alike): [Node.SetInside] with what was
// inside it does.
func (c *Node) Insert(src []byte, st Style, item string) []byte {
	in := st.Indent(c.Depth + 1)
	if n := c.Len(); n > 0 {
		_, at := c.span(n - 1)
		return splice(src, at, at, ","+st.EOL+in+item)
	}
	if at := lastBreak(src, c); at >= 0 {
		return splice(src, at, at, st.EOL+in+item)
	}
	return splice(src, c.End-1, c.End-1, st.EOL+in+item+st.EOL+st.Indent(c.Depth))
}

// SetInside replaces what lies between the brackets of container c.
func (c *Node) SetInside(src []byte, inside string) []byte {
	return splice(src, c.Start+1, c.End-1, inside)
}

// Remove deletes item i of container c with the separator that goes with
// it: the inverse of [Node.Insert] for the last of several items. The only
// item goes with its line and, when the closing bracket is then alone on
// a line of its own that a single-line container did not have, that line
// break too: a guess, for when nothing says what was there.
func (c *Node) Remove(src []byte, i int, st Style) []byte {
	start, end := c.span(i)
	switch n := c.Len(); {
	case n == 1:
		from := c.Start + 1
		if j := bytes.LastIndexByte(src[from:start], '\n'); j >= 0 {
			from += j
			if from > c.Start+1 && src[from-1] == '\r' {
				from--
			}
		}
		closer := c.End - 1
		pre, post := src[c.Start+1:from], src[end:closer]
		if string(post) == st.EOL+st.Indent(c.Depth) && !bytes.ContainsRune(pre, '\n') {
			end = closer
		}
		return splice(src, from, end, "")
	case i == n-1:
		_, prevEnd := c.span(i - 1)
		return splice(src, prevEnd, end, "")
	default:
		next, _ := c.span(i + 1)
		return splice(src, start, next, "")
	}
}

func splice(src []byte, from, to int, text string) []byte {
	out := make([]byte, 0, len(src)-(to-from)+len(text))
	out = append(out, src[:from]...)
	out = append(out, text...)
	return append(out, src[to:]...)
}

// Marshal renders v as indented JSON for a value at depth, in the file's
// style. v must be one of the caller's own fixed structures: one that
// cannot be encoded is a bug, and panics.
func Marshal(v any, st Style, depth int) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent(st.Indent(depth), st.Unit)
	if err := enc.Encode(v); err != nil {
		panic(err)
	}
	// Strings are escaped, so every newline is a line break.
	return strings.ReplaceAll(string(bytes.TrimRight(b.Bytes(), "\n")), "\n", st.EOL)
}
