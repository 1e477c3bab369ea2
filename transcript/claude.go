package transcript

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
)

// claudeParser reads Claude Code's session JSONL: one object a line, with
// a "type". The user's and the agent's turns are "user" and "assistant"
// lines whose "message" holds the API's message: content as a string or
// as blocks (text, tool_use, tool_result). Every other type (attachments,
// hook records, API request snapshots, some of them large) says nothing
// of the work and is only checked to be JSON.
type claudeParser struct{}

type claudeLine struct {
	Type        string `json:"type"`
	Timestamp   string `json:"timestamp"`
	SessionID   string `json:"sessionId"`
	Cwd         string `json:"cwd"`
	IsMeta      bool   `json:"isMeta"`
	IsSidechain bool   `json:"isSidechain"`
	Message     *struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"message"`
}

type claudeBlock struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	IsError   bool            `json:"is_error"`
}

type claudeInput struct {
	FilePath     string `json:"file_path"`
	NotebookPath string `json:"notebook_path"`
	Command      string `json:"command"`
}

// claudeEditTools are Claude Code's tools that write files.
var claudeEditTools = map[string]bool{"Write": true, "Edit": true, "MultiEdit": true, "NotebookEdit": true}

func (claudeParser) skim(line []byte, c *collector) bool {
	// A turn carrying tool results is no prompt, and often large (a file
	// read back): it matters only when it settles a call that edited,
	// and only a failure needs it parsed.
	if bytes.Contains(line, []byte(`"tool_result"`)) {
		if isError.in(line) {
			return c.waitingIn(line)
		}
		for _, id := range slices.Clone(c.order) {
			if bytes.Contains(line, []byte(`"`+id+`"`)) {
				c.result(id, false)
			}
		}
		return false
	}
	if c.workOnly {
		// A turn recorded before the scope is no work of it, told by its
		// time without a parse of the file contents its tools carry;
		// once the working directory is known, which places the edits.
		if c.s.Cwd != "" && c.before(line, "timestamp") {
			return false
		}
		return bytes.Contains(line, []byte(`"tool_use"`)) || c.s.Cwd == "" && bytes.Contains(line, []byte(`"cwd"`)) ||
			c.s.SessionID == "" && bytes.Contains(line, []byte(`"sessionId"`))
	}
	return typeUser.in(line) || typeAssistant.in(line)
}

// The members claudeParser.skim looks for.
var (
	isError       = newMember("is_error", "true")
	typeUser      = newMember("type", `"user"`)
	typeAssistant = newMember("type", `"assistant"`)
)

func (claudeParser) line(raw []byte, c *collector) bool {
	var l claudeLine
	if err := json.Unmarshal(raw, &l); err != nil {
		return false
	}
	c.at(l.Timestamp)
	// Every line of a session bears its id, the first too (Head).
	c.session(l.SessionID)
	if l.Type != "user" && l.Type != "assistant" || l.Message == nil {
		return true
	}
	c.cwd(l.Cwd)
	var text string
	var blocks []claudeBlock
	if json.Unmarshal(l.Message.Content, &text) != nil {
		if json.Unmarshal(l.Message.Content, &blocks) != nil {
			return true
		}
	}
	// A subagent's turn (isSidechain) is the session's work, but its
	// prompt is the agent's, not the user's, and its text goes back to
	// the agent, not to the user.
	if l.Type == "user" {
		if !l.IsSidechain && claudeStopFeedback(text, blocks) {
			c.stopFeedback()
			return true
		}
		claudeUser(c, l.IsMeta || l.IsSidechain, text, blocks)
	} else {
		claudeAssistant(c, !l.IsSidechain, text, blocks)
	}
	return true
}

// claudeUser reads a user turn: a prompt, unless Claude Code made it
// (isMeta: hook feedback, caveats) or a subagent's (notPrompt), or it
// carries tool results.
func claudeUser(c *collector, notPrompt bool, text string, blocks []claudeBlock) {
	var texts []string
	results := false
	for _, b := range blocks {
		switch b.Type {
		case "tool_result":
			results = true
			c.result(b.ToolUseID, b.IsError)
		case "text":
			texts = append(texts, b.Text)
		}
	}
	if notPrompt || results {
		return
	}
	if text != "" {
		texts = append(texts, text)
	}
	var prompt []string
	for _, t := range texts {
		if !madeByClient(t) {
			prompt = append(prompt, t)
		}
	}
	if len(prompt) > 0 {
		c.prompt(strings.Join(prompt, " "))
	}
}

// claudeStopFeedback recognises the user turn in which Claude Code
// records wake's Stop hook reason (isMeta, "Stop hook feedback:\n[wake
// hook stop claude]: wake: this session ...").
func claudeStopFeedback(text string, blocks []claudeBlock) bool {
	if isStopFeedback(text) {
		return true
	}
	for _, b := range blocks {
		if b.Type == "text" && isStopFeedback(b.Text) {
			return true
		}
	}
	return false
}

// madeByClient recognises the texts Claude Code puts in a user turn
// itself: reminders, a subagent task's notification, slash commands
// and their output, interruptions.
func madeByClient(t string) bool {
	t = strings.TrimSpace(t)
	for _, p := range []string{"<system-reminder>", "<task-notification>", "<command-name>", "<command-message>", "<local-command-", "<bash-input>", "<bash-stdout>", "<bash-stderr>", "Caveat: ", "[Request interrupted"} {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	return t == ""
}

// claudeAssistant reads an agent's turn: its edits and commands, and its
// text when it is the agent's message to the user (mine).
func claudeAssistant(c *collector, mine bool, text string, blocks []claudeBlock) {
	if text != "" && mine {
		c.message(text)
	}
	for _, b := range blocks {
		switch b.Type {
		case "text":
			if mine {
				c.message(b.Text)
			}
		case "tool_use":
			var in claudeInput
			_ = json.Unmarshal(b.Input, &in)
			switch {
			case claudeEditTools[b.Name]:
				path := in.FilePath
				if path == "" {
					path = in.NotebookPath
				}
				c.edit(b.ID, path, b.Name)
			case b.Name == "Bash":
				c.ran(b.ID, in.Command)
			case isDecisionTool(b.Name):
				c.decidedBy(b.ID)
			}
		}
	}
}
