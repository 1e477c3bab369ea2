package main

import (
	"context"
	"errors"

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
	st, err := a.start(m, o.boot)
	if err != nil {
		return err
	}
	if o.format == "json" {
		return a.writeJSON(report.LoadJSON(st.Context))
	}
	_, err = a.out.Write([]byte(st.Text))
	return err
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
