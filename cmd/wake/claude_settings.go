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

// newClaudeSettings is the settings file wake creates when there is none.
// It names the schema so that it differs from every file install can leave
// behind by editing, which lets uninstall recognise and remove it.
func newClaudeSettings() []byte {
	return []byte("{\n  \"$schema\": \"" + claudeSchema + "\",\n  \"hooks\": " + marshalAt(map[string][]claudeHookGroup{"SessionStart": {wakeHookGroup()}}, "  ", 1) + "\n}\n")
}

// emptyClaudeSettings is newClaudeSettings without the hook.
func emptyClaudeSettings() []byte {
	return []byte("{\n  \"$schema\": \"" + claudeSchema + "\"\n}\n")
}

// settingsError is a settings file wake cannot edit safely.
type settingsError struct{ msg string }

func (e settingsError) Error() string { return e.msg }

// addClaudeHook returns settings with wake's SessionStart hook added, and
// whether it was missing. Every other byte stays as it was. exists says
// whether the file exists; an empty file counts as none.
func addClaudeHook(src []byte, exists bool) ([]byte, bool, error) {
	if !exists || len(bytes.TrimSpace(src)) == 0 {
		return newClaudeSettings(), true, nil
	}
	top, hooks, start, err := claudeHookNodes(src)
	if err != nil {
		return nil, false, err
	}
	if start != nil && findWakeHook(src, start) >= 0 {
		return src, false, nil
	}
	unit := indentUnit(src, top)
	group := wakeHookGroup()
	switch {
	case hooks == nil:
		item := `"hooks": ` + marshalAt(map[string][]claudeHookGroup{"SessionStart": {group}}, unit, 1)
		return insertItem(src, top, unit, item), true, nil
	case start == nil:
		item := `"SessionStart": ` + marshalAt([]claudeHookGroup{group}, unit, hooks.depth+1)
		return insertItem(src, hooks, unit, item), true, nil
	default:
		return insertItem(src, start, unit, marshalAt(group, unit, start.depth+1)), true, nil
	}
}

// removeClaudeHook returns settings without wake's hook, and whether there
// was one. A hook group left empty goes too, and so do SessionStart and
// hooks when nothing else is left in them. gone says the result is exactly
// the file wake would have created, minus the hook: the caller deletes it.
func removeClaudeHook(src []byte) (out []byte, removed, gone bool, err error) {
	out = src
	for range 64 {
		top, hooks, start, err := claudeHookNodes(out)
		if err != nil || start == nil {
			return out, removed, removed && bytes.Equal(out, emptyClaudeSettings()), err
		}
		i := findWakeHook(out, start)
		if i < 0 {
			return out, removed, removed && bytes.Equal(out, emptyClaudeSettings()), nil
		}
		removed = true
		unit := indentUnit(out, top)
		group := start.elems[i]
		if inner := groupHooks(group); inner != nil && inner.itemCount() > 1 {
			out = removeItem(out, inner, wakeEntry(out, inner), unit)
			continue
		}
		switch {
		case start.itemCount() > 1:
			out = removeItem(out, start, i, unit)
		case hooks.itemCount() > 1:
			_, j, _ := hooks.member("SessionStart")
			out = removeItem(out, hooks, j, unit)
		default:
			_, j, _ := top.member("hooks")
			out = removeItem(out, top, j, unit)
		}
	}
	return out, removed, false, nil
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

// findWakeHook returns the index of the SessionStart group that runs wake's
// hook command, or -1.
func findWakeHook(src []byte, start *jnode) int {
	for i, g := range start.elems {
		if inner := groupHooks(g); inner != nil && wakeEntry(src, inner) >= 0 {
			return i
		}
	}
	return -1
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

// wakeEntry returns the index of wake's command in a group's hooks, or -1.
func wakeEntry(src []byte, inner *jnode) int {
	for i, h := range inner.elems {
		if h.kind != '{' {
			continue
		}
		if c, _, ok := h.member("command"); ok && c.val.kind == '"' && jsonString(src, c.val) == claudeHookCommand {
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
