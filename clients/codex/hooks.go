package codex

import (
	"fmt"
	"strings"

	"github.com/wakeproto/wake/internal/splice"
)

// The hooks wake installs into a project's .codex/hooks.json.
const (
	StartCommand    = "wake load --hook codex"
	StopCommand     = "wake hook stop codex"
	EndCommand      = "wake hook end codex"
	SubagentCommand = "wake capsule --hook codex"
	CompactCommand  = "wake hook compact codex"
)

// hookSpec is one of wake's hooks: the event, the command, and the
// timeout in seconds.
type hookSpec struct {
	Event, Command string
	Timeout        int
}

// wakeHooks are the hooks install adds, in the order it adds them.
// Codex gives a SessionEnd hook one second unless told otherwise, and
// never more than three: the automatic hand-off gets all three. The
// SubagentStart group has no matcher: it runs for every agent type, and
// wake.toml's [capsule.agents] says how much each gets. Nor has the
// PreCompact group: it keeps a checkpoint before a compaction of either
// trigger (manual or auto), which Codex follows with a SessionStart of
// source "compact" at the next turn's start, whose context carries it.
var wakeHooks = []hookSpec{
	{"SessionStart", StartCommand, 30},
	{"Stop", StopCommand, 30},
	{"SessionEnd", EndCommand, 3},
	{"SubagentStart", SubagentCommand, 30},
	{"PreCompact", CompactCommand, 30},
}

type hookGroup struct {
	Hooks []hookEntry `json:"hooks"`
}

type hookEntry struct {
	Type    string `json:"type"`
	Command string `json:"command"`
	Timeout int    `json:"timeout"`
}

func (h hookSpec) group() hookGroup {
	return hookGroup{[]hookEntry{{Type: "command", Command: h.Command, Timeout: h.Timeout}}}
}

// What install made around one of wake's hooks, outermost last: the group
// in an event's array, the event's array in "hooks", the "hooks" object,
// or the whole file.
const (
	madeGroup = "group"
	madeEvent = "event"
	madeHooks = "hooks"
	madeFile  = "file"
)

// hooksError is a hooks.json wake will not edit, at a line and column.
type hooksError struct{ msg string }

func (e hooksError) Error() string { return e.msg }

func nodeError(src []byte, n *splice.Node, format string, args ...any) error {
	line, col := splice.LineCol(src, n.Start)
	return hooksError{fmt.Sprintf("%d:%d: ", line, col) + fmt.Sprintf(format, args...)}
}

// newHooksFile is the hooks.json install creates where there is none:
// Codex accepts no other top-level key than "hooks".
func newHooksFile(eol string, specs []hookSpec) []byte {
	st := splice.Style{Unit: "  ", EOL: eol}
	var b strings.Builder
	b.WriteString("{" + eol + "  \"hooks\": {")
	for i, h := range specs {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(eol + st.Indent(2) + fmt.Sprintf("%q: ", h.Event) + splice.Marshal([]hookGroup{h.group()}, st, 2))
	}
	b.WriteString(eol + "  }" + eol + "}" + eol)
	return []byte(b.String())
}

// hookNodes locates the top-level object and its "hooks" object (nil when
// absent). Values of the wrong type are errors: wake does not guess how
// to edit them, and Codex would not read them either.
func hookNodes(src []byte) (top, hooks *splice.Node, err error) {
	top, err = splice.ParseJSON(src)
	if err != nil {
		return nil, nil, err
	}
	if top.Kind != '{' {
		return nil, nil, hooksError{"the file is not a JSON object"}
	}
	m, _, ok := top.Member("hooks")
	if !ok {
		return top, nil, nil
	}
	if m.Val.Kind != '{' {
		return nil, nil, nodeError(src, m.Val, `"hooks" is not an object`)
	}
	for _, e := range m.Val.Members {
		if e.Val.Kind != '[' {
			return nil, nil, nodeError(src, e.Val, "\"hooks.%s\" is not an array", e.Key)
		}
	}
	return top, m.Val, nil
}

// addHooks returns the hooks file src with each of wake's hooks that is
// missing added, and what it made for each event it added one to. Every
// other byte stays as it was; what it inserts follows the file's
// indentation and line endings. A blank file (or none, src nil) becomes
// the file wake creates.
func addHooks(src []byte) ([]byte, map[string]string, error) {
	made := map[string]string{}
	if splice.Blank(src) {
		for _, h := range wakeHooks {
			made[h.Event] = madeFile
		}
		return newHooksFile(splice.LineEnding(src), wakeHooks), made, nil
	}
	out := src
	for _, h := range wakeHooks {
		top, hooks, err := hookNodes(out)
		if err != nil {
			return nil, nil, err
		}
		if hooks != nil && findHook(out, hooks, h) >= 0 {
			continue
		}
		st := splice.StyleOf(out, top)
		switch m, _, ok := memberOf(hooks, h.Event); {
		case hooks == nil:
			var missing []hookSpec
			for _, h := range wakeHooks {
				missing = append(missing, h)
				made[h.Event] = madeHooks
			}
			item := `"hooks": ` + hooksObject(missing, st)
			return top.Insert(out, st, item), made, nil
		case !ok:
			made[h.Event] = madeEvent
			out = hooks.Insert(out, st, fmt.Sprintf("%q: ", h.Event)+splice.Marshal([]hookGroup{h.group()}, st, hooks.Depth+1))
		default:
			made[h.Event] = madeGroup
			out = m.Val.Insert(out, st, splice.Marshal(h.group(), st, m.Val.Depth+1))
		}
	}
	return out, made, nil
}

// hooksObject renders a "hooks" object holding specs at depth 1.
func hooksObject(specs []hookSpec, st splice.Style) string {
	var b strings.Builder
	b.WriteString("{")
	for i, h := range specs {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(st.EOL + st.Indent(2) + fmt.Sprintf("%q: ", h.Event) + splice.Marshal([]hookGroup{h.group()}, st, 2))
	}
	return b.String() + st.EOL + st.Indent(1) + "}"
}

func memberOf(n *splice.Node, key string) (splice.Member, int, bool) {
	if n == nil {
		return splice.Member{}, -1, false
	}
	return n.Member(key)
}

// findHook returns the index of the last group of the event's array
// holding wake's hook, or -1: an entry of type "command" running the
// hook's command. Other keys (another timeout) may have been added.
func findHook(src []byte, hooks *splice.Node, h hookSpec) int {
	m, _, ok := hooks.Member(h.Event)
	if !ok {
		return -1
	}
	for i := len(m.Val.Elems) - 1; i >= 0; i-- {
		if splice.CommandEntry(src, splice.GroupHooks(m.Val.Elems[i]), h.Command) >= 0 {
			return i
		}
	}
	return -1
}

// removeHooks returns the hooks file without wake's hooks, and the events
// it took one out of. made says what install made for each event (nil
// without a record): the event's array goes when install made it, or
// without a record when nothing else is left in it, and so does "hooks".
// gone says nothing is left but an empty object or "hooks".
func removeHooks(src []byte, made map[string]string) (out []byte, removed []string, gone bool, err error) {
	out = src
	for _, h := range wakeHooks {
		if made != nil && made[h.Event] == "" {
			continue
		}
		top, hooks, err := hookNodes(out)
		if err != nil {
			return src, nil, false, err
		}
		if hooks == nil {
			break
		}
		i := findHook(out, hooks, h)
		if i < 0 {
			continue
		}
		removed = append(removed, h.Event)
		st := splice.StyleOf(out, top)
		m, j, _ := hooks.Member(h.Event)
		if inner := splice.GroupHooks(m.Val.Elems[i]); inner.Len() > 1 {
			out = inner.Remove(out, splice.CommandEntry(out, inner, h.Command), st)
			continue
		}
		what := made[h.Event]
		switch {
		case m.Val.Len() > 1 || made != nil && what == madeGroup:
			out = m.Val.Remove(out, i, st)
		default:
			out = hooks.Remove(out, j, st)
		}
	}
	top, hooks, err := hookNodes(out)
	if err != nil {
		return src, nil, false, err
	}
	if hooks != nil && hooks.Len() == 0 && ownsHooks(made) {
		_, k, _ := top.Member("hooks")
		out = top.Remove(out, k, splice.StyleOf(out, top))
		if top, hooks, err = hookNodes(out); err != nil {
			return src, nil, false, err
		}
	}
	gone = top.Len() == 0 || top.Len() == 1 && hooks != nil && hooks.Len() == 0
	return out, removed, gone, nil
}

// ownsHooks says install made the "hooks" object (or, without a record,
// that an empty one counts as install's: it has no use).
func ownsHooks(made map[string]string) bool {
	if made == nil {
		return true
	}
	for _, m := range made {
		if m == madeHooks || m == madeFile {
			return true
		}
	}
	return false
}

// trustShifts names the events whose hooks after wake's move up a place
// when removeHooks takes wake's out: Codex keys a hook's trust by its
// group's and its handler's places (event:group:handler), so those lose
// the trust the user gave them.
func trustShifts(src []byte) []string {
	_, hooks, err := hookNodes(src)
	if err != nil || hooks == nil {
		return nil
	}
	var out []string
	for _, h := range wakeHooks {
		i := findHook(src, hooks, h)
		if i < 0 {
			continue
		}
		m, _, _ := hooks.Member(h.Event)
		inner := splice.GroupHooks(m.Val.Elems[i])
		if inner.Len() > 1 && splice.CommandEntry(src, inner, h.Command) < inner.Len()-1 || inner.Len() <= 1 && i < m.Val.Len()-1 {
			out = append(out, h.Event)
		}
	}
	return out
}
