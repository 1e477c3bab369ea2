package main

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// The SessionStart hook wake installs into Claude Code's settings.
const (
	claudeHookCommand = "wake load --hook claude"
	claudeHookMatcher = "startup|resume|clear|compact"
	claudeSchema      = "https://json.schemastore.org/claude-code-settings.json"
)

type claudeHookGroup struct {
	Matcher string            `json:"matcher"`
	Hooks   []claudeHookEntry `json:"hooks"`
}

type claudeHookEntry struct {
	Type    string `json:"type"`
	Command string `json:"command"`
}

func wakeHookGroup() claudeHookGroup {
	return claudeHookGroup{Matcher: claudeHookMatcher, Hooks: []claudeHookEntry{{Type: "command", Command: claudeHookCommand}}}
}

// newClaudeSettings is the settings file wake creates when there is none,
// with line endings eol. It names the schema so that it differs from every
// file install can leave behind by editing, which lets uninstall recognise
// and remove it.
func newClaudeSettings(eol string) []byte {
	hooks := marshalAt(map[string][]claudeHookGroup{"SessionStart": {wakeHookGroup()}}, jstyle{"  ", eol}, 1)
	return []byte("{" + eol + "  \"$schema\": \"" + claudeSchema + "\"," + eol + "  \"hooks\": " + hooks + eol + "}" + eol)
}

// emptyClaudeSettings is newClaudeSettings without the hook.
func emptyClaudeSettings(eol string) []byte {
	return []byte("{" + eol + "  \"$schema\": \"" + claudeSchema + "\"" + eol + "}" + eol)
}

// settingsError is a settings file wake cannot edit safely.
type settingsError struct{ msg string }

func (e settingsError) Error() string { return e.msg }

// addClaudeHook returns settings with wake's SessionStart hook added, and
// whether it was missing. Every other byte stays as it was; what it
// inserts follows the file's indentation and line endings. exists says
// whether the file exists; an empty file counts as none.
func addClaudeHook(src []byte, exists bool) ([]byte, bool, error) {
	if !exists || len(bytes.TrimSpace(src)) == 0 {
		return newClaudeSettings(lineEnding(src)), true, nil
	}
	top, hooks, start, err := claudeHookNodes(src)
	if err != nil {
		return nil, false, err
	}
	if start != nil && findWakeHook(src, start) >= 0 {
		return src, false, nil
	}
	st := styleOf(src, top)
	group := wakeHookGroup()
	switch {
	case hooks == nil:
		item := `"hooks": ` + marshalAt(map[string][]claudeHookGroup{"SessionStart": {group}}, st, 1)
		return insertItem(src, top, st, item), true, nil
	case start == nil:
		item := `"SessionStart": ` + marshalAt([]claudeHookGroup{group}, st, hooks.depth+1)
		return insertItem(src, hooks, st, item), true, nil
	default:
		return insertItem(src, start, st, marshalAt(group, st, start.depth+1)), true, nil
	}
}

// removeClaudeHook returns settings without wake's hook (the last, should
// there be two), and whether there was one. The group goes with it unless
// it holds other hooks, and so do SessionStart and hooks when nothing else
// is left in them. gone says the result is exactly the file wake would
// have created, minus the hook.
func removeClaudeHook(src []byte) (out []byte, removed, gone bool, err error) {
	top, hooks, start, err := claudeHookNodes(src)
	if err != nil || start == nil {
		return src, false, false, err
	}
	i := findWakeHook(src, start)
	if i < 0 {
		return src, false, false, nil
	}
	st := styleOf(src, top)
	switch inner := groupHooks(start.elems[i]); {
	case inner.itemCount() > 1:
		out = removeItem(src, inner, wakeEntry(src, inner), st)
	case start.itemCount() > 1:
		out = removeItem(src, start, i, st)
	case hooks.itemCount() > 1:
		_, j, _ := hooks.member("SessionStart")
		out = removeItem(src, hooks, j, st)
	default:
		_, j, _ := top.member("hooks")
		out = removeItem(src, top, j, st)
	}
	return out, true, bytes.Equal(out, emptyClaudeSettings(st.eol)), nil
}

// claudeHookNodes locates the top-level object, its hooks object and
// hooks.SessionStart, each nil when absent. Values of the wrong type are
// errors: wake does not guess how to edit them.
func claudeHookNodes(src []byte) (top, hooks, start *jnode, err error) {
	top, err = parseJSONSpans(src)
	if err != nil {
		return nil, nil, nil, err
	}
	if top.kind != '{' {
		return nil, nil, nil, settingsError{"the file is not a JSON object"}
	}
	m, _, ok := top.member("hooks")
	if !ok {
		return top, nil, nil, nil
	}
	if m.val.kind != '{' {
		line, col := lineCol(src, m.val.start)
		return nil, nil, nil, settingsError{fmt.Sprintf("%d:%d: \"hooks\" is not an object", line, col)}
	}
	s, _, ok := m.val.member("SessionStart")
	if !ok {
		return top, m.val, nil, nil
	}
	if s.val.kind != '[' {
		line, col := lineCol(src, s.val.start)
		return nil, nil, nil, settingsError{fmt.Sprintf("%d:%d: \"hooks.SessionStart\" is not an array", line, col)}
	}
	return top, m.val, s.val, nil
}

// findWakeHook returns the index of the last SessionStart group that is
// wake's hook, or -1: the matcher exactly claudeHookMatcher (a narrower one
// leaves wake out of some session starts) and an entry of type "command"
// running claudeHookCommand. Other keys (a timeout) may have been added.
func findWakeHook(src []byte, start *jnode) int {
	for i := len(start.elems) - 1; i >= 0; i-- {
		g := start.elems[i]
		if m, ok := groupMatcher(src, g); ok && m == claudeHookMatcher && wakeEntry(src, groupHooks(g)) >= 0 {
			return i
		}
	}
	return -1
}

// otherWakeHooks describes the SessionStart groups that run wake's command
// but are not wake's hook, for the report: `matcher "startup"`.
func otherWakeHooks(src []byte) []string {
	_, _, start, err := claudeHookNodes(src)
	if err != nil || start == nil {
		return nil
	}
	var out []string
	for _, g := range start.elems {
		m, ok := groupMatcher(src, g)
		switch {
		case wakeEntry(src, groupHooks(g)) < 0 || ok && m == claudeHookMatcher:
		case ok:
			out = append(out, fmt.Sprintf("matcher %q", m))
		default:
			out = append(out, "no matcher")
		}
	}
	return out
}

// groupMatcher returns a group's matcher, and whether it has a string one.
func groupMatcher(src []byte, group *jnode) (string, bool) {
	if group.kind != '{' {
		return "", false
	}
	m, _, ok := group.member("matcher")
	if !ok || m.val.kind != '"' {
		return "", false
	}
	return jsonString(src, m.val), true
}

func groupHooks(group *jnode) *jnode {
	if group.kind != '{' {
		return nil
	}
	m, _, ok := group.member("hooks")
	if !ok || m.val.kind != '[' {
		return nil
	}
	return m.val
}

// wakeEntry returns the index of the last entry of a group's hooks of type
// "command" running wake's command, or -1 (also for a nil inner).
func wakeEntry(src []byte, inner *jnode) int {
	if inner == nil {
		return -1
	}
	str := func(h *jnode, key string) string {
		m, _, ok := h.member(key)
		if !ok || m.val.kind != '"' {
			return ""
		}
		return jsonString(src, m.val)
	}
	for i := len(inner.elems) - 1; i >= 0; i-- {
		h := inner.elems[i]
		if h.kind == '{' && str(h, "type") == "command" && str(h, "command") == claudeHookCommand {
			return i
		}
	}
	return -1
}

func jsonString(src []byte, n *jnode) string {
	var s string
	if err := json.Unmarshal(src[n.start:n.end], &s); err != nil {
		return ""
	}
	return s
}
