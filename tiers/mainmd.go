package tiers

import (
	"strings"
)

// Sections of main.md (DESIGN section 2).
const (
	SectionIdentity   = "Identity"
	SectionPurpose    = "Purpose"
	SectionGoals      = "Goals"
	SectionDirectives = "Standing Directives"
	SectionHandoff    = "HANDOFF"
)

// HANDOFF block keys, in the order wake writes them.
const (
	KeyUpdated           = "updated"
	KeySessionSummary    = "session_summary"
	KeyNextPriority      = "next_priority"
	KeyOpenRisk          = "open_risk"
	KeyEmotionalRegister = "emotional_register"
)

// Handoff is the parsed HANDOFF block of main.md.
type Handoff struct {
	Present bool
	Section Section           // where the block sits in main.md
	Fields  map[string]string // key: value lines, values trimmed
}

// Get returns the value of a HANDOFF key, "" when absent.
func (h Handoff) Get(key string) string { return h.Fields[key] }

// Main is a parsed main.md.
type Main struct {
	Text    string
	Handoff Handoff
}

// ParseMain parses main.md content.
func ParseMain(content []byte) Main {
	m := Main{Text: string(content)}
	if s, ok := FindSection(m.Text, 2, SectionHandoff); ok {
		m.Handoff = Handoff{Present: true, Section: s, Fields: parseFields(s.Body(m.Text))}
	}
	return m
}

// Section returns the body of the H2 section named title with HTML comments
// removed and surrounding space trimmed, and whether the section exists.
func (m Main) Section(title string) (string, bool) {
	s, ok := FindSection(m.Text, 2, title)
	if !ok {
		return "", false
	}
	return strings.TrimSpace(StripComments(s.Body(m.Text))), true
}

func parseFields(body string) map[string]string {
	out := map[string]string{}
	for _, l := range Lines(body) {
		k, v, ok := strings.Cut(l.Text, ":")
		k = strings.TrimSpace(k)
		if !ok || k == "" || strings.ContainsAny(k, " \t") {
			continue
		}
		out[k] = strings.TrimSpace(v)
	}
	return out
}
