package main

import (
	"context"
	"errors"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/afero"
	"github.com/spf13/cobra"

	"github.com/wakeproto/wake"
	"github.com/wakeproto/wake/report"
)

type loadOptions struct {
	format string
	hook   string // "claude": run as Claude Code's SessionStart hook
	boot   wake.BootFiles
}

func (a *app) loadCmd() *cobra.Command {
	o := &loadOptions{}
	cmd := &cobra.Command{
		Use:     "load",
		Short:   "Print the boot context for a new session",
		Long:    help("load"),
		Example: "  wake load\n  wake load --format json | jq .totals\n  wake load --hook claude < hook.json",
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if o.hook != "" {
				return a.hookRun(cmd, o)
			}
			if a.below != "" {
				return usagef("--below applies with --hook claude")
			}
			return a.loadRun(o)
		},
	}
	addFormat(cmd, &o.format, "text (the Markdown context; markdown is the same) or json", "text", "markdown", "json")
	addHookFlags(cmd, o)
	a.addBelowFlag(cmd)
	return cmd
}

func (a *app) loadRun(o *loadOptions) error {
	m, err := a.open()
	if err != nil {
		return err
	}
	if o.format == "json" {
		// The JSON form carries the digest's window start to the second:
		// nothing to keep between starts.
		st, err := a.start(m, o.boot)
		if err != nil {
			return err
		}
		return a.writeJSON(report.LoadJSON(st.Context))
	}
	text, err := a.startView(m, o.boot, loadView)
	if err != nil {
		return err
	}
	_, err = io.WriteString(a.out, text)
	return err
}

// loadView is the start `wake load` prints: the context's text.
var loadView = wake.View{Name: "load", Render: func(st *wake.Start, _ afero.Fs, _ func(wake.Notice)) (string, error) {
	return st.Text, nil
}}

// viewByName is the view a start cache entry named name was made by;
// false for a name no command of this wake makes.
func (a *app) viewByName(m *wake.Memory, name string) (wake.View, bool) {
	if name == loadView.Name {
		return loadView, true
	}
	rest, ok := strings.CutPrefix(name, "hook ")
	if !ok {
		return wake.View{}, false
	}
	parts := strings.Split(rest, "\x00")
	if len(parts) != 3 || !slices.Contains(hookClients, parts[0]) || !filepath.IsAbs(parts[2]) {
		return wake.View{}, false
	}
	return a.hookView(m, parts[0], parts[1], parts[2]), true
}

// primeStarts primes the start cache after a hand-off for each way the
// root's sessions started (see [wake.Memory.PrimeStart]), so that the
// next session's start, which the hand-off's writes would make a full
// build, is served from it. A start the priming cannot keep is built as
// it would have been: nothing here is an error, and an error (the lock
// held elsewhere) ends the priming rather than wait again for each view.
func (a *app) primeStarts(ctx context.Context, m *wake.Memory) {
	for _, name := range m.StartViews() {
		v, ok := a.viewByName(m, name)
		if !ok {
			continue
		}
		// A priming that wrote a boot file it read is not kept; the
		// second reads the file as written.
		for range 2 {
			kept, err := m.PrimeStart(ctx, v)
			if err != nil {
				return
			}
			if kept {
				break
			}
		}
	}
}

// startView is a session start rendered by v, through the start cache
// (see [wake.Memory.StartView]), with the same hint as start.
func (a *app) startView(m *wake.Memory, w wake.BootFiles, v wake.View) (string, error) {
	out, err := m.StartView(context.Background(), w, v)
	if errors.Is(err, wake.ErrLocked) {
		return "", hintError{err, "a hand-off or another wake command holds the memory root's lock; run it again when that is done"}
	}
	return out, err
}

// start is a session start, with a hint when another wake holds the lock.
func (a *app) start(m *wake.Memory, w wake.BootFiles) (*wake.Start, error) {
	st, err := m.Start(context.Background(), w)
	if errors.Is(err, wake.ErrLocked) {
		return nil, hintError{err, "a hand-off or another wake command holds the memory root's lock; run it again when that is done"}
	}
	return st, err
}

// warn tells the user of each of ws, through the same path as the
// library's notices.
func (a *app) warn(ws []string) {
	for _, w := range ws {
		a.notice(wake.Notice{Kind: "warning", Msg: w})
	}
}
