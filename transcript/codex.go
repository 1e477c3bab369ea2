package transcript

import (
	"bytes"
	"encoding/json"
	"strings"
)

// codexParser reads Codex's rollout JSONL: one object a line,
// {"timestamp", "type", "payload"}. session_meta opens the session (its
// id, time and cwd); response_item lines are what the model saw and did
// (messages, function_call and custom_tool_call, local_shell_call and
// their outputs); event_msg lines are the client's own record: in 0.169
// item_completed with a UserMessage, AgentMessage, FileChange or
// CommandExecution item (testdata/codex-0.169.jsonl, recorded from it),
// in earlier releases user_message, agent_message and patch_apply_end.
type codexParser struct{}

type codexLine struct {
	Timestamp string          `json:"timestamp"`
	Type      string          `json:"type"`
	Payload   json.RawMessage `json:"payload"`
}

type codexPayload struct {
	Type      string `json:"type"`
	ID        string `json:"id"`
	Timestamp string `json:"timestamp"`
	Cwd       string `json:"cwd"`
	Role      string `json:"role"`
	Content   []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"content"`
	Name      string          `json:"name"`
	Namespace string          `json:"namespace"` // an MCP server's tools, "mcp__wake"
	Arguments string          `json:"arguments"`
	Input     string          `json:"input"`
	CallID    string          `json:"call_id"`
	Action    json.RawMessage `json:"action"`
	Message   string          `json:"message"`
	Success   *bool           `json:"success"`
	Output    json.RawMessage `json:"output"`
	Item      *codexEventItem `json:"item"`
}

// codexEventItem is the item of an item_completed event.
type codexEventItem struct {
	Type    string `json:"type"`
	ID      string `json:"id"`
	Status  string `json:"status"`
	Content []struct {
		Text string `json:"text"`
	} `json:"content"`
	Changes  map[string]json.RawMessage `json:"changes"`
	ExitCode *int                       `json:"exit_code"`
}

func (it *codexEventItem) text() string {
	var parts []string
	for _, c := range it.Content {
		parts = append(parts, c.Text)
	}
	return strings.Join(parts, " ")
}

// codexArgs are the arguments of a function call that runs a command or
// applies a patch, under the names Codex's tools have used.
type codexArgs struct {
	Command json.RawMessage `json:"command"` // a string, or argv
	Cmd     json.RawMessage `json:"cmd"`
	Input   string          `json:"input"`
	Patch   string          `json:"patch"`
}

func (codexParser) skim(line []byte, c *collector) bool {
	if !c.workOnly {
		return true
	}
	// "wake": a command that may be a decision.
	for _, w := range []string{"apply_patch", "*** Begin Patch", "patch_apply_end", `"FileChange"`, "wake"} {
		if bytes.Contains(line, []byte(w)) {
			return true
		}
	}
	return c.waitingIn(line)
}

// codexOutputTypes are the payloads that carry a tool's output, the bulk
// of a long rollout: read only for a call whose outcome is awaited.
var codexOutputTypes = []member{newMember("type", `"function_call_output"`), newMember("type", `"custom_tool_call_output"`)}

func (codexParser) line(raw []byte, c *collector) bool {
	// The payload's type and call_id come before its output: a look at the
	// line's head decides whether the output needs reading. (Skipped
	// unread, a malformed output line is not counted as malformed.)
	head := raw[:min(len(raw), 512)]
	for _, t := range codexOutputTypes {
		if t.in(head) && !c.waitingIn(head) {
			return true
		}
	}
	var l codexLine
	if err := json.Unmarshal(raw, &l); err != nil {
		return false
	}
	c.at(l.Timestamp)
	var p codexPayload
	if len(l.Payload) > 0 && json.Unmarshal(l.Payload, &p) != nil {
		return true // a payload of another shape than this reader knows
	}
	switch l.Type {
	case "session_meta":
		c.session(p.ID)
		c.cwd(p.Cwd)
		if t := timeOf(p.Timestamp); !t.IsZero() {
			c.startAt(t)
		}
	case "turn_context":
		c.cwd(p.Cwd)
	case "response_item":
		codexItem(c, &p)
	case "event_msg":
		codexEvent(c, &p)
	}
	return true
}

func codexItem(c *collector, p *codexPayload) {
	switch p.Type {
	case "message":
		for _, part := range p.Content {
			switch {
			case p.Role == "assistant" && part.Type == "output_text":
				c.message(part.Text)
			case p.Role == "user" && part.Type == "input_text" && isStopFeedback(part.Text):
				// <hook_prompt hook_run_id="stop:...">wake: this session ...
				c.stopFeedback()
			case p.Role == "user" && part.Type == "input_text" && !codexInjected(part.Text):
				c.altPrompt(part.Text)
			}
		}
	case "custom_tool_call":
		if p.Name == "apply_patch" {
			codexPatch(c, p.CallID, p.Input)
		}
	case "function_call":
		if isDecisionTool(p.Name) || strings.HasPrefix(p.Namespace, "mcp__") && isDecisionTool(p.Namespace+"__"+p.Name) {
			c.decidedBy(p.CallID)
			return
		}
		var a codexArgs
		_ = json.Unmarshal([]byte(p.Arguments), &a)
		if p.Name == "apply_patch" {
			codexPatch(c, p.CallID, a.Input+a.Patch)
			return
		}
		if cmd := codexCommand(a.Cmd); cmd != "" {
			codexRan(c, p.CallID, cmd)
		} else if cmd := codexCommand(a.Command); cmd != "" {
			codexRan(c, p.CallID, cmd)
		}
	case "local_shell_call":
		var a struct {
			Command json.RawMessage `json:"command"`
		}
		_ = json.Unmarshal(p.Action, &a)
		codexRan(c, p.CallID, codexCommand(a.Command))
	case "function_call_output", "custom_tool_call_output":
		if failed, known := codexOutcome(p.Output); known {
			c.result(p.CallID, failed)
		}
	}
}

func codexEvent(c *collector, p *codexPayload) {
	switch p.Type {
	case "user_message":
		if isStopFeedback(p.Message) {
			c.stopFeedback()
			return
		}
		c.prompt(p.Message)
	case "agent_message":
		c.message(p.Message)
	case "patch_apply_end":
		if p.Success != nil {
			c.result(p.CallID, !*p.Success)
		}
	case "item_completed":
		if p.Item != nil {
			codexCompleted(c, p.Item)
		}
	}
}

// codexCompleted reads an item the client completed: the user's message,
// the agent's, and the files a patch changed, with whether it did.
func codexCompleted(c *collector, it *codexEventItem) {
	switch it.Type {
	case "UserMessage":
		c.prompt(it.text())
	case "AgentMessage":
		c.message(it.text())
	case "CommandExecution":
		if _, ok := c.pending[it.ID]; ok {
			c.result(it.ID, it.Status != "completed" || it.ExitCode != nil && *it.ExitCode != 0)
		}
	case "FileChange":
		failed := it.Status != "" && it.Status != "completed"
		if _, ok := c.pending[it.ID]; ok || failed {
			c.result(it.ID, failed)
			return
		}
		for path := range it.Changes {
			c.edit("", path, "apply_patch")
		}
	}
}

// codexInjected recognises what Codex itself puts in a user message: the
// environment, the AGENTS.md instructions, other tagged context.
func codexInjected(t string) bool {
	t = strings.TrimSpace(t)
	return t == "" || strings.HasPrefix(t, "<") || strings.HasPrefix(t, "# AGENTS.md instructions")
}

// codexRan notes a command, and the files of a patch it applies.
func codexRan(c *collector, id, cmd string) {
	if cmd == "" {
		return
	}
	c.ran(id, cmd)
	if strings.Contains(cmd, "*** Begin Patch") {
		codexPatch(c, id, cmd)
	}
}

// codexCommand is a command given as a string or as argv; a shell's
// "-c"/"-lc" script stands for the whole.
func codexCommand(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var argv []string
	if json.Unmarshal(raw, &argv) != nil || len(argv) == 0 {
		return ""
	}
	if n := len(argv); n >= 3 && (argv[n-2] == "-c" || argv[n-2] == "-lc") {
		return argv[n-1]
	}
	return strings.Join(argv, " ")
}

// codexOutcome reads a tool call's output: failed, when it says so, and
// whether it says at all (an exit code, or a success flag).
func codexOutcome(raw json.RawMessage) (failed, known bool) {
	var v struct {
		Success  *bool `json:"success"`
		Metadata *struct {
			ExitCode *int `json:"exit_code"`
		} `json:"metadata"`
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		raw = []byte(s)
	}
	if json.Unmarshal(raw, &v) != nil {
		return false, false
	}
	switch {
	case v.Success != nil:
		return !*v.Success, true
	case v.Metadata != nil && v.Metadata.ExitCode != nil:
		return *v.Metadata.ExitCode != 0, true
	}
	return false, false
}

// codexPatch notes the files an apply_patch patch adds, updates, deletes
// or moves to.
func codexPatch(c *collector, id, patch string) {
	for line := range strings.SplitSeq(patch, "\n") {
		line = strings.TrimSpace(line)
		for _, h := range []string{"*** Add File: ", "*** Update File: ", "*** Delete File: ", "*** Move to: "} {
			if p, ok := strings.CutPrefix(line, h); ok {
				c.edit(id, p, "apply_patch")
			}
		}
	}
}
