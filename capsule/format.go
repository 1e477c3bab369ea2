// Package capsule is the context capsule of issue 14: a small, auditable
// snapshot of the memory that a subagent reads at its start so that it
// continues the session it was spawned from. A capsule is a Markdown file
// under cold/capsules/<branch>/ with a front matter block of fixed keys and
// a body of fixed H1 sections ([Outline]).
//
// This file holds the format (Parse, Render) and the paths; the builder,
// which fills a capsule from the memory, is in build.go.
package capsule

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"
)

// Outline is the fixed list of a capsule's sections, in order: every
// capsule has each of them once, as an H1 heading.
var Outline = []string{
	MissionSnapshot,
	KeyDecisions,
	ActiveWorkstreams,
	PendingActions,
	KnowledgeBase,
	Risks,
	TranscriptHighlights,
	ExploratoryThreads,
}

// The section titles of [Outline].
const (
	MissionSnapshot      = "Mission Snapshot"
	KeyDecisions         = "Key Decisions & Rationale"
	ActiveWorkstreams    = "Active Workstreams"
	PendingActions       = "Pending Actions"
	KnowledgeBase        = "Knowledge Base"
	Risks                = "Risks & Watchpoints"
	TranscriptHighlights = "Transcript Highlights"
	ExploratoryThreads   = "Exploratory Threads & User Preferences"
)

// Version is the format version wake writes in the front matter.
const Version = "1"

// Empty is what [Render] writes in a section with nothing in it, so that a
// reader sees the section was considered; [Parse] reads it back as "".
const Empty = "_Nothing recorded._"

// The front matter keys, in the order a capsule writes them. memory_type
// (session, the wake-up packet's type for session material, which it
// leaves out by default) and files (the hashes `wake capsule verify`
// records) are optional, as capsules written before them lack them; the
// others are required.
const (
	KeyBranch           = "branch"
	KeySourceSession    = "source_session"
	KeyCreatedAt        = "created_at"
	KeyPrimaryObjective = "primary_objective"
	KeyTokenBudget      = "token_budget"
	KeyVersion          = "version"
	KeyMemoryType       = "memory_type"
	KeyFiles            = "files"
)

// MemoryType is the memory_type wake writes in a capsule: session
// material, by the wake-up packet's seed.
const MemoryType = "session"

var frontKeys = []string{KeyBranch, KeySourceSession, KeyCreatedAt, KeyPrimaryObjective, KeyTokenBudget, KeyVersion, KeyMemoryType, KeyFiles}

// optionalKeys are the front matter keys a capsule may lack.
var optionalKeys = map[string]bool{KeyMemoryType: true, KeyFiles: true}

// requiredKeys are the front matter keys every capsule has, in order.
func requiredKeys() []string {
	var out []string
	for _, k := range frontKeys {
		if !optionalKeys[k] {
			out = append(out, k)
		}
	}
	return out
}

// FrontMatter is a capsule's metadata block.
type FrontMatter struct {
	Branch           string // the git branch as git names it
	SourceSession    string // the session the capsule continues; may be ""
	CreatedAt        time.Time
	PrimaryObjective string
	TokenBudget      int    // the body's budget in tokens
	Version          string // Version for the capsules wake writes
	MemoryType       string // [MemoryType] for the capsules wake writes; "" in older ones
	// Files are the hashes of files the capsule refers to, as verify
	// records them; nil when none were recorded.
	Files []FileHash
}

// FileHash is one entry of the front matter's files: a path relative to
// the project and the hex SHA-256 of its content.
type FileHash struct {
	Path   string
	SHA256 string
}

// Section is one H1 section of the body.
type Section struct {
	Title string
	Body  string // the text under the heading, trimmed; "" for [Empty]
	Line  int    // 1-based line of the heading; 0 when not parsed
}

// Capsule is a parsed or built capsule. Sections follow [Outline], one a
// title.
type Capsule struct {
	Front    FrontMatter
	Sections []Section
}

// New returns a capsule with front matter fm and every section of
// [Outline], empty.
func New(fm FrontMatter) Capsule {
	c := Capsule{Front: fm, Sections: make([]Section, len(Outline))}
	for i, t := range Outline {
		c.Sections[i].Title = t
	}
	return c
}

// Section returns the body of the section titled title, or "".
func (c Capsule) Section(title string) string {
	for _, s := range c.Sections {
		if s.Title == title {
			return s.Body
		}
	}
	return ""
}

// Set sets the body of the section titled title, adding it when c does not
// have it.
func (c *Capsule) Set(title, body string) {
	for i := range c.Sections {
		if c.Sections[i].Title == title {
			c.Sections[i].Body = body
			return
		}
	}
	c.Sections = append(c.Sections, Section{Title: title, Body: body})
}

// Error is one problem of a capsule file, at a 1-based line (0 when the
// problem is the file's as a whole).
type Error struct {
	Line int
	Msg  string
}

func (e Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("line %d: %s", e.Line, e.Msg)
	}
	return e.Msg
}

// Errors are every problem [Parse] found, in file order.
type Errors []Error

func (es Errors) Error() string {
	parts := make([]string, len(es))
	for i, e := range es {
		parts[i] = e.Error()
	}
	return strings.Join(parts, "; ")
}

// Parse reads a capsule. It returns what it could read along with every
// problem, as [Errors]: a missing or unclosed front matter block, a key
// missing, unknown, repeated or out of order, a value of the wrong type,
// a section unknown, repeated, out of order or missing. Headings inside
// fenced code blocks are text, not sections.
func Parse(data []byte) (Capsule, error) {
	var errs Errors
	c := Capsule{}
	y, body, bodyLine, ok := splitFront(data)
	if !ok {
		errs = append(errs, Error{Line: 1, Msg: "no front matter: a capsule starts with a --- line, its keys (" +
			strings.Join(requiredKeys(), ", ") + ") and a closing --- line"})
		body, bodyLine = data, 1
	} else {
		c.Front, errs = parseFront(y)
	}
	var serrs Errors
	c.Sections, serrs = parseSections(body, bodyLine)
	errs = append(errs, serrs...)
	if len(errs) > 0 {
		return c, errs
	}
	return c, nil
}

// splitFront cuts data into the YAML of its front matter and the body,
// with the line the body starts at. ok is false without a closed block.
func splitFront(data []byte) (y, body []byte, bodyLine int, ok bool) {
	first, rest, found := bytes.Cut(data, []byte("\n"))
	if !found || strings.TrimRight(string(first), "\r \t") != "---" {
		return nil, nil, 0, false
	}
	line := 2
	off := 0
	for off <= len(rest) {
		l := rest[off:]
		next := len(rest)
		if i := bytes.IndexByte(l, '\n'); i >= 0 {
			l, next = l[:i], off+i+1
		} else if off == len(rest) {
			break
		}
		if strings.TrimRight(string(l), "\r \t") == "---" {
			return rest[:off], rest[next:], line + 1, true
		}
		line++
		off = next
		if next == len(rest) {
			break
		}
	}
	return nil, nil, 0, false
}

// parseFront decodes the front matter's YAML; lines are the file's (the
// YAML starts at line 2).
func parseFront(y []byte) (FrontMatter, Errors) {
	var fm FrontMatter
	var doc yaml.Node
	if err := yaml.Unmarshal(y, &doc); err != nil {
		return fm, Errors{{Line: 1, Msg: "front matter is not valid YAML: " + strings.TrimPrefix(err.Error(), "yaml: ")}}
	}
	if len(doc.Content) == 0 {
		return fm, Errors{{Line: 1, Msg: "front matter is empty; it needs " + strings.Join(requiredKeys(), ", ")}}
	}
	m := doc.Content[0]
	if m.Kind != yaml.MappingNode {
		return fm, Errors{{Line: m.Line + 1, Msg: "front matter is not a mapping of keys to values"}}
	}
	var errs Errors
	seen := map[string]int{}
	last := -1
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		line := k.Line + 1
		idx := indexOf(frontKeys, k.Value)
		switch {
		case idx < 0:
			errs = append(errs, Error{Line: line, Msg: fmt.Sprintf("front matter key %q is not a capsule key (%s)", k.Value, strings.Join(frontKeys, ", "))})
			continue
		case seen[k.Value] > 0:
			errs = append(errs, Error{Line: line, Msg: fmt.Sprintf("front matter key %s is repeated (first at line %d)", k.Value, seen[k.Value])})
			continue
		case idx < last:
			errs = append(errs, Error{Line: line, Msg: fmt.Sprintf("front matter key %s is out of order: the keys go %s", k.Value, strings.Join(frontKeys, ", "))})
		}
		seen[k.Value] = line
		last = max(last, idx)
		if msg := decodeKey(&fm, k.Value, v); msg != "" {
			errs = append(errs, Error{Line: v.Line + 1, Msg: "front matter key " + k.Value + ": " + msg})
		}
	}
	for _, k := range frontKeys {
		if !optionalKeys[k] && seen[k] == 0 {
			errs = append(errs, Error{Line: 1, Msg: "front matter has no " + k})
		}
	}
	return fm, errs
}

func decodeKey(fm *FrontMatter, key string, v *yaml.Node) string {
	if key == KeyFiles {
		if v.Kind == yaml.ScalarNode && v.Tag == "!!null" {
			return ""
		}
		if v.Kind != yaml.MappingNode {
			return "expected a mapping of paths to sha256 hashes"
		}
		for i := 0; i+1 < len(v.Content); i += 2 {
			p, h := v.Content[i], v.Content[i+1]
			if h.Kind != yaml.ScalarNode || !isHex(h.Value, 64) {
				return fmt.Sprintf("%s: expected a sha256 hash of 64 hex digits", p.Value)
			}
			fm.Files = append(fm.Files, FileHash{Path: p.Value, SHA256: h.Value})
		}
		return ""
	}
	if v.Kind != yaml.ScalarNode {
		return "expected a single value"
	}
	s := v.Value
	if v.Tag == "!!null" {
		s = ""
	}
	switch key {
	case KeyBranch:
		if s == "" {
			return "is empty"
		}
		fm.Branch = s
	case KeySourceSession:
		fm.SourceSession = s
	case KeyMemoryType:
		if s != MemoryType {
			return fmt.Sprintf("%q: a capsule is session material (memory_type: %s)", s, MemoryType)
		}
		fm.MemoryType = s
	case KeyCreatedAt:
		t, err := time.Parse(time.RFC3339, s)
		if err != nil {
			return fmt.Sprintf("%q is not a UTC time such as 2026-11-22T22:30:00Z", s)
		}
		fm.CreatedAt = t.UTC()
	case KeyPrimaryObjective:
		if strings.TrimSpace(s) == "" {
			return "is empty"
		}
		fm.PrimaryObjective = s
	case KeyTokenBudget:
		n, err := strconv.Atoi(s)
		if err != nil || n <= 0 {
			return fmt.Sprintf("%q is not a positive number of tokens", s)
		}
		fm.TokenBudget = n
	case KeyVersion:
		if s == "" {
			return "is empty"
		}
		fm.Version = s
	}
	return ""
}

func isHex(s string, n int) bool {
	if len(s) != n {
		return false
	}
	for _, r := range s {
		if !strings.ContainsRune("0123456789abcdef", r) {
			return false
		}
	}
	return true
}

func indexOf(list []string, s string) int {
	for i, e := range list {
		if e == s {
			return i
		}
	}
	return -1
}

// parseSections reads the H1 sections of body, whose first line is the
// file's line first.
func parseSections(body []byte, first int) ([]Section, Errors) {
	var errs Errors
	var secs []Section
	var cur *Section
	var text []string
	fence := ""
	flush := func() {
		if cur != nil {
			b := strings.TrimSpace(strings.Join(text, "\n"))
			if b == Empty {
				b = ""
			}
			cur.Body = b
			secs = append(secs, *cur)
		}
		text = nil
	}
	seen := map[string]int{}
	last := -1
	stray := false
	lines := strings.Split(string(body), "\n")
	for i, l := range lines {
		line := first + i
		l = strings.TrimRight(l, "\r")
		trimmed := strings.TrimLeft(l, " ")
		if f := fenceOf(trimmed); f != "" && len(l)-len(trimmed) < 4 {
			switch {
			case fence == "":
				fence = f
			case f[0] == fence[0] && len(f) >= len(fence) && strings.TrimSpace(trimmed[len(f):]) == "":
				fence = ""
			}
		}
		if fence != "" || !strings.HasPrefix(l, "# ") {
			if cur == nil {
				if strings.TrimSpace(l) != "" && !stray {
					errs = append(errs, Error{Line: line, Msg: "text before the first section; the body starts with # " + Outline[0]})
					stray = true
				}
				continue
			}
			text = append(text, l)
			continue
		}
		title := strings.TrimSpace(strings.TrimRight(strings.TrimSpace(l[2:]), "#"))
		idx := indexOf(Outline, title)
		switch {
		case idx < 0:
			errs = append(errs, Error{Line: line, Msg: fmt.Sprintf("section %q is not one of the capsule's (%s)", title, strings.Join(Outline, ", "))})
			if cur != nil {
				text = append(text, l)
			}
			continue
		case seen[title] > 0:
			errs = append(errs, Error{Line: line, Msg: fmt.Sprintf("section %q is repeated (first at line %d)", title, seen[title])})
		case idx < last:
			errs = append(errs, Error{Line: line, Msg: fmt.Sprintf("section %q is out of order: it comes before %q", title, Outline[last])})
		}
		flush()
		if seen[title] == 0 {
			seen[title] = line
		}
		last = max(last, idx)
		cur = &Section{Title: title, Line: line}
	}
	flush()
	end := first + len(lines) - 1
	for _, t := range Outline {
		if seen[t] == 0 {
			errs = append(errs, Error{Line: end, Msg: fmt.Sprintf("section %q is missing", t)})
		}
	}
	return secs, errs
}

// fenceOf returns the fence that opens or closes a code block at the
// start of s (``` or ~~~, three or more), or "".
func fenceOf(s string) string {
	for _, c := range []byte{'`', '~'} {
		n := 0
		for n < len(s) && s[n] == c {
			n++
		}
		if n >= 3 {
			return s[:n]
		}
	}
	return ""
}

// Render writes c as a capsule file: the front matter in the order of its
// keys, then each section as an H1 heading with its body ([Empty] for an
// empty one). Parse(Render(c)) gives c back, lines aside.
func Render(c Capsule) []byte {
	var b bytes.Buffer
	b.WriteString("---\n")
	b.Write(RenderFront(c.Front))
	b.WriteString("---\n")
	for i, s := range c.Sections {
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString(RenderSection(s))
	}
	return b.Bytes()
}

// RenderSection writes one section: its heading, a blank line, its body
// ([Empty] when empty) and a newline.
func RenderSection(s Section) string {
	body := strings.TrimSpace(s.Body)
	if body == "" {
		body = Empty
	}
	return "# " + s.Title + "\n\n" + body + "\n"
}

// RenderFront writes the YAML of the front matter (without its --- lines).
func RenderFront(fm FrontMatter) []byte {
	m := &yaml.Node{Kind: yaml.MappingNode}
	add := func(k string, v *yaml.Node) {
		m.Content = append(m.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: k}, v)
	}
	str := func(s string) *yaml.Node {
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s}
	}
	add(KeyBranch, str(fm.Branch))
	add(KeySourceSession, str(fm.SourceSession))
	add(KeyCreatedAt, &yaml.Node{Kind: yaml.ScalarNode, Value: fm.CreatedAt.UTC().Format(time.RFC3339)})
	add(KeyPrimaryObjective, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: fm.PrimaryObjective, Style: yaml.DoubleQuotedStyle})
	add(KeyTokenBudget, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.Itoa(fm.TokenBudget)})
	add(KeyVersion, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: fm.Version, Style: yaml.DoubleQuotedStyle})
	if fm.MemoryType != "" {
		add(KeyMemoryType, str(fm.MemoryType))
	}
	if len(fm.Files) > 0 {
		files := &yaml.Node{Kind: yaml.MappingNode}
		for _, f := range fm.Files {
			files.Content = append(files.Content, str(f.Path), str(f.SHA256))
		}
		add(KeyFiles, files)
	}
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(m); err != nil {
		// A mapping of scalars always encodes; this is a bug.
		panic("capsule: front matter: " + err.Error())
	}
	return b.Bytes()
}
