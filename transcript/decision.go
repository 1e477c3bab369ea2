package transcript

import (
	"regexp"
	"strings"
	"sync"
)

// decisionCommand matches a command that runs wake decide, reverse,
// contest or uphold: wake (or a path to it), with --root, after
// environment assignments and "cd DIR &&" as an agent writes them. A
// command that only mentions one (echo, grep, a commit message) is not.
var decisionCommand = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\s*` +
		`(?:(?:[A-Za-z_][A-Za-z0-9_]*=` + shellWord + `?\s+)|(?:cd\s+` + shellWord + `\s*&&\s*))*` +
		`(?:\S*/)?wake\s+(?:--root(?:=|\s+)` + shellWord + `\s+)?` +
		`(?:decide|reverse|contest|uphold)(?:\s|$)`)
})

// shellWord is a word of a shell command: quoted, or without spaces.
const shellWord = `(?:'[^']*'|"[^"]*"|[^\s'"]+)`

// isDecision reports whether cmd records a decision in wake's log.
func isDecision(cmd string) bool { return decisionCommand().MatchString(cmd) }

// decisionTools are wake's MCP tools that record a decision, as
// [isDecision]'s commands do: wake_decide (decide, reverse) and
// wake_contest (contest, uphold).
var decisionTools = map[string]bool{"wake_decide": true, "wake_contest": true}

// isDecisionTool reports whether a call of the tool name, as a client
// names an MCP server's tool, records a decision in wake's log: the name
// wake's server gives it, qualified with the server's as clients do
// ("mcp__wake__wake_decide" in Claude Code, and in Codex, whose
// namespace, "mcp__wake", may also come apart from the name).
func isDecisionTool(name string) bool {
	if i := strings.LastIndex(name, "__"); i >= 0 {
		if !strings.HasPrefix(name, "mcp__") {
			return false
		}
		name = name[i+2:]
	}
	return decisionTools[name]
}
