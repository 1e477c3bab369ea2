// Package protocol holds the protocol card: the few lines of every boot
// context (wake load, boot.md, the Claude Code hook, skill.md) that tell
// the agent what the Wake Protocol expects of it and how to do it with
// wake. An agent that is never told to hand off, to log its decisions or
// to trust recent over cold does none of it; the card is how it is told.
package protocol

import "github.com/wakeproto/wake/tiers"

// Title heads the card in the boot context.
const Title = "## Protocol"

// full is the card as most sessions should see it: each rule of seed 004
// an agent acts on, with the command that does it.
const full = `You are one instance in a chain; this memory is all that carries over. Keep it true:
- End the session with ` + "`wake handoff --summary \"...\" --next \"...\"`" + ` (add ` + "`--decision \"WHAT because WHY\"`" + `, ` + "`--thread`" + `, ` + "`--risk`" + `), even when the user does not ask.
- Record each non-obvious decision as you make it: ` + "`wake decide \"WHAT\" --because \"WHY\"`" + `.
- Never override a decision silently: ` + "`wake contest ID`" + ` to object, ` + "`wake reverse ID`" + ` once the user agrees.
- Pull a cold document with ` + "`wake cold PATH`" + ` only when the task needs it.
- Something to pick up later, not now: ` + "`wake remember \"...\"`" + `; open reminders show at every start.
- Recent over cold: where recent/ and cold/ disagree, recent wins unless the user says otherwise.
- Never claim to remember what you did not read here; say what you do not know.
`

// short is the card for a tight budget: the two things that keep the
// chain going.
const short = "End the session with `wake handoff --summary \"...\" --next \"...\"`; log decisions with `wake decide`, never reverse one silently (`wake contest`, `wake reverse`).\n" +
	"Trust recent over cold; never claim to remember what you did not read.\n"

// Card returns the card's text for mode (wake.toml [protocol] card),
// without its title: "" for tiers.CardOff or an unknown mode.
func Card(mode string) string {
	switch mode {
	case tiers.CardFull:
		return full
	case tiers.CardShort:
		return short
	}
	return ""
}
