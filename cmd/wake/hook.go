package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/afero"
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
	if a.below != "" && !a.relayGoesOn(a.below) {
		return nil
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
	// Claude Code, at a start or resume, reads boot.md through CLAUDE.md's
	// import, before the hook runs or, on a busy machine, after it: left
	// as it is, boot.md is the copy it read either way, and the hook's
	// text says what changed since (each fact once).
	o.boot.KeepBootMD = o.hook == "claude" && a.importsAtStart(m, in.Source, dir)
	recovered := a.recoverMissed(cmd.Context(), m, o.hook, in)
	text, err := a.startView(m, o.boot, a.hookView(m, o.hook, in.Source, dir))
	if err != nil {
		return a.hookFailed(err)
	}
	if in.Source == "compact" {
		// The conversation was compacted: what the session did before,
		// as the PreCompact hook kept it, comes first.
		if cp, err := m.ReadCheckpoint(in.SessionID); err != nil {
			a.warn([]string{fmt.Sprintf("reading the checkpoint of the session before its compaction: %v", err)})
		} else if cp != "" {
			recovered = cp + "\n" + recovered
		}
	}
	if recovered != "" {
		// The hook's text was fitted to the client's limit; what goes
		// before it gives way to it.
		h := hookLimits[o.hook]
		if room := h.Limit - h.Len(text); h.Len(recovered) > room {
			recovered = h.Cut(recovered, max(room-1, 0))
			if recovered != "" {
				recovered += "\n"
			}
		}
	}
	if a.below != "" && !a.relayImports(relayTarget(m)) {
		recovered = relayed + recovered
	}
	_, err = io.WriteString(a.out, recovered+text)
	return err
}

// hookLimits are how the clients take a SessionStart hook's text: the
// limit it is fitted to, and what a start adds before it (a recovery, a
// checkpoint) gives way within.
var hookLimits = map[string]boot.HookClient{"claude": boot.ClaudeCode, "codex": boot.Codex,
	"opencode": {Name: "OpenCode", Limit: 1 << 20, Unit: budget.UTF16}}

// recoverMissed hands off, before a fresh session of client starts, the
// earlier sessions of the client that left their work without a hand-off
// ([wake.Memory.RecoverMissed]), and returns the line that says so once:
// "" when there were none. A failure costs the recovery, not the start.
func (a *app) recoverMissed(ctx context.Context, m *wake.Memory, client string, in claude.HookInput) string {
	ev, ok := eventClients[client]
	if !ok || in.TranscriptPath == "" || in.Source != "" && in.Source != "startup" {
		return ""
	}
	recs, err := m.RecoverMissed(ctx, wake.RecoverOptions{Transcript: in.TranscriptPath, Format: ev.format})
	if err != nil {
		a.warn([]string{fmt.Sprintf("recovering sessions that ended without a hand-off: %v", err)})
		return ""
	}
	if len(recs) == 0 {
		return ""
	}
	a.primeStarts(ctx, m)
	var starts []string
	for _, r := range recs {
		starts = append(starts, r.Result.Start.UTC().Format(time.RFC3339))
	}
	which := "an earlier session"
	if len(recs) > 1 {
		which = fmt.Sprintf("%d earlier sessions", len(recs))
	}
	return fmt.Sprintf("wake recovered the hand-off of %s that ended without one (started %s): written now from its transcript, marked \"recovered\", and shown below as the last session. Check it against the work tree before building on it.\n\n",
		which, strings.Join(starts, ", "))
}

// hookView is the start of client's hook, started by source in dir. Its
// text rides the session start's cache: it depends on the client, the
// source and the directory besides what the start reads, and its name
// says them (see [viewByName]).
func (a *app) hookView(m *wake.Memory, client, source, dir string) wake.View {
	return wake.View{
		Name: fmt.Sprintf("hook %s\x00%s\x00%s", client, source, dir),
		Render: func(st *wake.Start, fsys afero.Fs, notify func(wake.Notice)) (string, error) {
			text := a.hookText(fsys, client, source, m, dir, st)
			if client == "claude" {
				text = a.foreignImport(fsys, notify, st.Target.Shared) + text
			}
			return text, nil
		},
	}
}

// foreignImport warns the agent and the user when ~/.claude/CLAUDE.md
// imports a shared skill.md another memory root wrote (an import an older
// wake added in skill mode): every session reads it, and it is not this
// project's memory. "" when it does not.
func (a *app) foreignImport(fsys afero.Fs, notify func(wake.Notice), sh boot.SkillFile) string {
	if sh.Whose != boot.WhoseOther || !claude.ImportsGlobally(fsys, a.env["HOME"], sh.Path) {
		return ""
	}
	notify(wake.Notice{Kind: "warning",
		Msg:  fmt.Sprintf("~/.claude/CLAUDE.md imports %s, the memory of another project (%s), into every Claude Code session", sh.Path, sh.Owner),
		Hint: "run 'wake install claude' in that project to move the import into its own CLAUDE.md, or remove the line from ~/.claude/CLAUDE.md"})
	return fmt.Sprintf("Warning from wake: ~/.claude/CLAUDE.md imports %s, which is the memory of another project (%s), not this one: disregard it in this session.\n\n", sh.Path, sh.Owner)
}

// hookText is what the hook of client prints, saying nothing the session
// holds already (see [boot.HookFor]):
//   - Claude Code has read boot.md through CLAUDE.md's import before the
//     hook's output: it gets what changed since. With [claude] boot =
//     "skill" it has read skill.md instead, and gets the summary.
//   - Codex reads no file of wake's: it gets the whole context when it
//     fits in 10,000 bytes, else its sections by worth, within the limit,
//     naming what was left out.
//   - OpenCode reads boot.md through opencode.json's instructions after
//     its plugin ran this hook: it gets nothing unless boot.md could not
//     be written, and then the summary.
func (a *app) hookText(fsys afero.Fs, client, source string, m *wake.Memory, dir string, st *wake.Start) string {
	c, t := st.Context, st.Target
	switch client {
	case "codex":
		return boot.HookFor(c, t, boot.Codex)
	case "opencode":
		if t.BootPath != "" && len(t.Problems) == 0 {
			return ""
		}
		return boot.HookFor(c, t, hookLimits["opencode"])
	}
	// A session a relay serves read no import, unless the user
	// approved imports from outside its directory.
	relayMiss := a.below != "" && !a.relayImports(relayTarget(m))
	if m.Config().Claude.Boot == tiers.BootSkill && !relayMiss {
		return boot.Hook(c, t, boot.HookLimit)
	}
	// Only at a start or resume does the session hold the copy the import
	// read as the hook runs: after /clear or a compaction the import may
	// be a copy memoised earlier, and the hook's earlier text is gone.
	h := boot.ClaudeCode
	imports := claude.ImportsBoot(fsys, dir, t.BootPath) || a.below != "" && !relayMiss
	if t.BootPath == "" || source != "" && source != "startup" && source != "resume" || !imports {
		h.Import = ""
	}
	return boot.HookFor(c, t, h)
}

// importsAtStart reports whether the Claude Code session of source in dir
// read boot.md through an import as it started: full mode, a start or a
// resume, and CLAUDE.md imports it there (or the user approved a relayed
// session's external import).
func (a *app) importsAtStart(m *wake.Memory, source, dir string) bool {
	if m.Config().Claude.Boot != tiers.BootFull || source != "" && source != "startup" && source != "resume" {
		return false
	}
	if a.below != "" {
		return a.relayImports(relayTarget(m))
	}
	return claude.ImportsBoot(a.fs, dir, relayTarget(m))
}

// relayTarget is the file the project's CLAUDE.md imports: boot.md, or
// with [claude] boot = "skill" the root's own skill.md.
func relayTarget(m *wake.Memory) string {
	if m.Config().Claude.Boot == tiers.BootSkill {
		return filepath.Join(m.Root(), tiers.RootSkillPath)
	}
	return filepath.Join(m.Root(), tiers.BootPath)
}

// hookFailed tells the agent, on stdout, that its memory could not be
// loaded, and the user, on stderr, why.
func (a *app) hookFailed(err error) error {
	fmt.Fprintf(a.out, "wake could not load this project's memory: %v\nTell the user; `wake load` in a terminal shows the error and a hint.\n", err)
	a.report(err)
	return nil
}
