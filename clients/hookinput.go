package clients

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"time"
)

// Limits on reading a hook's JSON: a client writes one small object and
// closes stdin, so anything else is not worth waiting for.
const (
	MaxHookInput  = 1 << 20
	HookReadLimit = 5 * time.Second
)

// HookEvent is what Claude Code and Codex give a Stop or a SessionEnd
// hook on stdin, as far as wake reads it. Codex sends transcript_path
// null when it keeps none, which reads as "".
type HookEvent struct {
	SessionID      string `json:"session_id"`
	TranscriptPath string `json:"transcript_path"`
	Cwd            string `json:"cwd"`
	HookEventName  string `json:"hook_event_name"`
	StopHookActive bool   `json:"stop_hook_active"` // Stop: the session goes on because a Stop hook blocked it
	Reason         string `json:"reason"`           // SessionEnd: why the session ended
}

// Dir is where a hook looks for the memory root from: the session's
// working directory when the client gave an absolute one, else cwd.
func (in HookEvent) Dir(cwd string) string {
	if in.Cwd != "" && filepath.IsAbs(in.Cwd) {
		return filepath.Clean(in.Cwd)
	}
	return cwd
}

// ReadHookJSON reads a hook's JSON from stdin into v, a pointer to a
// struct, and returns what the user should be warned of. A terminal, an
// empty stdin or bad JSON leaves v zero (bad JSON, a read error, or a
// stdin still open after limit with a warning). title names the client in
// the warning: "Claude Code".
func ReadHookJSON(stdin io.Reader, v any, title string, limit time.Duration) []string {
	if stdin == nil {
		return nil
	}
	if f, ok := stdin.(*os.File); ok {
		if fi, err := f.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
			return nil
		}
	}
	type result struct {
		data []byte
		err  error
	}
	done := make(chan result, 1)
	go func() {
		data, err := io.ReadAll(io.LimitReader(stdin, MaxHookInput))
		done <- result{data, err}
	}()
	var r result
	select {
	case r = <-done:
	case <-time.After(limit):
		return []string{fmt.Sprintf("no hook input on stdin after %s; looking for the memory root from the working directory", limit)}
	}
	if r.err != nil {
		return []string{fmt.Sprintf("reading the hook input on stdin: %v", r.err)}
	}
	if len(bytes.TrimSpace(r.data)) == 0 {
		return nil
	}
	if err := json.Unmarshal(r.data, v); err != nil {
		reflect.ValueOf(v).Elem().SetZero()
		return []string{fmt.Sprintf("the hook input on stdin is not the JSON %s sends (%v); looking for the memory root from the working directory", title, err)}
	}
	return nil
}
