// Package splice edits the files agent clients read (their JSON settings,
// their Markdown instructions) the way a person would: it adds or takes
// out one member, element or line and leaves every other byte as the user
// wrote it, so that what wake adds can be taken out again exactly. It is
// client-neutral: which member or line to add is the business of each
// wiring under clients/.
package splice

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// Node is a JSON value located in its source: enough to splice members and
// elements in and out while every other byte stays as the user wrote it.
type Node struct {
	Kind       byte // '{', '[', '"', or 'v' for a number, true, false or null
	Start, End int  // the value's bytes
	Depth      int  // nesting: the top-level value is 0
	Members    []Member
	Elems      []*Node
}

// Member is one member of an object.
type Member struct {
	Key      string
	KeyStart int
	Val      *Node
}

// Member returns the object's last member named key, as encoding/json
// would decode it, and its index.
func (n *Node) Member(key string) (Member, int, bool) {
	for i := len(n.Members) - 1; i >= 0; i-- {
		if n.Members[i].Key == key {
			return n.Members[i], i, true
		}
	}
	return Member{}, -1, false
}

// Len is the number of members or elements of a container.
func (n *Node) Len() int { return len(n.Members) + len(n.Elems) }

// span returns where item i starts (its key, for a member) and ends.
func (n *Node) span(i int) (int, int) {
	if n.Kind == '{' {
		return n.Members[i].KeyStart, n.Members[i].Val.End
	}
	return n.Elems[i].Start, n.Elems[i].End
}

// Inside is what lies between a container's brackets.
func (n *Node) Inside(src []byte) []byte { return src[n.Start+1 : n.End-1] }

// String returns the value of a string node; "" for any other.
func (n *Node) String(src []byte) string {
	var s string
	if n.Kind != '"' || json.Unmarshal(src[n.Start:n.End], &s) != nil {
		return ""
	}
	return s
}

// SyntaxError is malformed JSON at a line and column.
type SyntaxError struct {
	Line, Col int
	Msg       string
}

func (e *SyntaxError) Error() string { return fmt.Sprintf("%d:%d: %s", e.Line, e.Col, e.Msg) }

// ParseJSON parses src, which must be one JSON value, into located nodes.
// Malformed JSON is a *SyntaxError with its line and column. Numbers are
// not decoded, so any the grammar allows (1e400, -0) pass.
func ParseJSON(src []byte) (*Node, error) {
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
		line, col := LineCol(src, off)
		return nil, &SyntaxError{line, col, err.Error()}
	}
	p := &parser{src: src}
	n := p.value(0)
	if p.err != nil {
		line, col := LineCol(src, p.pos)
		return nil, &SyntaxError{line, col, p.err.Error()}
	}
	return n, nil
}

// LineCol gives the line and column of offset off, both from 1; the
// column counts characters, as an editor does, and a CR ending the
// previous line belongs to that line.
func LineCol(src []byte, off int) (int, int) {
	off = min(max(off, 0), len(src))
	line := 1 + bytes.Count(src[:off], []byte("\n"))
	return line, 1 + utf8.RuneCount(src[bytes.LastIndexByte(src[:off], '\n')+1:off])
}

// Blank reports whether src holds nothing but JSON whitespace.
func Blank(src []byte) bool { return len(bytes.Trim(src, " \t\r\n")) == 0 }

// parser walks JSON that encoding/json has already accepted; its own
// errors only guard against the two disagreeing.
type parser struct {
	src []byte
	pos int
	err error
}

func (p *parser) ws() {
	for p.pos < len(p.src) && bytes.IndexByte([]byte(" \t\r\n"), p.src[p.pos]) >= 0 {
		p.pos++
	}
}

func (p *parser) fail(msg string) *Node {
	if p.err == nil {
		p.err = errors.New(msg)
	}
	return &Node{Kind: 'v', Start: p.pos, End: p.pos}
}

func (p *parser) value(depth int) *Node {
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
		n := &Node{Kind: '"', Start: p.pos, Depth: depth}
		p.str()
		n.End = p.pos
		return n
	}
	n := &Node{Kind: 'v', Start: p.pos, Depth: depth}
	for p.pos < len(p.src) && bytes.IndexByte([]byte(",]} \t\r\n"), p.src[p.pos]) < 0 {
		p.pos++
	}
	n.End = p.pos
	return n
}

func (p *parser) str() {
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

func (p *parser) container(depth int, open, close byte) *Node {
	n := &Node{Kind: open, Start: p.pos, Depth: depth}
	p.pos++
	for p.err == nil {
		p.ws()
		if p.pos < len(p.src) && p.src[p.pos] == close {
			p.pos++
			n.End = p.pos
			return n
		}
		if n.Len() > 0 {
			if p.pos >= len(p.src) || p.src[p.pos] != ',' {
				return p.fail("expected a comma")
			}
			p.pos++
			p.ws()
		}
		if open == '[' {
			n.Elems = append(n.Elems, p.value(depth+1))
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
		n.Members = append(n.Members, Member{Key: key, KeyStart: ks, Val: p.value(depth + 1)})
	}
	return n
}
