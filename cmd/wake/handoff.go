package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/wakeproto/wake"
	"github.com/wakeproto/wake/handoff"
	"github.com/wakeproto/wake/report"
	"github.com/wakeproto/wake/store"
	"github.com/wakeproto/wake/transcript"
)

type handoffOptions struct {
	fields handoff.Fields
	file   string
	force  bool
	skill  wake.BootFiles
	auto   autoOptions
	format string
}

// autoOptions are the flags of `wake handoff --auto`.
type autoOptions struct {
	on         bool
	transcript string
	format     string
	start      string
}

func (a *app) handoffCmd() *cobra.Command {
	o := &handoffOptions{}
	cmd := &cobra.Command{
		Use:   "handoff",
		Short: "End the session: summary, HANDOFF block, rotation, decisions",
		Long:  help("handoff"),
		Example: `  wake handoff --summary "Moved config to TOML" --next "Port the CLI flags" \
    --happened "wrote the TOML loader" --decision "Use TOML because YAML indentation broke parsing"
  wake handoff --file summary.md
  echo '{"summary":"...","next":"..."}' | wake handoff --file -
  wake handoff --auto --transcript ~/.claude/projects/-work-p/5998b205.jsonl`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := o.auto.check(cmd); err != nil || o.auto.on {
				if err != nil {
					return err
				}
				return a.autoRun(cmd.Context(), o)
			}
			if cmd.Flags().Changed("file") && o.file == "" {
				return hintError{usagef("--file needs a path, or - for standard input"), "give --file PATH, or leave it out"}
			}
			o.given(cmd)
			in, err := a.handoffInput(o)
			if err != nil {
				return err
			}
			return a.handoffRun(cmd.Context(), in, o)
		},
	}
	f := cmd.Flags()
	h := &o.fields
	h.Summary, h.Next, h.Risk, h.Mood, h.Successor = new(string), new(string), new(string), new(string), new(string)
	f.StringVar(h.Summary, "summary", "", "session_summary: one line on what happened (required)")
	f.StringVar(h.Next, "next", "", "next_priority: the single most important thing to do next (required)")
	f.StringVar(h.Risk, "risk", "", "open_risk: anything that might break or needs attention")
	f.StringVar(h.Mood, "mood", "", "emotional_register: the user's apparent mood or energy")
	f.StringArrayVar(&h.Happened, "happened", nil, "a bullet for What happened (repeatable)")
	f.StringArrayVar(&h.Decisions, "decision", nil, `a decision, "WHAT because WHY", split at the first "because" (repeatable)`)
	f.StringArrayVar(&h.Changed, "changed", nil, "a file changed and why, for What changed (repeatable)")
	f.StringArrayVar(&h.Threads, "thread", nil, "an open thread, with enough context to resume (repeatable)")
	f.StringVar(h.Successor, "successor", "", "free text For my successor")
	f.BoolVar(&o.force, "force", false, "record a decision that contradicts one in force, contested, instead of refusing the hand-off")
	f.StringVar(&o.file, "file", "", "read the hand-off from `PATH` (Markdown or JSON; - for standard input)")
	f.BoolVar(&o.auto.on, "auto", false, "write the hand-off of a session that ended without one, from its transcript and git (see below)")
	f.StringVar(&o.auto.transcript, "transcript", "", "with --auto: the session's transcript `FILE`")
	f.StringVar(&o.auto.format, "transcript-format", "", "with --auto: the transcript's `FORMAT`, claude, codex or wake (default: told from the file)")
	f.StringVar(&o.auto.start, "session-start", "", "with --auto: when the session started, RFC 3339 `TIME` (default: the transcript's first time)")
	addSkillFlags(cmd, &o.skill)
	addFormat(cmd, &o.format, "text or json", "text", "json")
	return cmd
}

// check refuses what --auto does not combine with, and the --auto flags
// without it.
func (o *autoOptions) check(cmd *cobra.Command) error {
	if !o.on {
		for _, name := range []string{"transcript", "transcript-format", "session-start"} {
			if cmd.Flags().Changed(name) {
				return hintError{usagef("--%s goes with --auto", name), "add --auto, or leave --" + name + " out"}
			}
		}
		return nil
	}
	for _, name := range []string{"summary", "next", "risk", "mood", "happened", "decision", "changed", "thread", "successor", "file", "force"} {
		if cmd.Flags().Changed(name) {
			return hintError{usagef("--auto writes the hand-off from the transcript; --%s does not apply", name), "leave --" + name + " out, or --auto"}
		}
	}
	if o.transcript == "" && o.start == "" {
		return hintError{usagef("--auto needs --transcript FILE or --session-start TIME"), "give the session's transcript, or when it started"}
	}
	return nil
}

// autoRun is `wake handoff --auto`.
func (a *app) autoRun(ctx context.Context, o *handoffOptions) error {
	format, err := transcript.ParseFormat(o.auto.format)
	if err != nil {
		return hintError{usageError{fmt.Errorf("--transcript-format: %w", err)}, "give claude, codex or wake, or leave it out"}
	}
	var start time.Time
	if o.auto.start != "" {
		if start, err = time.Parse(time.RFC3339, o.auto.start); err != nil {
			return hintError{usagef("--session-start %q is not an RFC 3339 time", o.auto.start), "give it as 2026-11-22T10:00:00Z"}
		}
	}
	name := o.auto.transcript
	if name != "" && !filepath.IsAbs(name) {
		name = filepath.Join(a.cwd, name)
	}
	m, err := a.open()
	if err != nil {
		return err
	}
	res, err := m.AutoHandoff(ctx, wake.AutoOptions{Transcript: name, Format: format, Start: start, Boot: o.skill})
	if errors.Is(err, store.ErrLockTimeout) {
		return hintError{err, "another wake command holds the memory root's lock; run the hand-off again when it is done"}
	}
	if err != nil {
		return err
	}
	if res.Written != nil {
		a.primeStarts(ctx, m)
	}
	if o.format == "json" {
		return a.writeJSON(report.AutoHandoffJSON(res))
	}
	a.autoReport(a.out, res)
	return nil
}

// autoReport says what an automatic hand-off did.
func (a *app) autoReport(w io.Writer, res wake.AutoResult) {
	if res.Written == nil {
		fmt.Fprintf(w, "No automatic hand-off: %s.\n", res.Skipped)
		return
	}
	report.HandoffText(w, *res.Written)
}

// given leaves set only the one-line flags the command line gave; a list
// flag not given is nil already.
func (o *handoffOptions) given(cmd *cobra.Command) {
	h := &o.fields
	for _, f := range []struct {
		name string
		v    **string
	}{{"summary", &h.Summary}, {"next", &h.Next}, {"risk", &h.Risk}, {"mood", &h.Mood}, {"successor", &h.Successor}} {
		if !cmd.Flags().Changed(f.name) {
			*f.v = nil
		}
	}
}

// handoffInput merges --file and the flags into one validated input.
func (a *app) handoffInput(o *handoffOptions) (handoff.Input, error) {
	ws, err := o.fields.Check("--")
	a.warn(ws)
	if err != nil {
		return handoff.Input{}, err
	}
	var doc handoff.Input
	if o.file != "" {
		if doc, err = a.readFileInput(o.file); err != nil {
			return doc, err
		}
	}
	in, err := o.fields.Over(doc)
	for i := range in.Decisions {
		in.Decisions[i].Force = o.force
	}
	var fe *store.FieldError
	if errors.As(err, &fe) {
		return in, fieldUsage(fe, o.file)
	}
	return in, err
}

// fieldKeys says how each input field is named in main.md and in a --file
// Markdown document's front matter.
var fieldKeys = map[string][2]string{
	store.FieldSummary: {"session_summary, one line on what happened", "summary"},
	store.FieldNext:    {"next_priority, the single most important thing to do next", "next_priority"},
	store.FieldRisk:    {"open_risk", "open_risk"},
	store.FieldMood:    {"emotional_register", "emotional_register"},
}

func fieldUsage(fe *store.FieldError, file string) error {
	msg := fmt.Sprintf("--%s %s", fe.Field, fe.Msg)
	k, ok := fieldKeys[fe.Field]
	if ok {
		msg += " (" + k[0] + ")"
	}
	if file == "" {
		return usagef("%s", msg)
	}
	hint := fmt.Sprintf("give --%s, or set %q in --file %s", fe.Field, fe.Field, file)
	if ok {
		hint = fmt.Sprintf("give --%s, or set %s in the front matter of --file %s (%q in JSON)", fe.Field, k[1], file, fe.Field)
	}
	return hintError{usagef("%s", msg), hint}
}

func (a *app) handoffRun(ctx context.Context, in handoff.Input, o *handoffOptions) error {
	m, err := a.open()
	if err != nil {
		return err
	}
	res, err := m.Handoff(ctx, in, o.skill)
	if errors.Is(err, store.ErrLockTimeout) {
		return hintError{err, "another wake command holds the memory root's lock; run the hand-off again when it is done"}
	}
	if err != nil {
		return err
	}
	a.primeStarts(ctx, m)
	if o.format == "json" {
		return a.writeJSON(report.HandoffJSON(res))
	}
	report.HandoffText(a.out, res)
	return nil
}
