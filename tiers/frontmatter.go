package tiers

import (
	"bytes"
	"errors"
	"fmt"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// FrontMatter holds the known YAML front-matter keys (DESIGN section 1).
type FrontMatter struct {
	Summary       string `yaml:"summary"`
	MemoryType    string `yaml:"memory_type"`
	Sensitivity   string `yaml:"sensitivity"`
	SourceOfTruth *bool  `yaml:"source_of_truth"`
	ProjectID     string `yaml:"project_id"`
	Session       string `yaml:"session"`
	// Objective is a context capsule's primary_objective (package
	// capsule): the capsule's summary in the cold listing when it has no
	// summary of its own.
	Objective string `yaml:"primary_objective"`
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

// SplitFrontMatter returns the YAML between a leading "---" line and the
// next "---" line, and the rest of the document. ok is false when the
// document has no front matter block.
func SplitFrontMatter(data []byte) (yamlText, body []byte, ok bool) {
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

// ParseFrontMatter decodes the front matter of data. A document without
// front matter gives the zero FrontMatter and data as body. Malformed YAML,
// and a block opened but never closed, are errors, with the whole of data
// returned as body so the caller can still show the document. An unclosed
// block is not "no front matter": its keys (a sensitivity among them) are
// unknown, and the policy must treat it as the strictest.
func ParseFrontMatter(data []byte) (FrontMatter, []byte, error) {
	var m FrontMatter
	y, body, ok := SplitFrontMatter(data)
	if !ok {
		if startsFrontMatter(data) {
			return m, data, ErrUnclosedFrontMatter
		}
		return m, data, nil
	}
	if err := yaml.Unmarshal(y, &m); err != nil {
		return FrontMatter{}, data, fmt.Errorf("malformed front matter: %v", err)
	}
	switch m.Sensitivity {
	case "", Public, Internal, Confidential, Secret:
	default:
		return m, body, fmt.Errorf("front matter: sensitivity %q is not public, internal, confidential or secret", m.Sensitivity)
	}
	return m, body, nil
}

func startsFrontMatter(data []byte) bool {
	first, _, _ := bytes.Cut(data, []byte("\n"))
	return bytes.Equal(bytes.TrimRight(first, "\r \t"), fmDelim)
}

func isValidUTF8(b []byte) bool { return utf8.Valid(b) }
