package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/wakeproto/wake/boot"
	"github.com/wakeproto/wake/tiers"
)

// Limits on reading the hook's JSON: Claude Code writes one small object and
// closes stdin, so anything else is not worth waiting for.
const (
	maxHookInput  = 1 << 20
	hookReadLimit = 5 * time.Second
)

// hookInput is the JSON Claude Code passes a SessionStart hook on stdin.
type hookInput struct {
	SessionID      string `json:"session_id"`
	TranscriptPath string `json:"transcript_path"`
	Cwd            string `json:"cwd"`
	HookEventName  string `json:"hook_event_name"`
	Source         string `json:"source"` // startup, resume, clear or compact
}

func addHookFlags(cmd *cobra.Command, o *loadOptions) {
	cmd.Flags().StringVar(&o.hook, "hook", "", "run as the SessionStart hook of `CLIENT` (claude): print at most 10,000 characters and point to the whole context")
	addSkillFlags(cmd, &o.skillFlags)
}

// hookRun is `wake load --hook claude`. Whatever happens it exits 0 with a
// message on stdout, since only that reaches the agent: a session must
// start even when its memory cannot be loaded, and the agent must know.
func (a *app) hookRun(cmd *cobra.Command, o *loadOptions) error {
	if o.hook != "claude" {
		return usagef("--hook %q: want claude", o.hook)
	}
	if cmd.Flags().Changed("format") {
		return usagef("--hook prints the hook's text; --format does not apply")
	}
	in := a.readHookInput()
	dir := a.cwd
	if in.Cwd != "" && filepath.IsAbs(in.Cwd) {
		dir = filepath.Clean(in.Cwd)
	}
	m, err := a.openFrom(dir)
	if errors.Is(err, tiers.ErrNoRoot) {
		fmt.Fprintf(a.out, "wake has no memory here: no memory root (.wake/) in %s or above it, so this session starts without one. To give this project a memory, run `wake init` in it.\n", dir)
		return nil
	}
	if err != nil {
		return a.hookFailed(err)
	}
	st, err := a.start(m, o.bootFiles(true))
	if err != nil {
		return a.hookFailed(err)
	}
	_, err = io.WriteString(a.out, boot.Hook(st.Context, st.Target, boot.HookLimit))
	return err
}

// hookFailed tells the agent, on stdout, that its memory could not be
// loaded, and the user, on stderr, why.
func (a *app) hookFailed(err error) error {
	fmt.Fprintf(a.out, "wake could not load this project's memory: %v\nTell the user; `wake load` in a terminal shows the error and a hint.\n", err)
	a.report(err)
	return nil
}

// readHookInput reads the hook's JSON from stdin when there is some. A
// terminal, an empty stdin or bad JSON gives the zero input (bad JSON with
// a warning): the root is then found from the working directory.
func (a *app) readHookInput() hookInput {
	var in hookInput
	if a.in == nil {
		return in
	}
	if f, ok := a.in.(*os.File); ok {
		if fi, err := f.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
			return in
		}
	}
	type result struct {
		data []byte
		err  error
	}
	done := make(chan result, 1)
	go func() {
		data, err := io.ReadAll(io.LimitReader(a.in, maxHookInput))
		done <- result{data, err}
	}()
	var r result
	select {
	case r = <-done:
	case <-time.After(hookReadLimit):
		a.warn([]string{fmt.Sprintf("no hook input on stdin after %s; looking for the memory root from the working directory", hookReadLimit)})
		return in
	}
	if r.err != nil {
		a.warn([]string{fmt.Sprintf("reading the hook input on stdin: %v", r.err)})
		return in
	}
	if len(bytes.TrimSpace(r.data)) == 0 {
		return in
	}
	if err := json.Unmarshal(r.data, &in); err != nil {
		a.warn([]string{fmt.Sprintf("the hook input on stdin is not the JSON Claude Code sends (%v); looking for the memory root from the working directory", err)})
		return hookInput{}
	}
	return in
}
