package transcript

import (
	"regexp"
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
