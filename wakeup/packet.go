// Package wakeup builds the wake-up packet (wakeup.v1): a small,
// deterministic, explainable bundle of the identity, working style,
// active context, priorities, constraints, decisions, incidents and notes
// worth reading next that lets an AI client orient without reading the
// whole memory root.
//
// The builder ([Build]) is apart from the renderers ([JSON], [Markdown],
// [Prompt]): it takes what the sensitivity policy already admitted
// ([Sources], gathered by the root package's Memory.Wakeup) and a [Query],
// scores every candidate against the query, routes it to its section by
// memory_type, and records why in the packet's provenance. The renderers
// only shape the packet for a target; they never add or drop an item, so
// the packet means the same to every client.
//
// The packet is itself the wire contract (wakeup.v1, published as a JSON
// Schema in wakeup.v1.schema.json), so its types carry their JSON names.
package wakeup

import (
	_ "embed"
)

// Version is the packet schema version.
const Version = "wakeup.v1"

// Schema is the JSON Schema (draft 2020-12) of a wakeup.v1 packet.
//
//go:embed wakeup.v1.schema.json
var Schema []byte

// The targets a packet is shaped for.
const (
	TargetClaude   = "claude"
	TargetCodex    = "codex"
	TargetOpenCode = "opencode"
	TargetGeneric  = "generic"
)

// Targets lists the targets in the order help texts give them.
var Targets = []string{TargetClaude, TargetCodex, TargetOpenCode, TargetGeneric}

// ProfileProject is the project profile: the project's memory root.
const ProfileProject = "project"

// PolicyMode is the packet's sensitivity mode: public and internal
// documents whole, confidential ones as their summary only, secret ones
// never.
const PolicyMode = "conservative"

// Packet is a wakeup.v1 packet.
type Packet struct {
	Version          string        `json:"version"`
	GeneratedAt      string        `json:"generated_at"`
	Target           string        `json:"target"`
	Profile          string        `json:"profile"`
	Query            QueryInfo     `json:"query"`
	Identity         Identity      `json:"identity"`
	WorkingStyle     WorkingStyle  `json:"working_style"`
	ActiveContext    ActiveContext `json:"active_context"`
	Priorities       []Priority    `json:"priorities"`
	Constraints      []Constraint  `json:"constraints"`
	Decisions        []Decision    `json:"decisions"`
	Incidents        []Incident    `json:"incidents"`
	RecommendedNotes []Note        `json:"recommended_notes"`
	Provenance       Provenance    `json:"provenance"`
	Policy           Policy        `json:"policy"`
}

// QueryInfo is the routing input the packet was built for.
type QueryInfo struct {
	Task    string   `json:"task"`
	Cwd     string   `json:"cwd"`
	Files   []string `json:"files"`
	Modules []string `json:"modules,omitempty"`
}

// Identity orients the client: what the project is.
type Identity struct {
	ProjectID string `json:"project_id"`
	Name      string `json:"name"`
	Root      string `json:"root"`
	Summary   string `json:"summary,omitempty"`
	Agent     string `json:"agent,omitempty"`
	Purpose   string `json:"purpose,omitempty"`
	Role      string `json:"role,omitempty"`
	Source    string `json:"source"`
}

// Item is a memory item of working_style and active_context.
type Item struct {
	Title       string `json:"title"`
	Summary     string `json:"summary"`
	MemoryType  string `json:"memory_type"`
	Sensitivity string `json:"sensitivity"`
	Source      string `json:"source"`
}

// WorkingStyle holds the durable preferences and workflows that change how
// the client should behave.
type WorkingStyle struct {
	Items []Item `json:"items"`
}

// ActiveContext is the project's current situation: the HANDOFF of the
// last session and the project notes relevant to the query.
type ActiveContext struct {
	Updated        string `json:"updated,omitempty"`
	SessionSummary string `json:"session_summary,omitempty"`
	OpenRisk       string `json:"open_risk,omitempty"`
	Source         string `json:"source"`
	// Blocked are the active tasks waiting on something.
	Blocked []string `json:"blocked"`
	Items   []Item   `json:"items"`
}

// Priority is one of the things to optimise for now, most important first.
type Priority struct {
	Title  string `json:"title"`
	Source string `json:"source"`
}

// Constraint is a hard requirement or boundary.
type Constraint struct {
	Title       string `json:"title"`
	Summary     string `json:"summary"`
	Sensitivity string `json:"sensitivity"`
	Source      string `json:"source"`
}

// Decision is an accepted decision in force.
type Decision struct {
	Title             string `json:"title"`
	Rationale         string `json:"rationale"`
	ReversalCondition string `json:"reversal_condition"`
	Source            string `json:"source"`
}

// Incident is a failure or pitfall that should change how the client
// proceeds.
type Incident struct {
	Summary     string `json:"summary"`
	Consequence string `json:"consequence"`
	Prevention  string `json:"prevention"`
	Source      string `json:"source"`
}

// Note is a document worth fetching next.
type Note struct {
	Path        string  `json:"path"`
	Title       string  `json:"title"`
	MemoryType  string  `json:"memory_type"`
	WhyRelevant string  `json:"why_relevant"`
	Score       float64 `json:"score"`
}

// Provenance says where the packet's content came from and why each item
// was chosen.
type Provenance struct {
	DerivedFrom    []Derived `json:"derived_from"`
	SelectionBasis []string  `json:"selection_basis"`
}

// Derived is one source the packet used.
type Derived struct {
	Path          string `json:"path"`
	SourceOfTruth bool   `json:"source_of_truth"`
	MemoryType    string `json:"memory_type"`
}

// Policy summarises the filtering that shaped the packet.
type Policy struct {
	// MaxSensitivityIncluded is the most restricted level of any source
	// the packet took text from.
	MaxSensitivityIncluded string `json:"max_sensitivity_included"`
	// RedactionsApplied counts the secret-looking strings scrubbed from
	// what the packet shows, and the confidential documents cut to their
	// summary.
	RedactionsApplied int `json:"redactions_applied"`
	// SuppressedNoteCount counts the candidate documents the policy kept
	// out whole: secret, or with front matter that does not parse.
	SuppressedNoteCount int    `json:"suppressed_note_count"`
	PolicyMode          string `json:"policy_mode"`
}
