// Package tiers knows the memory root's layout (DESIGN section 1): where each
// tier's files live, how a root is found, the wake.toml configuration, and how
// documents are read and parsed (front matter, main.md and its HANDOFF block,
// session summaries, the decision log).
//
// It never writes; every write lives in package store.
package tiers

// Paths of the memory root's files, relative to the root, slash-separated.
const (
	ConfigPath    = "wake.toml"
	MainPath      = "main.md"
	RecentDir     = "recent"
	LatestPath    = "recent/latest.md"
	PreviousPath  = "recent/previous.md"
	WarmDir       = "warm"
	TasksPath     = "warm/active_tasks.md"
	DecisionsPath = "warm/decisions.md"
	QuestionsPath = "warm/open_questions.md"
	ColdDir       = "cold"
	SessionsDir   = "cold/sessions"
	LedgerPath    = "ledger.jsonl"
	BootPath      = "boot.md"
	// RootSkillPath is the root's own copy of skill.md: written whenever
	// skill.md is, and what the project's CLAUDE.md imports with
	// [claude] boot = "skill", so that a session reads its own project's
	// memory whatever other roots write to the shared skill.path.
	RootSkillPath  = "skill.md"
	StateDir       = ".state"
	DefaultDirName = ".wake"
)

// Tier names one of the four memory tiers.
type Tier string

// The four tiers of the Wake Protocol.
const (
	TierMain   Tier = "main"
	TierRecent Tier = "recent"
	TierWarm   Tier = "warm"
	TierCold   Tier = "cold"
)

// Phase is one loading phase of DESIGN section 4.
type Phase struct {
	Number int
	Name   string
	Tier   Tier
	Paths  []string
}

// Phases returns the three automatic loading phases in order. Cold files are
// never loaded automatically, so phase 4 has no paths here.
func Phases() []Phase {
	return []Phase{
		{Number: 1, Name: "orient", Tier: TierMain, Paths: []string{MainPath}},
		{Number: 2, Name: "recent", Tier: TierRecent, Paths: []string{LatestPath, PreviousPath}},
		{Number: 3, Name: "warm", Tier: TierWarm, Paths: []string{TasksPath, DecisionsPath, QuestionsPath}},
	}
}
