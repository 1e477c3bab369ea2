package main

import (
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/spf13/cobra"

	"github.com/wakeproto/wake"
	"github.com/wakeproto/wake/boot"
	"github.com/wakeproto/wake/budget"
	"github.com/wakeproto/wake/clients/claude"
	"github.com/wakeproto/wake/tiers"
)

func addHookFlags(cmd *cobra.Command, o *loadOptions) {
	cmd.Flags().StringVar(&o.hook, "hook", "", "run as the SessionStart hook of `CLIENT` (claude, codex or opencode): print what the session lacks, within the client's limit")
	addSkillFlags(cmd, &o.boot)
}

// hookClients are the clients `wake load --hook` runs for.
var hookClients = []string{"claude", "codex", "opencode"}

// hookRun is `wake load --hook CLIENT`. Whatever happens it exits 0 with a
// message on stdout, since only that reaches the agent: a session must
// start even when its memory cannot be loaded, and the agent must know.
func (a *app) hookRun(cmd *cobra.Command, o *loadOptions) error {
	if !slices.Contains(hookClients, o.hook) {
		return usagef("--hook %q: want claude, codex or opencode", o.hook)
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
	_, err = io.WriteString(a.out, a.hookText(o.hook, m, dir, st))
	return err
}

// hookText is what the hook of client prints, saying nothing the session
// holds already (see [boot.HookFor]):
//   - Claude Code has read boot.md through CLAUDE.md's import before the
//     hook's output: it gets what changed since. With [claude] boot =
//     "skill" it has read skill.md instead, and gets the summary.
//   - Codex reads no file of wake's: it gets the whole context when it
//     fits in 10,000 bytes, else the summary.
//   - OpenCode reads boot.md through opencode.json's instructions after
//     its plugin ran this hook: it gets nothing unless boot.md could not
//     be written, and then the summary.
func (a *app) hookText(client string, m *wake.Memory, dir string, st *wake.Start) string {
	c, t := st.Context, st.Target
	switch client {
	case "codex":
		return boot.HookFor(c, t, boot.Codex)
	case "opencode":
		if t.BootPath != "" && len(t.Problems) == 0 {
			return ""
		}
		return boot.HookFor(c, t, boot.HookClient{Name: "OpenCode", Limit: 1 << 20, Unit: budget.UTF16})
	}
	if m.Config().Claude.Boot == tiers.BootSkill {
		return boot.Hook(c, t, boot.HookLimit)
	}
	h := boot.ClaudeCode
	if t.BootPath == "" || !claude.ImportsBoot(a.fs, dir, t.BootPath, a.env["HOME"]) {
		h.Import = ""
	}
	return boot.HookFor(c, t, h)
}

// hookFailed tells the agent, on stdout, that its memory could not be
// loaded, and the user, on stderr, why.
func (a *app) hookFailed(err error) error {
	fmt.Fprintf(a.out, "wake could not load this project's memory: %v\nTell the user; `wake load` in a terminal shows the error and a hint.\n", err)
	a.report(err)
	return nil
}
