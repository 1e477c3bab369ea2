package claude

import (
	"io"
	"path/filepath"
	"time"

	"github.com/wakeproto/wake/clients"
)

// HookInput is the JSON Claude Code passes a SessionStart hook on stdin.
type HookInput struct {
	SessionID      string `json:"session_id"`
	TranscriptPath string `json:"transcript_path"`
	Cwd            string `json:"cwd"`
	HookEventName  string `json:"hook_event_name"`
	Source         string `json:"source"` // startup, resume, clear or compact
}

// Dir is where the hook looks for the memory root from: the session's
// working directory when Claude Code gave an absolute one, else cwd.
func (in HookInput) Dir(cwd string) string {
	if in.Cwd != "" && filepath.IsAbs(in.Cwd) {
		return filepath.Clean(in.Cwd)
	}
	return cwd
}

// ReadHookInput reads the hook's JSON from stdin when there is some, and
// returns it with what the user should be warned of. A terminal, an empty
// stdin or bad JSON gives the zero input (bad JSON, a read error or a
// stdin still open after a few seconds with a warning): the root is then
// found from the working directory.
func ReadHookInput(stdin io.Reader) (HookInput, []string) {
	return readHookInput(stdin, clients.HookReadLimit)
}

func readHookInput(stdin io.Reader, limit time.Duration) (HookInput, []string) {
	var in HookInput
	warnings := clients.ReadHookJSON(stdin, &in, "Claude Code", limit)
	return in, warnings
}
