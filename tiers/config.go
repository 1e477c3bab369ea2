package tiers

import (
	"fmt"
	"strings"
	"time"
)

// Encodings wake can count with.
const (
	EncodingCL100K = "cl100k_base"
	EncodingO200K  = "o200k_base"
)

// Config is the decoded wake.toml with defaults applied (DESIGN section 6).
type Config struct {
	Agent         string
	Team          []string
	Encoding      string
	ContextWindow int
	Budget        Budget
	Skill         Skill
	Checks        Checks
	Handoff       HandoffConfig
	Git           Git
	Digest        Digest
	Claude        Claude
	Protocol      Protocol
	Wakeup        Wakeup
	Capsule       Capsule
}

// Capsule configures the context capsules of `wake capsule` (wake.toml
// [capsule]) and their injection at a subagent's start.
type Capsule struct {
	MaxTokens     int // the body's budget, in tokens
	PromptCeiling int // a capsule body past 80% of this warns
	HookBytes     int // the most bytes injected at a subagent's start; 0 none
	// Agents maps a subagent type to its own byte limit in place of
	// HookBytes ([capsule.agents]); 0 injects no capsule.
	Agents map[string]int
	// MiniAgents are the subagent types given the capsule's miniature
	// (its mission, pending actions and the decisions bearing on them)
	// rather than the whole capsule: lightweight tasks, such as Claude
	// Code's read-only Explore agents. MiniTokens is its budget, counted
	// exactly.
	MiniAgents []string
	MiniTokens int
	// Plans are where the project keeps a branch's plan or progress
	// notebook, relative to the project, with {branch} for the branch's
	// capsule directory ([capsule] plans): the capture prompt names those
	// that exist.
	Plans []string
}

// Mini reports whether a subagent of type agentType gets the capsule's
// miniature: it is one of MiniAgents, matched exactly, else ignoring
// case.
func (c Capsule) Mini(agentType string) bool {
	for _, t := range c.MiniAgents {
		if t == agentType || strings.EqualFold(t, agentType) {
			return true
		}
	}
	return false
}

// AgentBytes is the byte limit of the capsule injected into a subagent of
// type agentType: its entry in Agents (matched exactly, else ignoring
// case), else HookBytes.
func (c Capsule) AgentBytes(agentType string) int {
	if n, ok := c.Agents[agentType]; ok {
		return n
	}
	for t, n := range c.Agents {
		if strings.EqualFold(t, agentType) {
			return n
		}
	}
	return c.HookBytes
}

// Wakeup configures the wake-up packet (wake.toml [wakeup]): how many
// items each section keeps, and the token budget of its prompt render.
type Wakeup struct {
	WorkingStyle     int
	ActiveContext    int
	Priorities       int
	Constraints      int
	Decisions        int
	Incidents        int
	RecommendedNotes int
	PromptBudget     int
}

// Protocol configures the protocol card every boot context carries.
type Protocol struct {
	Card string // CardFull, CardShort or CardOff
}

// Protocol card modes ([protocol] card).
const (
	CardFull  = "full"
	CardShort = "short"
	CardOff   = "off"
)

// Budget holds the token budgets of DESIGN section 4.
type Budget struct {
	MemoryMax    int
	MemoryTarget int
	WorkMin      int
	Main         int
	Recent       int
	Warm         int
	Cold         int
	TOC          int
	Digest       int // the recent-changes digest of `wake load`
	Inbox        int // the open reminders of warm/inbox.md in `wake load`
	Trajectory   int // the trajectory of the last sessions in `wake load`
}

// Skill configures the skill.md boot file.
type Skill struct {
	Path      string
	Budget    int
	Identity  int
	Active    int
	Protocols int
	Recent    int
	History   int
}

// Boot modes of [Claude]: how a Claude Code session gets the context.
const (
	// BootFull writes the whole phased context to boot.md in the memory
	// root at every start, for the project's CLAUDE.md to import.
	BootFull = "full"
	// BootSkill relies on skill.md alone: the root's own copy
	// ([RootSkillPath]), imported by the project's CLAUDE.md.
	BootSkill = "skill"
)

// Claude configures the wiring into Claude Code.
type Claude struct {
	Boot string // BootFull or BootSkill
}

// Checks configures the coherence checks.
type Checks struct {
	StaleAfter time.Duration
	// OverBudgetSessions is how many sessions running a warm file may be
	// cut to fit its budget before wake check warns.
	OverBudgetSessions int
	// RiskSessions is how many sessions a session's open risk stays in
	// the boot context's trajectory, unless a later session resolves it.
	RiskSessions int
	// ReviewAfter is how long a decision in force may go untouched (its
	// date, or its last objection or uphold) before wake check lists it
	// for review; 0 never lists one for its age.
	ReviewAfter time.Duration
}

// HandoffConfig configures what a hand-off does beyond writing the session
// (wake.toml [handoff]).
type HandoffConfig struct {
	// AutoCompact lets a hand-off run wake compact on each warm file the
	// boot context had to cut to fit its share, when the compaction would
	// move something: every byte and ID kept, one ledger line.
	AutoCompact bool
}

// Git configures how wake meets git (wake.toml [git]).
type Git struct {
	// Worktrees is where a session in a linked worktree keeps its memory:
	// WorktreesShared or WorktreesSeparate; "" is the default, the
	// worktree's own copy of a committed .wake/ when it has one, else the
	// main checkout's (see [FindRoot]).
	Worktrees string
}

// Digest configures the recent-changes digest of `wake load`: the ledger
// entries of the last Window.
type Digest struct {
	Window time.Duration
}

// DefaultConfig returns the built-in configuration.
func DefaultConfig() Config {
	return Config{
		Encoding:      EncodingCL100K,
		ContextWindow: 200000,
		Budget: Budget{
			MemoryMax: 60000, MemoryTarget: 40000, WorkMin: 140000,
			Main: 2000, Recent: 12000, Warm: 25000, Cold: 20000, TOC: 1500, Digest: 1000, Inbox: 300,
			Trajectory: 800,
		},
		Skill: Skill{
			Path: "~/.claude/agentchat.skill.md", Budget: 4000,
			Identity: 200, Active: 500, Protocols: 300, Recent: 1000, History: 2000,
		},
		Checks:   Checks{StaleAfter: 168 * time.Hour, OverBudgetSessions: 3, RiskSessions: 10, ReviewAfter: 180 * 24 * time.Hour},
		Handoff:  HandoffConfig{AutoCompact: true},
		Protocol: Protocol{Card: CardFull},
		Digest:   Digest{Window: 24 * time.Hour},
		Claude:   Claude{Boot: BootFull},
		Wakeup: Wakeup{WorkingStyle: 5, ActiveContext: 5, Priorities: 5, Constraints: 5, Decisions: 5,
			Incidents: 3, RecommendedNotes: 8, PromptBudget: 1500},
		Capsule: Capsule{MaxTokens: 1200, PromptCeiling: 5000, HookBytes: 4096,
			MiniAgents: []string{"Explore"}, MiniTokens: 300, Plans: DefaultPlans()},
	}
}

// ConfigError reports a problem in wake.toml at a line and key.
type ConfigError struct {
	Path string // the file as given to ParseConfig
	Line int    // 1-based; 0 when unknown
	Col  int    // 1-based byte column, for TOML syntax errors; 0 otherwise
	Key  string // dotted key as written in wake.toml; "" when the problem is not a key's
	// Msg completes "key KEY": when it starts with "is " it follows the key
	// as one sentence ("key budget.foo is not a wake.toml key"), otherwise
	// after a colon ("key budget.warm: -5 is negative; ...").
	Msg string
}

func (e *ConfigError) Error() string {
	var b strings.Builder
	b.WriteString(e.Path)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
		if e.Col > 0 {
			fmt.Fprintf(&b, ":%d", e.Col)
		}
	}
	b.WriteString(": ")
	if e.Key != "" {
		fmt.Fprintf(&b, "key %s", e.Key)
		if strings.HasPrefix(e.Msg, "is ") {
			b.WriteString(" ")
		} else {
			b.WriteString(": ")
		}
	}
	b.WriteString(e.Msg)
	return b.String()
}

// ParseConfig decodes wake.toml content; name is used in errors. Every key
// is checked against its range (docs/configuration.md lists
// them), then the keys that bound one another against each other; the
// first problem is returned as a *ConfigError naming the line and the key.
func ParseConfig(name string, data []byte) (Config, error) {
	doc, err := readTOML(name, data)
	if err != nil {
		return Config{}, err
	}
	cfg := DefaultConfig()
	c := &checker{name: name, cfg: &cfg, lines: map[string]int{}}
	for _, k := range doc.keys {
		if err := c.apply(doc, k); err != nil {
			return Config{}, err
		}
	}
	if err := c.rules(); err != nil {
		return Config{}, err
	}
	return cfg, nil
}

// ContextOverhead is the room the boot context needs beyond main.md for its
// announcement, headings, checks and footer.
const ContextOverhead = 1000

// DefaultPlans are the places [Capsule.Plans] looks for a branch's plan
// or progress notebook when wake.toml names none: the seed's
// docs/plans/<branch>.md, and the like.
func DefaultPlans() []string {
	return []string{"docs/plans/{branch}.md", "docs/progress/{branch}.md", "docs/branches/{branch}.md",
		"plans/{branch}.md", "PLAN.md", "PROGRESS.md"}
}
