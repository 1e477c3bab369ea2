package transcript

import (
	"bytes"
	"encoding/json"
)

// wakeParser reads wake's own transcript format, which the OpenCode
// plugin writes (OpenCode keeps no transcript file): one object a line,
// unknown types and fields ignored.
//
//	{"type":"session","id":"ses_…","at":"2026-11-22T10:00:00Z","cwd":"/abs/proj"}
//	{"type":"prompt","text":"the user's prompt"}
//	{"type":"edit","path":"relative/or/abs/path","tool":"write"}
//	{"type":"command","command":"go test ./..."}
//	{"type":"message","text":"assistant text"}
//	{"type":"decision"}
type wakeParser struct{}

type wakeLine struct {
	Type    string `json:"type"`
	ID      string `json:"id"`
	At      string `json:"at"`
	Cwd     string `json:"cwd"`
	Text    string `json:"text"`
	Path    string `json:"path"`
	Tool    string `json:"tool"`
	Command string `json:"command"`
}

func (wakeParser) skim(line []byte, c *collector) bool {
	if !c.workOnly {
		return true
	}
	return bytes.Contains(line, []byte(`"edit"`)) || bytes.Contains(line, []byte(`"decision"`)) || bytes.Contains(line, []byte(`"session"`))
}

func (wakeParser) line(raw []byte, c *collector) bool {
	var l wakeLine
	if err := json.Unmarshal(raw, &l); err != nil {
		return false
	}
	c.at(l.At)
	switch l.Type {
	case "session":
		c.session(l.ID)
		c.cwd(l.Cwd)
		if t := timeOf(l.At); !t.IsZero() {
			c.startAt(t)
		}
	case "prompt":
		c.prompt(l.Text)
	case "edit":
		tool := l.Tool
		if tool == "" {
			tool = "edit"
		}
		c.edit("", l.Path, tool)
	case "command":
		c.command(l.Command)
	case "message":
		c.message(l.Text)
	case "decision":
		c.decision()
	}
	return true
}
