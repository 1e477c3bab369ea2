package main

import (
	"context"
	"errors"
	"io"

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
			return a.loadRun(o)
		},
	}
	addFormat(cmd, &o.format, "text (the Markdown context; markdown is the same) or json", "text", "markdown", "json")
	addHookFlags(cmd, o)
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
	text, err := a.startView(m, o.boot, wake.View{Name: "load", Render: func(st *wake.Start, _ afero.Fs, _ func(wake.Notice)) (string, error) {
		return st.Text, nil
	}})
	if err != nil {
		return err
	}
	_, err = io.WriteString(a.out, text)
	return err
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
