package capsule

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/wakeproto/wake/tiers"
	"gopkg.in/yaml.v3"
)

// Heading is one H1 section of a capsule's body, as `wake capsule verify`
// reads it.
type Heading struct {
	Title string
	Line  int
	// Empty is true when the section holds nothing but blank lines and
	// HTML comments (a stub's guidance).
	Empty bool
	// Bullets are its top-level list items.
	Bullets []Bullet
}

// Bullet is one top-level list item of a section.
type Bullet struct {
	Text string
	Line int
}

// Ref is an artifact a capsule's body names: a file path or a commit.
type Ref struct {
	Kind  string // RefPath or RefCommit
	Value string // the path (slash-separated, cleaned, without a :line suffix) or the hash
	Line  int
}

// The kinds of [Ref].
const (
	RefPath   = "path"
	RefCommit = "commit"
)

// Scanned is a capsule read for verification: [Parse]'s reading and its
// problems, plus where things are and what the body names.
type Scanned struct {
	Capsule  Capsule
	Problems Errors // what Parse found wrong: findings, not a malformed file
	// FrontEnd is the byte offset just past the front matter's closing
	// line, where the body starts; CloseLine is that line's number.
	FrontEnd  int
	CloseLine int
	// Front is the text up to FrontEnd: the front matter with its two
	// "---" lines, from the file's first line.
	Front string
	Body  string
	// KeyLines are the lines of the front matter's top-level keys.
	KeyLines map[string]int
	Headings []Heading
	Refs     []Ref
}

// MalformedError is a capsule wake cannot read as one at all: no front
// matter block, front matter that is not YAML, text that is not UTF-8.
type MalformedError struct {
	Line int
	Msg  string
}

func (e *MalformedError) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Msg) }

// Scan reads data as a capsule for verification. A file that is not one
// at all is a [*MalformedError]; what is wrong in a capsule (a key or a
// section missing, a value of the wrong type) is in Problems.
func Scan(data []byte) (*Scanned, error) {
	if !utf8.Valid(data) {
		return nil, &MalformedError{invalidLine(data), "not UTF-8 text"}
	}
	if i := bytes.IndexByte(data, 0); i >= 0 {
		return nil, &MalformedError{bytes.Count(data[:i], []byte("\n")) + 1, "holds a NUL byte"}
	}
	s := &Scanned{}
	if err := s.front(data); err != nil {
		return nil, err
	}
	c, err := Parse(data)
	s.Capsule = c
	if es, ok := err.(Errors); ok {
		s.Problems = es
	} else if err != nil {
		return nil, &MalformedError{1, err.Error()}
	}
	s.Front, s.Body = string(data[:s.FrontEnd]), string(data[s.FrontEnd:])
	s.scanBody(s.CloseLine + 1)
	return s, nil
}

// front finds the front matter block and checks that it is a YAML
// mapping.
func (s *Scanned) front(data []byte) error {
	lines := bytes.SplitAfter(data, []byte("\n"))
	if len(lines[len(lines)-1]) == 0 {
		lines = lines[:len(lines)-1]
	}
	if len(lines) == 0 || trimLine(lines[0]) != "---" {
		return &MalformedError{1, "no front matter: a capsule starts with a --- line"}
	}
	off := len(lines[0])
	s.KeyLines = map[string]int{}
	for i, l := range lines[1:] {
		if m := keyRe().FindSubmatch(l); m != nil && s.KeyLines[string(m[1])] == 0 {
			s.KeyLines[string(m[1])] = i + 2
		}
		if trimLine(l) == "---" {
			s.CloseLine, s.FrontEnd = i+2, off+len(l)
			return yamlMapping(data[len(lines[0]):off])
		}
		off += len(l)
	}
	return &MalformedError{len(lines), "the front matter is not closed: no --- line after it"}
}

var keyRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_]*):`) })

var yamlLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^yaml: line (\d+): `) })

// yamlMapping reports front matter (starting at the file's line 2) that
// is not YAML, or not a mapping.
func yamlMapping(y []byte) error {
	var doc yaml.Node
	if err := yaml.Unmarshal(y, &doc); err != nil {
		msg, line := err.Error(), 1
		if m := yamlLine().FindStringSubmatch(msg); m != nil {
			n, _ := strconv.Atoi(m[1])
			line, msg = n+1, msg[len(m[0]):]
		}
		return &MalformedError{line, "front matter is not YAML: " + strings.TrimPrefix(msg, "yaml: ")}
	}
	if len(doc.Content) > 0 && doc.Content[0].Kind != yaml.MappingNode {
		return &MalformedError{doc.Content[0].Line + 1, "front matter is not a mapping of keys to values"}
	}
	return nil
}

func trimLine(l []byte) string { return strings.TrimRight(string(l), "\r\n \t") }

func invalidLine(data []byte) int {
	for i := 0; i < len(data); {
		r, n := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && n == 1 {
			return bytes.Count(data[:i], []byte("\n")) + 1
		}
		i += n
	}
	return 1
}

// clip shortens what a message quotes.
func clip(s string) string {
	if len(s) <= 60 {
		return s
	}
	return tiers.CutBytes(s, 57) + "..."
}
