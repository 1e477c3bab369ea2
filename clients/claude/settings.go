package claude

import (
	"bytes"
	"fmt"

	"github.com/wakeproto/wake/internal/splice"
)

// The hooks wake installs into Claude Code's settings: SessionStart loads
// the memory, Stop asks once for a hand-off of the work done without one,
// SessionEnd writes the automatic one of the work left without one, and
// SubagentStart gives each subagent the branch's newest capsule.
const (
	HookCommand     = "wake load --hook claude"
	HookMatcher     = "startup|resume|clear|compact"
	StopCommand     = "wake hook stop claude"
	EndCommand      = "wake hook end claude"
	SubagentCommand = "wake capsule --hook claude"
	// CompactCommand keeps a checkpoint of the session before Claude Code
	// compacts its conversation; the SessionStart hook of the compaction
	// gives it back.
	CompactCommand = "wake hook compact claude"
	// EndTimeout is the SessionEnd hook's time limit, in seconds: Claude
	// Code gives SessionEnd hooks 1.5 s unless one asks for more, and the
	// automatic hand-off reads the whole transcript and runs git.
	EndTimeout   = 30
	claudeSchema = "https://json.schemastore.org/claude-code-settings.json"
)

// hookSpec is one hook wake installs: the event, the group's matcher
// ("" for none: Stop and SessionEnd match every stop and end) and the
// command, with its timeout in seconds (0: Claude Code's default).
type hookSpec struct {
	Event, Matcher, Command string
	Timeout                 int
}

var (
	startHook = hookSpec{Event: "SessionStart", Matcher: HookMatcher, Command: HookCommand}
	stopHook  = hookSpec{Event: "Stop", Command: StopCommand}
	endHook   = hookSpec{Event: "SessionEnd", Command: EndCommand, Timeout: EndTimeout}
	// subagentHook has no matcher: it runs for every agent type, and
	// wake.toml's [capsule.agents] says how much each gets.
	subagentHook = hookSpec{Event: "SubagentStart", Command: SubagentCommand}
	// compactHook has no matcher: it runs before a compaction the user
	// asked for (/compact) and an automatic one alike.
	compactHook = hookSpec{Event: "PreCompact", Command: CompactCommand}
	// wakeHooks are installed in this order, and taken out in the
	// reverse: each install's record of what it made around its hook
	// holds of the file as the hooks before it left it.
	wakeHooks = []hookSpec{startHook, stopHook, endHook, subagentHook, compactHook}
)

// describe names the hook in messages: `the SessionStart hook "wake load
// --hook claude" (matcher startup|resume|clear|compact)`.
func (h hookSpec) describe() string {
	d := fmt.Sprintf("the %s hook %q", h.Event, h.Command)
	if h.Matcher != "" {
		d += " (matcher " + h.Matcher + ")"
	}
	return d
}

type claudeHookGroup struct {
	Matcher string            `json:"matcher,omitempty"`
	Hooks   []claudeHookEntry `json:"hooks"`
}

type claudeHookEntry struct {
	Type    string `json:"type"`
	Command string `json:"command"`
	Timeout int    `json:"timeout,omitempty"`
}

func (h hookSpec) group() claudeHookGroup {
	return claudeHookGroup{Matcher: h.Matcher, Hooks: []claudeHookEntry{{Type: "command", Command: h.Command, Timeout: h.Timeout}}}
}

// newClaudeSettings is the settings file wake creates, holding hook h,
// when there is none, with line endings eol. It names the schema so that
// it differs from every file install can leave behind by editing, which
// lets uninstall recognise and remove it.
func newClaudeSettings(eol string, h hookSpec) []byte {
	hooks := splice.Marshal(map[string][]claudeHookGroup{h.Event: {h.group()}}, splice.Style{Unit: "  ", EOL: eol}, 1)
	return []byte("{" + eol + "  \"$schema\": \"" + claudeSchema + "\"," + eol + "  \"hooks\": " + hooks + eol + "}" + eol)
}

// emptyClaudeSettings is newClaudeSettings without the hook.
func emptyClaudeSettings(eol string) []byte {
	return []byte("{" + eol + "  \"$schema\": \"" + claudeSchema + "\"" + eol + "}" + eol)
}

// settingsError is a settings file wake cannot edit safely.
type settingsError struct{ msg string }

func (e settingsError) Error() string { return e.msg }

// hookEdit is what [addHook] made around one of wake's hooks. Install
// keeps it in its record so that [removeHook] takes away that and no more.
type hookEdit struct {
	// Made is the outermost thing install added: "group" (to an existing
	// array of the hook's event), the event's name ("SessionStart",
	// "Stop", "SessionEnd", "SubagentStart": to an existing hooks),
	// "hooks", or "file" when there was no file or only whitespace.
	// Records made by older wakes have none.
	Made string `json:"made,omitempty"`
	// Inside is what lay between the brackets of the container install
	// added to, when that held nothing but whitespace; for "file", the
	// whole file before (empty when there was none). Uninstall puts it
	// back when nothing else has been added there since.
	Inside *string `json:"inside,omitempty"`
}

// rank orders what install can make, outermost last; 0 is unknown.
func rank(made string) int {
	switch made {
	case "group":
		return 1
	case "hooks":
		return 3
	case "file":
		return 4
	}
	for _, h := range wakeHooks {
		if made == h.Event {
			return 2
		}
	}
	return 0
}

// known reports whether the record says what install made. A record
// with more than whitespace to put back was not written by install.
func (e *hookEdit) known() bool {
	if e == nil || rank(e.Made) == 0 {
		return false
	}
	if e.Inside == nil {
		return e.Made != "file"
	}
	return splice.Blank([]byte(*e.Inside))
}

// created reports whether install created the container named what (the
// event's array or the hooks object). Without a record any container
// left empty counts as install's: an empty one has no use.
func (e *hookEdit) created(what string) bool {
	return !e.known() || rank(e.Made) >= rank(what)
}

// refill returns what to put back inside the container install added
// item to, once that is empty again, and whether there is anything.
func (e *hookEdit) refill(item string) (string, bool) {
	if !e.known() || e.Made != item || e.Inside == nil {
		return "", false
	}
	return *e.Inside, true
}

// addHook returns settings with wake's hook h added, what it made, and
// whether the hook was missing. Every other byte stays as it was; what it
// inserts follows the file's indentation and line endings. An empty or
// whitespace-only file (or none, src nil) becomes the file wake creates.
func addHook(src []byte, h hookSpec) ([]byte, hookEdit, bool, error) {
	if splice.Blank(src) {
		was := string(src)
		return newClaudeSettings(splice.LineEnding(src), h), hookEdit{Made: "file", Inside: &was}, true, nil
	}
	top, hooks, arr, err := claudeHookNodes(src, h.Event)
	if err != nil {
		return nil, hookEdit{}, false, err
	}
	if arr != nil && findWakeHook(src, arr, h) >= 0 {
		return src, hookEdit{}, false, nil
	}
	st := splice.StyleOf(src, top)
	group := h.group()
	var c *splice.Node
	var ed hookEdit
	var item string
	switch {
	case hooks == nil:
		c, ed.Made = top, "hooks"
		item = `"hooks": ` + splice.Marshal(map[string][]claudeHookGroup{h.Event: {group}}, st, 1)
	case arr == nil:
		c, ed.Made = hooks, h.Event
		item = fmt.Sprintf("%q: ", h.Event) + splice.Marshal([]claudeHookGroup{group}, st, hooks.Depth+1)
	default:
		c, ed.Made = arr, "group"
		item = splice.Marshal(group, st, arr.Depth+1)
	}
	if c.Len() == 0 {
		was := string(c.Inside(src))
		ed.Inside = &was
	}
	return c.Insert(src, st, item), ed, true, nil
}

// removeHook returns settings without wake's hook h (the last, should
// there be two), and whether there was one. The group goes with it unless
// it holds other hooks, and so do the event's array and hooks when
// install created them (ed says; with no record, when nothing else is
// left in them). A container install added to gets back what was inside
// it when nothing else is left there. gone says nothing is left but what
// wake creates in place of no file; for ed's "file", out is then the file
// as it was before.
func removeHook(src []byte, h hookSpec, ed *hookEdit) (out []byte, removed, gone bool, err error) {
	top, hooks, arr, err := claudeHookNodes(src, h.Event)
	if err != nil || arr == nil {
		return src, false, false, err
	}
	i := findWakeHook(src, arr, h)
	if i < 0 {
		return src, false, false, nil
	}
	st := splice.StyleOf(src, top)
	if inner := splice.GroupHooks(arr.Elems[i]); inner.Len() > 1 {
		return inner.Remove(src, splice.CommandEntry(src, inner, h.Command), st), true, false, nil
	}
	_, j, _ := hooks.Member(h.Event)
	_, k, _ := top.Member("hooks")
	steps := []struct {
		c    *splice.Node
		i    int
		item string
	}{{arr, i, "group"}, {hooks, j, h.Event}, {top, k, "hooks"}}
	s := steps[0]
	for _, up := range steps[1:] {
		if s.c.Len() > 1 || !ed.created(up.item) {
			break
		}
		s = up
	}
	out = s.c.Remove(src, s.i, st)
	if was, ok := ed.refill(s.item); ok && s.c.Len() == 1 {
		out = s.c.SetInside(src, was)
	}
	if !bytes.Equal(out, emptyClaudeSettings(st.EOL)) {
		return out, true, false, nil
	}
	if ed.known() && ed.Made == "file" {
		out = []byte(*ed.Inside)
	}
	return out, true, true, nil
}

// claudeHookNodes locates the top-level object, its hooks object and the
// array of hooks.<event>, each nil when absent. Values of the wrong type
// are errors: wake does not guess how to edit them.
func claudeHookNodes(src []byte, event string) (top, hooks, arr *splice.Node, err error) {
	top, err = splice.ParseJSON(src)
	if err != nil {
		return nil, nil, nil, err
	}
	if top.Kind != '{' {
		return nil, nil, nil, settingsError{"the file is not a JSON object"}
	}
	m, _, ok := top.Member("hooks")
	if !ok {
		return top, nil, nil, nil
	}
	if m.Val.Kind != '{' {
		line, col := splice.LineCol(src, m.Val.Start)
		return nil, nil, nil, settingsError{fmt.Sprintf("%d:%d: \"hooks\" is not an object", line, col)}
	}
	s, _, ok := m.Val.Member(event)
	if !ok {
		return top, m.Val, nil, nil
	}
	if s.Val.Kind != '[' {
		line, col := splice.LineCol(src, s.Val.Start)
		return nil, nil, nil, settingsError{fmt.Sprintf("%d:%d: \"hooks.%s\" is not an array", line, col, event)}
	}
	return top, m.Val, s.Val, nil
}

// findWakeHook returns the index of the last group of the event's array
// that is wake's hook h, or -1: the matcher exactly h's (a narrower one
// leaves wake out of some session starts; none for a hook without one)
// and an entry of type "command" running h's command. Other keys (a
// timeout) may have been added or changed.
func findWakeHook(src []byte, arr *splice.Node, h hookSpec) int {
	for i := len(arr.Elems) - 1; i >= 0; i-- {
		g := arr.Elems[i]
		if matches(src, g, h.Matcher) && splice.CommandEntry(src, splice.GroupHooks(g), h.Command) >= 0 {
			return i
		}
	}
	return -1
}

// otherWakeHooks describes the SessionStart groups that run wake's
// command but are not wake's hook, for the report: `matcher "startup"`.
func otherWakeHooks(src []byte) []string {
	_, _, start, err := claudeHookNodes(src, startHook.Event)
	if err != nil || start == nil {
		return nil
	}
	var out []string
	for _, g := range start.Elems {
		m, ok := groupMatcher(src, g)
		switch {
		case splice.CommandEntry(src, splice.GroupHooks(g), HookCommand) < 0 || ok && m == HookMatcher:
		case ok:
			out = append(out, fmt.Sprintf("matcher %q", m))
		default:
			out = append(out, "no matcher")
		}
	}
	return out
}

// matches reports whether a group's matcher is matcher: "" stands for a
// group without one, or with an empty one.
func matches(src []byte, group *splice.Node, matcher string) bool {
	if m, ok := groupMatcher(src, group); ok {
		return m == matcher
	}
	if group.Kind != '{' || matcher != "" {
		return false
	}
	_, _, has := group.Member("matcher")
	return !has
}

// groupMatcher returns a group's matcher, and whether it has a string one.
func groupMatcher(src []byte, group *splice.Node) (string, bool) {
	if group.Kind != '{' {
		return "", false
	}
	m, _, ok := group.Member("matcher")
	if !ok || m.Val.Kind != '"' {
		return "", false
	}
	return m.Val.String(src), true
}
