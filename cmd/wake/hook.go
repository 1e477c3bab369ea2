package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/wakeproto/wake/boot"
	"github.com/wakeproto/wake/clients/claude"
	"github.com/wakeproto/wake/tiers"
)

func addHookFlags(cmd *cobra.Command, o *loadOptions) {
	cmd.Flags().StringVar(&o.hook, "hook", "", "run as the SessionStart hook of `CLIENT` (claude): print at most 10,000 characters and point to the whole context")
	addSkillFlags(cmd, &o.boot)
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
	in, warnings := claude.ReadHookInput(a.in)
	a.warn(warnings)
	dir := in.Dir(a.cwd)
	m, err := a.openFrom(dir)
	if errors.Is(err, tiers.ErrNoRoot) {
		fmt.Fprintf(a.out, "wake has no memory here: no memory root (.wake/) in %s or above it, so this session starts without one. To give this project a memory, run `wake init` in it.\n", dir)
		return nil
	}
	if err != nil {
		return a.hookFailed(err)
	}
	o.boot.BootAlways = true // the hook writes boot.md even before install made it
	st, err := a.start(m, o.boot)
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
