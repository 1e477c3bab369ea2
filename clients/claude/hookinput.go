package claude

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"
)

// Limits on reading the hook's JSON: Claude Code writes one small object and
// closes stdin, so anything else is not worth waiting for.
const (
	maxHookInput  = 1 << 20
	hookReadLimit = 5 * time.Second
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
	return readHookInput(stdin, hookReadLimit)
}

func readHookInput(stdin io.Reader, limit time.Duration) (HookInput, []string) {
	var in HookInput
	if stdin == nil {
		return in, nil
	}
	if f, ok := stdin.(*os.File); ok {
		if fi, err := f.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
			return in, nil
		}
	}
	type result struct {
		data []byte
		err  error
	}
	done := make(chan result, 1)
	go func() {
		data, err := io.ReadAll(io.LimitReader(stdin, maxHookInput))
		done <- result{data, err}
	}()
	var r result
	select {
	case r = <-done:
	case <-time.After(limit):
		return in, []string{fmt.Sprintf("no hook input on stdin after %s; looking for the memory root from the working directory", limit)}
	}
	if r.err != nil {
		return in, []string{fmt.Sprintf("reading the hook input on stdin: %v", r.err)}
	}
	if len(bytes.TrimSpace(r.data)) == 0 {
		return in, nil
	}
	if err := json.Unmarshal(r.data, &in); err != nil {
		return HookInput{}, []string{fmt.Sprintf("the hook input on stdin is not the JSON Claude Code sends (%v); looking for the memory root from the working directory", err)}
	}
	return in, nil
}
