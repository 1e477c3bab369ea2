package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"github.com/spf13/afero"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/wakeproto/wake"
	"github.com/wakeproto/wake/clients"
	"github.com/wakeproto/wake/clients/claude"
	"github.com/wakeproto/wake/policy"
	"github.com/wakeproto/wake/store"
	"github.com/wakeproto/wake/tiers"
)

// subagentLockTimeout bounds the SubagentStart hook's wait for the root's
// lock (to build a capsule, and to record the injection): the subagent
// waits on it. Within the hook's own limit (Codex's 30 s as installed,
// Claude Code's default of 60 s), and long enough for a session start or
// a hand-off that holds the lock on a loaded machine (5 s was not, in a
// loaded test run).
const subagentLockTimeout = 20 * time.Second

// addCapsuleHook gives `wake capsule` its --hook CLIENT flag, with which
// it runs as the client's SubagentStart hook instead of writing a capsule.
func (a *app) addCapsuleHook(cmd *cobra.Command) {
	var client string
	cmd.Flags().StringVar(&client, "hook", "", "run as the SubagentStart hook of `CLIENT` (claude or codex): give the starting subagent the branch's newest capsule")
	run := cmd.RunE
	cmd.RunE = func(c *cobra.Command, args []string) error {
		if !c.Flags().Changed("hook") {
			if a.below != "" {
				return usagef("--below applies with --hook claude")
			}
			return run(c, args)
		}
		var other string
		c.Flags().Visit(func(f *pflag.Flag) {
			if f.Name != "hook" && f.Name != "root" && f.Name != "below" {
				other = f.Name
			}
		})
		if other != "" {
			return usagef("--hook reads the hook's JSON on stdin; --%s does not apply", other)
		}
		// A hook exits 0 whatever happens: Claude Code reads status 2
		// from a SubagentStart hook as a blocking error.
		if eventClients[client].title == "" {
			a.report(usagef("--hook %q: want claude or codex", client))
			return nil
		}
		if a.below != "" && !a.relayGoesOn(a.below) {
			return nil
		}
		return a.capsuleHookRun(c.Context(), client)
	}
	a.addBelowFlag(cmd)
}

// subagentEvent is what Claude Code and Codex give a SubagentStart hook
// on stdin, as far as wake reads it: the common fields and the agent's id
// and type (Claude Code's matcher matches the type).
type subagentEvent struct {
	clients.HookEvent
	AgentID   string `json:"agent_id"`
	AgentType string `json:"agent_type"`
}

// subagentOutput is the JSON both clients read from a SubagentStart hook:
// hookSpecificOutput.additionalContext goes into the subagent's
// conversation before its first request.
type subagentOutput struct {
	HookSpecificOutput struct {
		HookEventName     string `json:"hookEventName"`
		AdditionalContext string `json:"additionalContext"`
	} `json:"hookSpecificOutput"`
}

// capsuleHookRun is `wake capsule --hook CLIENT`. Whatever happens it
// exits 0, so that the subagent starts: with the capsule as its context,
// with nothing (no memory root here, or an agent type [capsule.agents]
// gives none), or with a short note that the capsule could not be made,
// and why, the error itself going to stderr.
func (a *app) capsuleHookRun(ctx context.Context, client string) error {
	var in subagentEvent
	a.warn(clients.ReadHookJSON(a.in, &in, eventClients[client].title, clients.HookReadLimit))
	dir := in.Dir(a.cwd)
	if in.TranscriptPath != "" && !filepath.IsAbs(in.TranscriptPath) {
		in.TranscriptPath = filepath.Join(dir, in.TranscriptPath)
	}
	root, err := a.locate(dir)
	if errors.Is(err, tiers.ErrNoRoot) {
		return nil
	}
	if err != nil {
		return a.subagentFailed(err, "")
	}
	o := a.options()
	o.Locker = store.FileLocker{Timeout: subagentLockTimeout}
	m, err := wake.Open(root, o)
	if err != nil {
		return a.subagentFailed(err, root)
	}
	inj, err := m.SubagentStart(ctx, wake.SubagentStartInput{Client: client, AgentID: in.AgentID, AgentType: in.AgentType,
		Session: in.SessionID, Transcript: in.TranscriptPath, Known: a.subagentKnows(client, dir, root)})
	if err != nil {
		return a.subagentFailed(err, root)
	}
	if inj.Text == "" {
		return nil
	}
	return a.subagentContext(inj.Text)
}

// subagentContext prints text as the hook's additionalContext.
func (a *app) subagentContext(text string) error {
	var out subagentOutput
	out.HookSpecificOutput.HookEventName = "SubagentStart"
	out.HookSpecificOutput.AdditionalContext = text
	enc := json.NewEncoder(a.out)
	enc.SetEscapeHTML(false)
	return enc.Encode(out)
}

// subagentFailed tells the subagent, in its context, that it starts
// without a capsule and why, and the user, on stderr, the error with its
// hint; the hook still exits 0.
func (a *app) subagentFailed(err error, root string) error {
	a.report(err)
	why, _ := policy.Scrub(err.Error())
	text := fmt.Sprintf("wake could not give this subagent its context capsule: %s.", why)
	if root != "" {
		text += fmt.Sprintf(" Read the memory files in %s (the HANDOFF, the active tasks and decisions) for the current context", root)
	} else {
		text += " Ask the main agent for the current context"
	}
	text += ", and tell the main agent that the capsule was missing.\n"
	return a.subagentContext(text)
}

// subagentKnows is the boot context a subagent of client started in dir
// is given by the client itself: Claude Code's, through the CLAUDE.md
// that imports boot.md; "" when none.
func (a *app) subagentKnows(client, dir, root string) string {
	boot := filepath.Join(root, tiers.BootPath)
	if client != "claude" || !claude.ImportsBoot(a.fs, dir, boot) {
		return ""
	}
	data, err := afero.ReadFile(a.fs, boot)
	if err != nil {
		return ""
	}
	return string(data)
}
