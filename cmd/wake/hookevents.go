package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/wakeproto/wake"
	"github.com/wakeproto/wake/clients"
	"github.com/wakeproto/wake/store"
	"github.com/wakeproto/wake/tiers"
	"github.com/wakeproto/wake/transcript"
)

// eventClients are the clients whose Stop and SessionEnd hooks wake runs,
// with the name that messages give them, their transcript's format, and
// how the Stop hook blocks a stop.
var eventClients = map[string]struct {
	title  string
	format transcript.Format
	// blockOnStderr: the Stop hook blocks with exit status 2 and the
	// reason on stderr, the documented blocking form of Claude Code's
	// Stop hook. Given {"decision":"block"} on stdout instead, Claude
	// Code sends the reason to the model twice, as the user's turn and
	// again in a system note; on stderr it sends it once. Codex reads
	// the JSON.
	blockOnStderr bool
}{
	"claude": {"Claude Code", transcript.Claude, true},
	"codex":  {"Codex", transcript.Codex, false},
}

// stopBlocked is the exit status of a Stop hook that blocks the stop with
// its reason on stderr.
const stopBlocked = exitStatus(2)

// stopLockTimeout bounds the Stop hook's wait for the root's lock, which
// it takes only to note that it asked: the agent waits on it.
const stopLockTimeout = 2 * time.Second

func (a *app) hookCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "hook",
		Short: "Run as a client's Stop or SessionEnd hook",
		Long:  help("hook"),
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return hintError{usagef("wake hook needs an event: stop, end or compact"), "run 'wake hook stop claude', 'wake hook end claude' or 'wake hook compact claude'"}
		},
	}
	for _, ev := range []struct {
		name, short, help string
		run               func(context.Context, string) error
	}{
		{"stop", "The Stop hook: ask once for the hand-off of a session that did work", "stop", a.hookStopRun},
		{"end", "The SessionEnd hook: the automatic hand-off, when the session wrote none", "end", a.hookEndRun},
		{"compact", "The PreCompact hook: a checkpoint of the session, for the context after the compaction", "precompact", a.hookCompactRun},
	} {
		sub := &cobra.Command{
			Use:     ev.name + " CLIENT",
			Short:   ev.short,
			Long:    help(ev.help),
			Example: fmt.Sprintf("  wake hook %s claude < input.json\n  wake hook %s codex < input.json", ev.name, ev.name),
			// A hook exits 0 whatever happens: a client may read another
			// status as a reason to stop the agent, or to keep it going.
			// The one exception is the block of Claude Code's Stop hook
			// (stopBlocked), which is that status's documented meaning.
			Args: cobra.ArbitraryArgs,
			RunE: func(cmd *cobra.Command, args []string) error {
				if len(args) != 1 || eventClients[args[0]].title == "" {
					a.report(usagef("wake hook %s takes one argument, the client: claude or codex", ev.name))
					return nil
				}
				if a.below != "" && !a.relayGoesOn(a.below) {
					return nil
				}
				err := ev.run(cmd.Context(), args[0])
				if errors.Is(err, stopBlocked) {
					return err
				}
				if err != nil {
					a.report(err)
				}
				return nil
			},
		}
		a.addBelowFlag(sub)
		cmd.AddCommand(sub)
	}
	return cmd
}

// hookMemory reads the hook's input and opens the memory root of its
// session; nil, without an error, when the session has none.
func (a *app) hookMemory(client string, lockTimeout time.Duration) (clients.HookEvent, *wake.Memory, error) {
	var in clients.HookEvent
	a.warn(clients.ReadHookJSON(a.in, &in, eventClients[client].title, clients.HookReadLimit))
	if in.TranscriptPath != "" && !filepath.IsAbs(in.TranscriptPath) {
		in.TranscriptPath = filepath.Join(in.Dir(a.cwd), in.TranscriptPath)
	}
	root, err := a.locate(in.Dir(a.cwd))
	if errors.Is(err, tiers.ErrNoRoot) {
		return in, nil, nil
	}
	if err != nil {
		return in, nil, err
	}
	o := a.options()
	if lockTimeout > 0 {
		o.Locker = store.FileLocker{Timeout: lockTimeout}
	}
	m, err := wake.Open(root, o)
	return in, m, err
}

// hookStopRun is `wake hook stop CLIENT`. It blocks the agent's stop
// when the session did work (a tool edited a file, or a decision was
// logged) since it started, or since its last hand-off when it wrote one:
// once for each, not at every turn's end. The reason names the command to
// run: on stderr with exit status 2 for Claude Code, as JSON on stdout
// for Codex. It never blocks a stop that a Stop hook's block caused
// (stop_hook_active): the agent is not trapped.
func (a *app) hookStopRun(ctx context.Context, client string) error {
	in, m, err := a.hookMemory(client, stopLockTimeout)
	if err != nil || m == nil || in.StopHookActive {
		return err
	}
	if in.TranscriptPath == "" {
		a.warn([]string{eventClients[client].title + " gave no transcript_path: wake cannot tell what the session did, and does not ask for a hand-off"})
		return nil
	}
	format := eventClients[client].format
	mark, err := m.SessionMark(in.TranscriptPath, format, in.SessionID)
	if err != nil {
		return err
	}
	session := in.SessionID
	if session == "" {
		session = in.TranscriptPath
	}
	if m.StopAsked(session, mark.Since()) {
		return nil
	}
	w, err := m.SessionWork(in.TranscriptPath, format, mark)
	if err != nil || !w.DidWork() {
		return err
	}
	if err := m.NoteStopAsked(ctx, session, mark.Since()); err != nil {
		a.warn([]string{fmt.Sprintf("could not note that this session was asked for its hand-off (%v); it may be asked again", err)})
	}
	reason := stopReason(w, a.handoffCommand(m.Root(), in.Dir(a.cwd)))
	if eventClients[client].blockOnStderr {
		fmt.Fprintln(a.errOut, reason)
		return stopBlocked
	}
	enc := json.NewEncoder(a.out)
	enc.SetEscapeHTML(false)
	return enc.Encode(struct {
		Decision string `json:"decision"`
		Reason   string `json:"reason"`
	}{"block", reason})
}

// handoffCommand is the `wake handoff` an agent in dir runs to reach root:
// with --root when wake would not find root from dir on its own.
func (a *app) handoffCommand(root, dir string) string {
	cmd := "wake handoff"
	if found, err := wake.Find(a.fs, "", a.env["WAKE_ROOT"], dir); err != nil || found != root {
		cmd += " --root " + shellQuote(root)
	}
	return cmd
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-+:,@") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// stopReason is what the agent reads when its stop is blocked: why, and
// the one command to run. Its placeholders are in capitals, not in angle
// brackets: Codex hands the reason on inside a <hook_prompt> element and
// escapes them, so the model would read &lt; and &gt;.
func stopReason(w wake.SessionWork, wakeHandoff string) string {
	did := "recorded decisions"
	if w.Edited != "" {
		did = "changed files (" + filepath.ToSlash(w.Edited) + " among them)"
	}
	what, since := "THIS SESSION DID", "but wrote no hand-off"
	if w.HandedOff.After(w.Start) {
		what, since = "THIS SESSION DID AFTER ITS HAND-OFF", "since its hand-off of "+w.HandedOff.UTC().Format(time.RFC3339)+" but wrote no hand-off after it"
	}
	return fmt.Sprintf(transcript.StopReasonOpening+"%s %s, so the next session would start without knowing what happened. "+
		"Before you stop, write it with one command:\n\n"+
		"  %s --summary \"ONE LINE: WHAT %s\" --next \"THE SINGLE MOST IMPORTANT NEXT STEP\"\n\n"+
		"Add --decision \"WHAT because WHY\" for each decision made and --thread \"...\" for each thing left open. "+
		"Then stop. wake asks once for the work since a session's start or its last hand-off; if the session ends without a hand-off of it, wake writes an automatic one from the transcript.",
		did, since, wakeHandoff, what)
}

// hookEndRun is `wake hook end CLIENT`: the automatic hand-off of the
// session that ended, from its transcript, unless it wrote its own or
// did no work. What it did goes to stderr: a client shows a SessionEnd
// hook's output to no one but its log.
func (a *app) hookEndRun(ctx context.Context, client string) error {
	in, m, err := a.hookMemory(client, 0)
	if err != nil || m == nil {
		return err
	}
	if in.TranscriptPath == "" {
		a.warn([]string{eventClients[client].title + " gave no transcript_path: no automatic hand-off"})
		return nil
	}
	res, err := m.AutoHandoff(ctx, wake.AutoOptions{Transcript: in.TranscriptPath, Format: eventClients[client].format, SessionID: in.SessionID})
	if err != nil {
		return err
	}
	if res.Written != nil {
		a.primeStarts(ctx, m)
	}
	a.autoReport(a.errOut, res)
	return nil
}

// hookCompactRun is the PreCompact hook: before the client compacts the
// session's conversation, a checkpoint of what the session did so far,
// which the SessionStart hook of the compaction ("compact") puts in the
// context the client injects after it.
func (a *app) hookCompactRun(_ context.Context, client string) error {
	in, m, err := a.hookMemory(client, 0)
	if err != nil || m == nil {
		return err
	}
	if in.TranscriptPath == "" {
		a.warn([]string{eventClients[client].title + " gave no transcript_path: no checkpoint before the compaction"})
		return nil
	}
	_, err = m.Checkpoint(in.TranscriptPath, eventClients[client].format, in.SessionID)
	return err
}
