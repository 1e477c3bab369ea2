package splice

// A client's hook settings (Claude Code's settings.json, Codex's
// hooks.json) share one shape: "hooks" maps an event to an array of
// groups, {"matcher": …, "hooks": [{"type": "command", "command": …}]}.

// GroupHooks returns the "hooks" array of one group of an event's array;
// nil when the group is not an object or has no such array.
func GroupHooks(group *Node) *Node {
	if group.Kind != '{' {
		return nil
	}
	m, _, ok := group.Member("hooks")
	if !ok || m.Val.Kind != '[' {
		return nil
	}
	return m.Val
}

// CommandEntry returns the index of the last entry of a group's hooks
// array (see [GroupHooks]) of type "command" running command, or -1 (also
// for a nil array). Other keys (a timeout) may be there.
func CommandEntry(src []byte, hooks *Node, command string) int {
	if hooks == nil {
		return -1
	}
	str := func(n *Node, key string) string {
		m, _, ok := n.Member(key)
		if !ok {
			return ""
		}
		return m.Val.String(src)
	}
	for i := len(hooks.Elems) - 1; i >= 0; i-- {
		e := hooks.Elems[i]
		if e.Kind == '{' && str(e, "type") == "command" && str(e, "command") == command {
			return i
		}
	}
	return -1
}
