package tiers

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// FrontMatter holds the known YAML front-matter keys (DESIGN section 1).
type FrontMatter struct {
	Summary       string
	MemoryType    string
	Sensitivity   string // one of the levels below, or "" when unset
	SourceOfTruth *bool
	ProjectID     string
	Session       string
	// Objective is a context capsule's primary_objective (package
	// capsule): the capsule's summary in the cold listing when it has no
	// summary of its own.
	Objective string
	// The fields of a session summary's front matter (see [Session]).
	NextPriority, OpenRisk, EmotionalRegister string
}

// Sensitivity levels.
const (
	Public       = "public"
	Internal     = "internal"
	Confidential = "confidential"
	Secret       = "secret"
)

// Level returns the document's sensitivity, internal when unset.
func (m FrontMatter) Level() string {
	if m.Sensitivity == "" {
		return Internal
	}
	return m.Sensitivity
}

var fmDelim = []byte("---")

// utf8BOM is the byte-order mark some editors (Windows' among them) put
// at the start of a UTF-8 file.
const utf8BOM = "\ufeff"

// trimBOM drops the byte-order marks data starts with: the one front
// matter reader must see the "---" an editor's BOM would hide.
func trimBOM(data []byte) []byte {
	for bytes.HasPrefix(data, []byte(utf8BOM)) {
		data = data[len(utf8BOM):]
	}
	return data
}

// SplitFrontMatter returns the YAML between a leading "---" line and the
// next "---" line, and the rest of the document, after any byte-order
// mark. ok is false when the document has no front matter block.
func SplitFrontMatter(data []byte) (yamlText, body []byte, ok bool) {
	data = trimBOM(data)
	first, rest, found := bytes.Cut(data, []byte("\n"))
	if !found || !bytes.Equal(bytes.TrimRight(first, "\r \t"), fmDelim) {
		return nil, data, false
	}
	off := 0
	for off <= len(rest) {
		line := rest[off:]
		end := bytes.IndexByte(line, '\n')
		next := len(rest)
		if end >= 0 {
			line, next = line[:end], off+end+1
		}
		if bytes.Equal(bytes.TrimRight(line, "\r \t"), fmDelim) {
			return rest[:off], rest[next:], true
		}
		if end < 0 {
			break
		}
		off = next
	}
	return nil, data, false
}

// ErrUnclosedFrontMatter is the error of a document whose first line opens
// a front matter block that no "---" line closes.
var ErrUnclosedFrontMatter = errors.New("front matter opened at line 1 is never closed (no closing --- line)")

// ParseFrontMatter decodes the front matter of data: the one reader of
// front matter, fail-closed. A document without front matter gives the
// zero FrontMatter and data as body. Keys are matched without regard to
// case, and a byte-order mark before the block is skipped. Anything that
// looks like front matter but does not read cleanly is an error, with the
// whole of data returned as body so the caller can still show the
// document: malformed YAML, a block opened and never closed, a block
// that does not start on the first line ("---" after a blank line, a
// space or an invisible character), an opening line of four dashes or
// more, CR-only line ends, a key given twice, a merge key, and a
// sensitivity that is not a level. Its keys, a sensitivity among them,
// are then unknown, and the policy treats the document as the strictest.
func ParseFrontMatter(data []byte) (FrontMatter, []byte, error) {
	m, body, err := parseFront(data)
	if err != nil {
		return FrontMatter{}, data, err
	}
	return m, body, nil
}

// parseFront is ParseFrontMatter with the body after a closed block kept
// on every error of the block's contents, for a reader (a session's) that
// shows what follows it.
func parseFront(data []byte) (FrontMatter, []byte, error) {
	y, body, ok := SplitFrontMatter(data)
	if !ok {
		switch why := lookalike(trimBOM(data)); {
		case why == ErrUnclosedFrontMatter.Error():
			return FrontMatter{}, data, ErrUnclosedFrontMatter
		case why != "":
			return FrontMatter{}, data, errors.New(why)
		}
		return FrontMatter{}, data, nil
	}
	m, err := decodeFront(y)
	return m, body, err
}

// lookalike says why the start of data, which holds no front matter
// block wake can read, still looks like one; "" when it does not.
func lookalike(data []byte) string {
	first, _, _ := bytes.Cut(data, []byte("\n"))
	if bytes.Equal(bytes.TrimRight(first, "\r \t"), fmDelim) {
		return ErrUnclosedFrontMatter.Error()
	}
	line, off := 1, 0
	for off < len(data) {
		r, n := utf8.DecodeRune(data[off:])
		if r == '\n' {
			line++
		}
		if !unicode.IsSpace(r) && !unicode.Is(unicode.Cf, r) {
			break
		}
		off += n
	}
	rest := data[off:]
	if !bytes.HasPrefix(rest, fmDelim) {
		return ""
	}
	head, _, _ := bytes.Cut(rest, []byte("\n"))
	switch {
	case off > 0:
		return fmt.Sprintf("line %d: a --- line after blank or invisible characters looks like front matter, which must start on the first line; the file is held back until the --- is on line 1 or removed", line)
	case bytes.IndexByte(bytes.TrimRight(first, "\r"), '\r') >= 0:
		return "line 1: front matter with lines ended by a carriage return alone cannot be read; save the file with LF or CRLF line ends"
	case bytes.HasPrefix(head, []byte("----")):
		return "line 1: a line of four or more dashes opens no front matter; front matter opens with exactly ---"
	}
	// The line is not quoted: it may hold what the block was to hide.
	return "line 1: --- followed by other text opens no front matter; front matter opens with a line of exactly ---"
}

// frontKeys maps each known key, in its normal form (see [normalKey]), to
// the field it fills.
var frontKeys = map[string]func(*FrontMatter) *string{
	"summary":            func(m *FrontMatter) *string { return &m.Summary },
	"memory_type":        func(m *FrontMatter) *string { return &m.MemoryType },
	"sensitivity":        func(m *FrontMatter) *string { return &m.Sensitivity },
	"project_id":         func(m *FrontMatter) *string { return &m.ProjectID },
	"session":            func(m *FrontMatter) *string { return &m.Session },
	"primary_objective":  func(m *FrontMatter) *string { return &m.Objective },
	"next_priority":      func(m *FrontMatter) *string { return &m.NextPriority },
	"open_risk":          func(m *FrontMatter) *string { return &m.OpenRisk },
	"emotional_register": func(m *FrontMatter) *string { return &m.EmotionalRegister },
	"source_of_truth":    nil,
}

// decodeFront decodes the YAML of a front matter block, whose first line
// is the file's line 2. On an error it returns the keys that did read.
func decodeFront(y []byte) (FrontMatter, error) {
	if m, ok := plainFront(y); ok {
		return m, nil
	}
	return decodeYAMLFront(y)
}

// decodeYAMLFront is decodeFront by the YAML decoder, for any front
// matter.
func decodeYAMLFront(y []byte) (FrontMatter, error) {
	var m FrontMatter
	var doc yaml.Node
	if err := yaml.Unmarshal(y, &doc); err != nil {
		msg := fileLines(err.Error())
		if !yamlLine().MatchString(msg) {
			// Some YAML errors name no line: name the block's.
			if n := bytes.Count(bytes.TrimSuffix(y, []byte("\n")), []byte("\n")) + 2; n > 2 {
				msg = fmt.Sprintf("lines 2-%d: %s", n, msg)
			} else {
				msg = "line 2: " + msg
			}
		}
		return m, fmt.Errorf("malformed front matter: %s", msg)
	}
	if len(doc.Content) == 0 {
		return m, nil
	}
	top := doc.Content[0]
	if top.Kind == yaml.ScalarNode && top.Tag == "!!null" {
		return m, nil
	}
	if top.Kind != yaml.MappingNode {
		return m, fmt.Errorf("malformed front matter: line %d: not a mapping of keys to values", top.Line+1)
	}
	// Every key is read, so that a reader that shows what it can (a
	// session's) has the keys that did read; the first error stands.
	var first error
	seen := map[string]int{}
	for i := 0; i+1 < len(top.Content); i += 2 {
		k, v := top.Content[i], top.Content[i+1]
		if err := decodeKey(&m, k, v, seen); err != nil && first == nil {
			first = err
		}
	}
	return m, first
}

// decodeKey decodes one key of the front matter into m.
func decodeKey(m *FrontMatter, k, v *yaml.Node, seen map[string]int) error {
	line := k.Line + 1
	if k.Kind != yaml.ScalarNode || k.Value == "<<" {
		return fmt.Errorf("malformed front matter: line %d: a merge key or a key that is not plain text; wake reads only plain keys", line)
	}
	key := normalKey(k.Value)
	field, known := frontKeys[key]
	if !known {
		if near(key, "sensitivity") {
			return fmt.Errorf("malformed front matter: line %d: key %q is not sensitivity; a misspelt sensitivity may hide a secret", line, k.Value)
		}
		return nil
	}
	if at := seen[key]; at > 0 {
		return fmt.Errorf("malformed front matter: line %d: key %s is given twice (first at line %d)", line, key, at)
	}
	seen[key] = line
	if v.Kind == yaml.AliasNode && v.Alias != nil {
		v = v.Alias
	}
	if v.Kind != yaml.ScalarNode {
		return fmt.Errorf("malformed front matter: line %d: %s: expected a single value", v.Line+1, key)
	}
	if key == "source_of_truth" {
		var b bool
		if err := v.Decode(&b); err != nil {
			return fmt.Errorf("malformed front matter: line %d: source_of_truth: expected true or false", v.Line+1)
		}
		m.SourceOfTruth = &b
		return nil
	}
	s := v.Value
	if v.Tag == "!!null" {
		s = ""
	}
	if key == "sensitivity" {
		level, ok := normalLevel(s)
		if !ok {
			return levelError(v.Line+1, s, level)
		}
		s = level
	}
	*field(m) = s
	return nil
}

// normalKey is a key as wake matches it: lower case, with no invisible
// characters, and "-" or a space taken for "_", so that Sensitivity,
// SENSITIVITY and memory-type name the keys they mean.
func normalKey(k string) string {
	k = strings.Map(func(r rune) rune {
		switch {
		case unicode.Is(unicode.Cf, r):
			return -1
		case r == '-' || unicode.IsSpace(r):
			return '_'
		}
		return unicode.ToLower(r)
	}, k)
	return strings.Trim(k, "_")
}

// normalLevel reads a sensitivity value without regard to case or
// invisible characters; "" is unset.
func normalLevel(v string) (string, bool) {
	v = strings.TrimSpace(strings.Map(func(r rune) rune {
		if unicode.Is(unicode.Cf, r) {
			return -1
		}
		return unicode.ToLower(r)
	}, v))
	switch v {
	case "", Public, Internal, Confidential, Secret:
		return v, true
	}
	return v, false
}

// LevelError is a sensitivity value that is not a level. Value and Want
// are set only when the value is a misspelt level (Want the nearest one):
// any other text may be what the document holds back, and is not quoted.
type LevelError struct {
	Line        int
	Value, Want string
}

func (e *LevelError) Error() string {
	if e.Want == "" {
		return fmt.Sprintf("front matter: line %d: sensitivity is not public, internal, confidential or secret", e.Line)
	}
	return fmt.Sprintf("front matter: line %d: sensitivity %q is not public, internal, confidential or secret; did you mean %s?", e.Line, e.Value, e.Want)
}

// levelError is the error of the sensitivity value raw (level once
// normalized) on line, naming the level it is nearest to, if any.
func levelError(line int, raw, level string) error {
	e := &LevelError{Line: line}
	best := 3
	for _, l := range []string{Public, Internal, Confidential, Secret} {
		if d := distance(level, l); near(level, l) && d < best {
			e.Value, e.Want, best = raw, l, d
		}
	}
	return e
}

// near reports whether key is within two edits of want without being it:
// a misspelling of want rather than a key of the user's own.
func near(key, want string) bool {
	if key == want || len(key) < len(want)-2 || len(key) > len(want)+2 {
		return false
	}
	return distance(key, want) <= 2
}

// distance is the Levenshtein distance between key and want, in bytes.
func distance(key, want string) int {
	prev := make([]int, len(want)+1)
	cur := make([]int, len(want)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(key); i++ {
		cur[0] = i
		for j := 1; j <= len(want); j++ {
			cost := 1
			if key[i-1] == want[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(want)]
}

func isValidUTF8(b []byte) bool { return utf8.Valid(b) }
