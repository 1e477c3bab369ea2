package tiers

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/wakeproto/wake/internal/duration"
)

// The ranges of wake.toml's keys (docs/configuration.md has
// the same table). A value outside its own range is an error at its line.
// So is a value that contradicts another key (the last column): that error
// names the part when the file sets it, else the whole it does not fit in,
// listing the defaults that do not fit.
//
//	key                             type              range                 and
//	agent                           string            one line, 100 chars
//	team                            array of strings  32 entries, each a non-blank line of 200 chars
//	encoding                        string            "cl100k_base" or "o200k_base"
//	context_window                  integer           1000 .. 10000000      >= budget.memory_max and >= work_min + main + 1000
//	budget.memory_max               integer           0 .. 10000000         >= budget.main + 1000
//	budget.memory_target            integer           0 .. 10000000         <= budget.memory_max
//	budget.work_min                 integer           0 .. 10000000         <= context_window - budget.main - 1000
//	budget.main                     integer           0 .. 10000000         <= budget.memory_max - 1000
//	budget.recent, warm, cold,      integer           0 .. 10000000         <= budget.memory_max
//	  toc, digest, inbox, trajectory
//	skill.path                      string            one line, 4096 chars; "" stops writing skill.md
//	skill.budget                    integer           0 .. 10000000         <= budget.memory_max
//	skill.identity, active,         integer           0 .. 10000000         <= skill.budget
//	  protocols, recent, history
//	checks.stale_after              duration string   1m .. 87600h
//	checks.over_budget_sessions     integer           1 .. 1000
//	checks.risk_sessions            integer           1 .. 1000
//	handoff.auto_compact            boolean           true or false
//	git.worktrees                   string            "shared" or "separate"
//	digest.window                   duration string   1m .. 87600h
//	claude.boot                     string            "full" or "skill"
//	protocol.card                   string            "full", "short" or "off"
//	wakeup.working_style,           integer           0 .. 100              items a wake-up packet section keeps
//	  active_context, priorities,
//	  constraints, decisions,
//	  incidents, recommended_notes
//	wakeup.prompt_budget            integer           0 .. 10000000         tokens of `wake wakeup --format prompt`
//	capsule.max_tokens              integer           200 .. 10000000       <= capsule.prompt_ceiling
//	capsule.prompt_ceiling          integer           200 .. 10000000
//	capsule.hook_bytes              integer           0 .. 10000            bytes injected at a subagent's start; 0 none
//	capsule.agents.<type>           integer           0 .. 10000            the same for one subagent type; 0 none
//
// Why:
//   - 10,000,000 tokens is as large as the largest context windows
//     advertised today. With every budget at most that, no sum or
//     difference of budgets anywhere in wake (window less work_min, main
//     plus the context's overhead, the pulls of a session, percentages)
//     comes near overflowing an int, even a 32-bit one.
//   - context_window starts at 1000, the room the boot context needs for
//     itself ([ContextOverhead]).
//   - A part is never larger than what it is cut from: each tier, the
//     cold pulls, the TOC, the digest, the open reminders and skill.md are memory, which
//     memory_max caps; skill.md's sections share skill.budget. Their sum
//     may exceed the whole: the fitter squeezes the largest.
//   - Durations under a minute would make every HANDOFF stale and the
//     digest empty by the time it is read; ten years already means never,
//     and keeps the clock arithmetic far from time.Duration's 292 years.
//   - A capsule's body holds at least its eight headings and their
//     placeholders (about 100 tokens) and a little to say; 200 leaves
//     room for both. The hook limits are in bytes, and the clients add
//     at most 10,000 characters of a hook's output: 10,000 bytes are
//     never more characters than that.
//   - capsule.agents keys are subagent types as the client names them
//     ("Explore", "general-purpose"): one line of at most 100
//     characters, without control characters.
//   - agent is skill.md's title and team one of its lines: one line each,
//     without control characters, which Markdown or a terminal would act
//     on. skill.path is a file name, one line and about PATH_MAX long.
const (
	maxTokens      = 10_000_000
	minWindow      = ContextOverhead
	maxAgentChars  = 100
	maxTeam        = 32
	maxMemberChars = 200
	maxPathChars   = 4096
)

const (
	budgetRule   = "budgets are token counts of 0 or more"
	budgetCap    = "budgets are token counts of at most 10000000, the largest context_window"
	capsuleRule  = "a capsule's budget holds 200 to 10000000 tokens: its eight headings alone take about 100"
	minCapsule   = 200
	minMini      = 50
	miniRule     = "a mini capsule's budget holds 50 to 10000000 tokens: its three headings and objective alone take about 30"
	maxHookBytes = 10000
	windowRule   = "a context window holds 1000 to 10000000 tokens"
	durationRule = "durations run from 1m to 87600h (ten years); 30d and 2w count days and weeks"
)

// configKey is one key of wake.toml: a table, or a value with its range
// and how it is stored in a Config.
type configKey struct {
	name    string // dotted, as written in wake.toml
	table   bool
	allowed string // the range in words, for errors the TOML decoder raises
	// decode stores v in c and returns "", or says what is wrong with v.
	decode func(c *Config, v any) string
	tokens func(c *Config) *int // the field of a token count; nil for others
}

// configKeys are wake.toml's keys, made on first use: a start that reads
// no wake.toml does not build them.
var configKeys = sync.OnceValue(func() []configKey {
	return []configKey{
		textKey("agent", maxAgentChars, false, func(c *Config) *string { return &c.Agent }),
		teamKey("team"),
		enumKey("encoding", func(c *Config) *string { return &c.Encoding }, EncodingCL100K, EncodingO200K),
		tokenKey("context_window", minWindow, windowRule, func(c *Config) *int { return &c.ContextWindow }),
		tableKey("budget"),
		tokenKey("budget.memory_max", 0, budgetCap, func(c *Config) *int { return &c.Budget.MemoryMax }),
		tokenKey("budget.memory_target", 0, budgetCap, func(c *Config) *int { return &c.Budget.MemoryTarget }),
		tokenKey("budget.work_min", 0, budgetCap, func(c *Config) *int { return &c.Budget.WorkMin }),
		tokenKey("budget.main", 0, budgetCap, func(c *Config) *int { return &c.Budget.Main }),
		tokenKey("budget.recent", 0, budgetCap, func(c *Config) *int { return &c.Budget.Recent }),
		tokenKey("budget.warm", 0, budgetCap, func(c *Config) *int { return &c.Budget.Warm }),
		tokenKey("budget.cold", 0, budgetCap, func(c *Config) *int { return &c.Budget.Cold }),
		tokenKey("budget.toc", 0, budgetCap, func(c *Config) *int { return &c.Budget.TOC }),
		tokenKey("budget.digest", 0, budgetCap, func(c *Config) *int { return &c.Budget.Digest }),
		tokenKey("budget.inbox", 0, budgetCap, func(c *Config) *int { return &c.Budget.Inbox }),
		tokenKey("budget.trajectory", 0, budgetCap, func(c *Config) *int { return &c.Budget.Trajectory }),
		tableKey("skill"),
		textKey("skill.path", maxPathChars, true, func(c *Config) *string { return &c.Skill.Path }),
		tokenKey("skill.budget", 0, budgetCap, func(c *Config) *int { return &c.Skill.Budget }),
		tokenKey("skill.identity", 0, budgetCap, func(c *Config) *int { return &c.Skill.Identity }),
		tokenKey("skill.active", 0, budgetCap, func(c *Config) *int { return &c.Skill.Active }),
		tokenKey("skill.protocols", 0, budgetCap, func(c *Config) *int { return &c.Skill.Protocols }),
		tokenKey("skill.recent", 0, budgetCap, func(c *Config) *int { return &c.Skill.Recent }),
		tokenKey("skill.history", 0, budgetCap, func(c *Config) *int { return &c.Skill.History }),
		tableKey("checks"),
		durationKey("checks.stale_after", "168h", func(c *Config) *time.Duration { return &c.Checks.StaleAfter }),
		countKey("checks.over_budget_sessions", 1, maxSessions, func(c *Config) *int { return &c.Checks.OverBudgetSessions }),
		countKey("checks.risk_sessions", 1, maxSessions, func(c *Config) *int { return &c.Checks.RiskSessions }),
		durationKey("checks.review_after", "4320h", func(c *Config) *time.Duration { return &c.Checks.ReviewAfter }),
		tableKey("handoff"),
		boolKey("handoff.auto_compact", func(c *Config) *bool { return &c.Handoff.AutoCompact }),
		tableKey("git"),
		enumKey("git.worktrees", func(c *Config) *string { return &c.Git.Worktrees }, WorktreesShared, WorktreesSeparate),
		tableKey("digest"),
		durationKey("digest.window", "24h", func(c *Config) *time.Duration { return &c.Digest.Window }),
		tableKey("claude"),
		enumKey("claude.boot", func(c *Config) *string { return &c.Claude.Boot }, BootFull, BootSkill),
		tableKey("protocol"),
		enumKey("protocol.card", func(c *Config) *string { return &c.Protocol.Card }, CardFull, CardShort, CardOff),
		tableKey("wakeup"),
		countKey("wakeup.working_style", 0, maxSection, func(c *Config) *int { return &c.Wakeup.WorkingStyle }),
		countKey("wakeup.active_context", 0, maxSection, func(c *Config) *int { return &c.Wakeup.ActiveContext }),
		countKey("wakeup.priorities", 0, maxSection, func(c *Config) *int { return &c.Wakeup.Priorities }),
		countKey("wakeup.constraints", 0, maxSection, func(c *Config) *int { return &c.Wakeup.Constraints }),
		countKey("wakeup.decisions", 0, maxSection, func(c *Config) *int { return &c.Wakeup.Decisions }),
		countKey("wakeup.incidents", 0, maxSection, func(c *Config) *int { return &c.Wakeup.Incidents }),
		countKey("wakeup.recommended_notes", 0, maxSection, func(c *Config) *int { return &c.Wakeup.RecommendedNotes }),
		tokenKey("wakeup.prompt_budget", 0, budgetCap, func(c *Config) *int { return &c.Wakeup.PromptBudget }),
		tableKey("capsule"),
		tokenKey("capsule.max_tokens", minCapsule, capsuleRule, func(c *Config) *int { return &c.Capsule.MaxTokens }),
		tokenKey("capsule.prompt_ceiling", minCapsule, capsuleRule, func(c *Config) *int { return &c.Capsule.PromptCeiling }),
		countKey("capsule.hook_bytes", 0, maxHookBytes, func(c *Config) *int { return &c.Capsule.HookBytes }),
		tableKey(agentsTable),
		stringsKey("capsule.mini_agents", maxAgentChars, func(c *Config) *[]string { return &c.Capsule.MiniAgents }),
		tokenKey("capsule.mini_tokens", minMini, miniRule, func(c *Config) *int { return &c.Capsule.MiniTokens }),
		stringsKey("capsule.plans", maxPathChars, func(c *Config) *[]string { return &c.Capsule.Plans }),
	}
})

// agentsTable is [capsule.agents], whose keys are subagent types rather
// than names of wake's: [agentKey] checks them.
const agentsTable = "capsule.agents"

// agentKey is the key capsule.agents.<type>, for one subagent type.
// name is the key as written in wake.toml.
func agentKey(name, agentType string) *configKey {
	decode := func(c *Config, v any) string {
		if strings.TrimSpace(agentType) == "" {
			return "the subagent type is blank; name one as the client does, such as Explore"
		}
		if p := textProblem(agentType, maxAgentChars); p != "" {
			return fmt.Sprintf("the subagent type %s; %s", p, textRule("a subagent type", maxAgentChars, false))
		}
		n, ok := v.(int64)
		switch {
		case !ok:
			return "expected an integer, got " + kindOf(v)
		case n < 0 || n > maxHookBytes:
			return fmt.Sprintf("%d is not from 0 to %d; a subagent's capsule is at most %d bytes, the most a client adds from a hook", n, maxHookBytes, maxHookBytes)
		}
		if c.Capsule.Agents == nil {
			c.Capsule.Agents = map[string]int{}
		}
		c.Capsule.Agents[agentType] = int(n)
		return ""
	}
	return &configKey{name: name, allowed: fmt.Sprintf("an integer from 0 to %d", maxHookBytes), decode: decode}
}

// maxSection bounds a wake-up packet section: the packet is a fast-start
// layer of a few items a section, and a hundred is already a listing.
const maxSection = 100

// lookupKey finds a key of wake.toml by its dotted name, or nil.
func lookupKey(name string) *configKey {
	keys := configKeys()
	for i := range keys {
		if keys[i].name == name {
			return &keys[i]
		}
	}
	return nil
}

func tableKey(name string) configKey {
	return configKey{name: name, table: true, allowed: "a table"}
}

func tokenKey(name string, lo int, why string, field func(*Config) *int) configKey {
	decode := func(c *Config, v any) string {
		n, ok := v.(int64)
		switch {
		case !ok:
			return "expected an integer, got " + kindOf(v)
		case n < 0 && lo == 0:
			return fmt.Sprintf("%d is negative; %s", n, budgetRule)
		case n < int64(lo):
			return fmt.Sprintf("%d is below %d; %s", n, lo, why)
		case n > maxTokens:
			return fmt.Sprintf("%d is above %d; %s", n, maxTokens, why)
		}
		*field(c) = int(n)
		return ""
	}
	return configKey{name: name, allowed: fmt.Sprintf("an integer from %d to %d", lo, maxTokens), decode: decode, tokens: field}
}

// maxSessions bounds a count of sessions: a thousand sessions is years of
// work, and past that a warning would never come.
const maxSessions = 1000

func countKey(name string, lo, hi int, field func(*Config) *int) configKey {
	decode := func(c *Config, v any) string {
		n, ok := v.(int64)
		switch {
		case !ok:
			return "expected an integer, got " + kindOf(v)
		case n < int64(lo) || n > int64(hi):
			return fmt.Sprintf("%d is not from %d to %d", n, lo, hi)
		}
		*field(c) = int(n)
		return ""
	}
	return configKey{name: name, allowed: fmt.Sprintf("an integer from %d to %d", lo, hi), decode: decode}
}

func boolKey(name string, field func(*Config) *bool) configKey {
	decode := func(c *Config, v any) string {
		b, ok := v.(bool)
		if !ok {
			return "expected true or false, got " + kindOf(v)
		}
		*field(c) = b
		return ""
	}
	return configKey{name: name, allowed: "true or false", decode: decode}
}

func durationKey(name, example string, field func(*Config) *time.Duration) configKey {
	decode := func(c *Config, v any) string {
		s, ok := v.(string)
		if !ok {
			return fmt.Sprintf("expected a duration such as %q, got %s", example, kindOf(v))
		}
		d, err := duration.Parse(s)
		switch {
		case errors.Is(err, duration.ErrTooShort):
			return fmt.Sprintf("%s is shorter than a minute; %s", quoteShort(s), durationRule)
		case errors.Is(err, duration.ErrTooLong):
			return fmt.Sprintf("%s is longer than ten years; %s", quoteShort(s), durationRule)
		case err != nil:
			return fmt.Sprintf("%s is not a duration such as %q; %s", quoteShort(s), example, durationRule)
		}
		*field(c) = d
		return ""
	}
	return configKey{name: name, allowed: fmt.Sprintf("a duration from 1m to 87600h, such as %q", example), decode: decode}
}

func enumKey(name string, field func(*Config) *string, values ...string) configKey {
	quoted := make([]string, len(values))
	for i, v := range values {
		quoted[i] = fmt.Sprintf("%q", v)
	}
	allowed := strings.Join(quoted, " or ")
	decode := func(c *Config, v any) string {
		s, ok := v.(string)
		switch {
		case !ok:
			return fmt.Sprintf("expected a string, %s, got %s", allowed, kindOf(v))
		case !slices.Contains(values, s):
			return fmt.Sprintf("%s is not %s", quoteShort(s), allowed)
		}
		*field(c) = s
		return ""
	}
	return configKey{name: name, allowed: allowed, decode: decode}
}

// textKey is a one-line string of at most most characters; a path when
// path is set, which only changes the words of the rule.
func textKey(name string, most int, path bool, field func(*Config) *string) configKey {
	rule := textRule(name, most, path)
	decode := func(c *Config, v any) string {
		s, ok := v.(string)
		if !ok {
			return "expected a string, got " + kindOf(v)
		}
		if p := textProblem(s, most); p != "" {
			return p + "; " + rule
		}
		*field(c) = s
		return ""
	}
	return configKey{name: name, allowed: "a string: " + rule, decode: decode}
}

// CheckAgent says why name cannot be wake.toml's agent, or returns nil:
// what `wake init --agent` checks before writing it there.
func CheckAgent(name string) error {
	if p := textProblem(name, maxAgentChars); p != "" {
		return fmt.Errorf("%s; %s", p, textRule("agent", maxAgentChars, false))
	}
	return nil
}

func textRule(name string, most int, path bool) string {
	if path {
		return fmt.Sprintf("%s is a path of one line and at most %d characters, without control characters; \"\" stops writing skill.md", name, most)
	}
	return fmt.Sprintf("%s is one line of at most %d characters, without control characters", name, most)
}

func teamKey(name string) configKey {
	rule := fmt.Sprintf("team lists at most %d members, each one line of at most %d characters, without control characters", maxTeam, maxMemberChars)
	decode := func(c *Config, v any) string {
		team, problem := stringList(v, maxTeam, maxMemberChars, "members", rule, "each entry names a member, such as \"Ben: reviewer\"")
		if problem == "" {
			c.Team = team
		}
		return problem
	}
	return configKey{name: name, allowed: "an array of strings: " + rule, decode: decode}
}

// stringsKey is an array of at most maxTeam strings, each one line of at
// most most characters without control characters; [] empties it.
func stringsKey(name string, most int, field func(*Config) *[]string) configKey {
	rule := fmt.Sprintf("%s lists at most %d entries, each one line of at most %d characters, without control characters", name, maxTeam, most)
	decode := func(c *Config, v any) string {
		list, problem := stringList(v, maxTeam, most, "entries", rule, rule)
		if problem == "" {
			*field(c) = list
		}
		return problem
	}
	return configKey{name: name, allowed: "an array of strings: " + rule, decode: decode}
}

// stringList decodes v as an array of at most entries strings (noun names
// them in a problem), each one non-blank line of at most most characters
// without control characters: the strings, or what is wrong with v, rule
// said with it, and empty telling what an entry should hold.
func stringList(v any, entries, most int, noun, rule, empty string) ([]string, string) {
	list, ok := v.([]any)
	if !ok {
		return nil, "expected an array of strings, got " + kindOf(v)
	}
	if len(list) > entries {
		return nil, fmt.Sprintf("lists %d %s; %s", len(list), noun, rule)
	}
	out := make([]string, len(list))
	for i, e := range list {
		s, ok := e.(string)
		switch {
		case !ok:
			return nil, fmt.Sprintf("expected an array of strings; entry %d is %s", i+1, kindOf(e))
		case strings.TrimSpace(s) == "":
			return nil, fmt.Sprintf("entry %d is empty; %s", i+1, empty)
		}
		if p := textProblem(s, most); p != "" {
			return nil, fmt.Sprintf("entry %d: %s; %s", i+1, p, rule)
		}
		out[i] = s
	}
	return out, ""
}

// textProblem says what keeps s from being one line of at most most
// characters without control characters, or "".
func textProblem(s string, most int) string {
	if !utf8.ValidString(s) {
		return quoteShort(s) + " is not valid UTF-8"
	}
	for _, r := range s {
		switch {
		case r == '\n' || r == '\r' || r == '\u0085' || r == '\u2028' || r == '\u2029':
			return quoteShort(s) + " is more than one line"
		case unicode.IsControl(r):
			return fmt.Sprintf("%s has a control character (%U)", quoteShort(s), r)
		}
	}
	if n := utf8.RuneCountInString(s); n > most {
		return fmt.Sprintf("%s is %d characters long", quoteShort(s), n)
	}
	return ""
}

// suggestion is "; did you mean KEY?" for the known keys closest to an
// unknown one (a typo, or a key put in the wrong table), or "".
func suggestion(name string) string {
	if len(name) > 64 {
		return ""
	}
	last := name[strings.LastIndex(name, ".")+1:]
	limit := max(1, len(last)/3)
	var best []string
	bestD := limit + 1
	for _, k := range configKeys() {
		d := editDistance(name, k.name)
		if k.name[strings.LastIndex(k.name, ".")+1:] == last {
			d = min(d, 1)
		}
		switch {
		case d > limit:
		case d < bestD:
			best, bestD = []string{k.name}, d
		case d == bestD:
			best = append(best, k.name)
		}
	}
	if len(best) == 0 || len(best) > 2 {
		return ""
	}
	return "; did you mean " + strings.Join(best, " or ") + "?"
}

// editDistance counts the insertions, deletions, substitutions and swaps
// of adjacent bytes that turn a into b.
func editDistance(a, b string) int {
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}
