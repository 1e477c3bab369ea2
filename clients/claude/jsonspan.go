package claude

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// jnode is a JSON value located in its source: enough to splice members and
// elements in and out while every other byte stays as the user wrote it.
type jnode struct {
	kind       byte // '{', '[', '"', or 'v' for a number, true, false or null
	start, end int  // the value's bytes
	depth      int  // nesting: the top-level value is 0
	members    []jmember
	elems      []*jnode
}

// jmember is one member of an object.
type jmember struct {
	key      string
	keyStart int
	val      *jnode
}

// member returns the object's last member named key, as encoding/json
// would decode it.
func (n *jnode) member(key string) (jmember, int, bool) {
	for i := len(n.members) - 1; i >= 0; i-- {
		if n.members[i].key == key {
			return n.members[i], i, true
		}
	}
	return jmember{}, -1, false
}

// itemCount is the number of members or elements of a container.
func (n *jnode) itemCount() int { return len(n.members) + len(n.elems) }

// itemSpan returns where item i starts (its key, for a member) and ends.
func (n *jnode) itemSpan(i int) (int, int) {
	if n.kind == '{' {
		return n.members[i].keyStart, n.members[i].val.end
	}
	return n.elems[i].start, n.elems[i].end
}

// jsonSyntaxError is malformed JSON at a line and column.
type jsonSyntaxError struct {
	line, col int
	msg       string
}

func (e *jsonSyntaxError) Error() string { return fmt.Sprintf("%d:%d: %s", e.line, e.col, e.msg) }

// parseJSONSpans parses src, which must be one JSON value, into located
// nodes. Malformed JSON is a *jsonSyntaxError with its line and column.
// Numbers are not decoded, so any the grammar allows (1e400, -0) pass.
func parseJSONSpans(src []byte) (*jnode, error) {
	// A RawMessage only checks the syntax: decoding into any would turn
	// numbers into float64 and refuse valid JSON such as 1e400.
	var raw json.RawMessage
	if err := json.Unmarshal(src, &raw); err != nil {
		off := len(src)
		var se *json.SyntaxError
		if errors.As(err, &se) && !strings.Contains(se.Error(), "unexpected end") {
			// Offset is just past the offending character.
			off = int(se.Offset) - 1
		}
		line, col := lineCol(src, off)
		return nil, &jsonSyntaxError{line, col, err.Error()}
	}
	p := &jparser{src: src}
	n := p.value(0)
	if p.err != nil {
		line, col := lineCol(src, p.pos)
		return nil, &jsonSyntaxError{line, col, p.err.Error()}
	}
	return n, nil
}

// lineCol gives the line and column of offset off, both from 1; the
// column counts characters, as an editor does, and a CR ending the
// previous line belongs to that line.
func lineCol(src []byte, off int) (int, int) {
	off = min(max(off, 0), len(src))
	line := 1 + bytes.Count(src[:off], []byte("\n"))
	return line, 1 + utf8.RuneCount(src[bytes.LastIndexByte(src[:off], '\n')+1:off])
}

// jparser walks JSON that encoding/json has already accepted; its own
// errors only guard against the two disagreeing.
type jparser struct {
	src []byte
	pos int
	err error
}

func (p *jparser) ws() {
	for p.pos < len(p.src) && bytes.IndexByte([]byte(" \t\r\n"), p.src[p.pos]) >= 0 {
		p.pos++
	}
}

func (p *jparser) fail(msg string) *jnode {
	if p.err == nil {
		p.err = errors.New(msg)
	}
	return &jnode{kind: 'v', start: p.pos, end: p.pos}
}

func (p *jparser) value(depth int) *jnode {
	p.ws()
	if p.err != nil || p.pos >= len(p.src) {
		return p.fail("unexpected end of JSON")
	}
	switch p.src[p.pos] {
	case '{':
		return p.container(depth, '{', '}')
	case '[':
		return p.container(depth, '[', ']')
	case '"':
		n := &jnode{kind: '"', start: p.pos, depth: depth}
		p.str()
		n.end = p.pos
		return n
	}
	n := &jnode{kind: 'v', start: p.pos, depth: depth}
	for p.pos < len(p.src) && bytes.IndexByte([]byte(",]} \t\r\n"), p.src[p.pos]) < 0 {
		p.pos++
	}
	n.end = p.pos
	return n
}

func (p *jparser) str() {
	p.pos++ // the opening quote
	for p.pos < len(p.src) {
		switch p.src[p.pos] {
		case '\\':
			p.pos += 2
			continue
		case '"':
			p.pos++
			return
		}
		p.pos++
	}
	p.fail("unterminated string")
}

func (p *jparser) container(depth int, open, close byte) *jnode {
	n := &jnode{kind: open, start: p.pos, depth: depth}
	p.pos++
	for p.err == nil {
		p.ws()
		if p.pos < len(p.src) && p.src[p.pos] == close {
			p.pos++
			n.end = p.pos
			return n
		}
		if n.itemCount() > 0 {
			if p.pos >= len(p.src) || p.src[p.pos] != ',' {
				return p.fail("expected a comma")
			}
			p.pos++
			p.ws()
		}
		if open == '[' {
			n.elems = append(n.elems, p.value(depth+1))
			continue
		}
		ks := p.pos
		p.str()
		var key string
		if err := json.Unmarshal(p.src[ks:p.pos], &key); err != nil {
			return p.fail("bad object key")
		}
		p.ws()
		if p.pos >= len(p.src) || p.src[p.pos] != ':' {
			return p.fail("expected a colon")
		}
		p.pos++
		n.members = append(n.members, jmember{key: key, keyStart: ks, val: p.value(depth + 1)})
	}
	return n
}

// jstyle is how a file lays its JSON out, for the text wake inserts: the
// indentation of one level and the line ending.
type jstyle struct{ unit, eol string }

func styleOf(src []byte, top *jnode) jstyle {
	return jstyle{indentUnit(src, top), lineEnding(src)}
}

// indentUnit guesses the file's indentation from the top-level object's
// first member, two spaces when it cannot tell.
func indentUnit(src []byte, top *jnode) string {
	if top.kind != '{' || len(top.members) == 0 {
		return "  "
	}
	gap := src[top.start+1 : top.members[0].keyStart]
	i := bytes.LastIndexByte(gap, '\n')
	if i < 0 || len(bytes.Trim(gap[i+1:], " \t")) > 0 || i+1 == len(gap) {
		return "  "
	}
	return string(gap[i+1:])
}

func indent(unit string, depth int) string { return string(bytes.Repeat([]byte(unit), depth)) }

// inside is what lies between a container's brackets.
func (n *jnode) inside(src []byte) []byte { return src[n.start+1 : n.end-1] }

// lastBreak returns where the last line break inside an empty container
// begins (at the CR of a CRLF), or -1.
func lastBreak(src []byte, c *jnode) int {
	i := bytes.LastIndexByte(c.inside(src), '\n')
	if i < 0 {
		return -1
	}
	at := c.start + 1 + i
	if at > c.start+1 && src[at-1] == '\r' {
		at--
	}
	return at
}

// insertItem adds item, rendered for its place (a member as `"key": value`,
// or an element), as the last item of container c, on a line of its own,
// in the file's style. Where c holds other items, [removeItem] of the new
// one gives back src exactly. An empty c cannot be told from the result
// ("{}" and "{\n}" fill alike): [setInside] with what was inside it does.
func insertItem(src []byte, c *jnode, st jstyle, item string) []byte {
	in := indent(st.unit, c.depth+1)
	if n := c.itemCount(); n > 0 {
		_, at := c.itemSpan(n - 1)
		return splice(src, at, at, ","+st.eol+in+item)
	}
	if at := lastBreak(src, c); at >= 0 {
		return splice(src, at, at, st.eol+in+item)
	}
	return splice(src, c.end-1, c.end-1, st.eol+in+item+st.eol+indent(st.unit, c.depth))
}

// setInside replaces what lies between the brackets of container c.
func setInside(src []byte, c *jnode, inside string) []byte {
	return splice(src, c.start+1, c.end-1, inside)
}

// removeItem deletes item i of container c with the separator that goes
// with it: the inverse of [insertItem] for the last of several items. The
// only item goes with its line and, when the closing bracket is then alone
// on a line of its own that a single-line container did not have, that
// line break too: a guess, for when nothing says what was there.
func removeItem(src []byte, c *jnode, i int, st jstyle) []byte {
	start, end := c.itemSpan(i)
	switch n := c.itemCount(); {
	case n == 1:
		from := c.start + 1
		if j := bytes.LastIndexByte(src[from:start], '\n'); j >= 0 {
			from += j
			if from > c.start+1 && src[from-1] == '\r' {
				from--
			}
		}
		closer := c.end - 1
		pre, post := src[c.start+1:from], src[end:closer]
		if string(post) == st.eol+indent(st.unit, c.depth) && !bytes.ContainsRune(pre, '\n') {
			end = closer
		}
		return splice(src, from, end, "")
	case i == n-1:
		_, prevEnd := c.itemSpan(i - 1)
		return splice(src, prevEnd, end, "")
	default:
		next, _ := c.itemSpan(i + 1)
		return splice(src, start, next, "")
	}
}

func splice(src []byte, from, to int, text string) []byte {
	out := make([]byte, 0, len(src)-(to-from)+len(text))
	out = append(out, src[:from]...)
	out = append(out, text...)
	return append(out, src[to:]...)
}

// marshalAt renders v as indented JSON for a value at depth, in the
// file's style.
func marshalAt(v any, st jstyle, depth int) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent(indent(st.unit, depth), st.unit)
	if err := enc.Encode(v); err != nil {
		// Only wake's own fixed structures are rendered here.
		panic(err)
	}
	// Strings are escaped, so every newline is a line break.
	return strings.ReplaceAll(string(bytes.TrimRight(b.Bytes(), "\n")), "\n", st.eol)
}
