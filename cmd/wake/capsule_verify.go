package main

import (
	"context"
	"errors"
	"io"

	"github.com/spf13/cobra"

	"github.com/wakeproto/wake"
	"github.com/wakeproto/wake/report"
)

type capsuleVerifyOptions struct {
	path, format string
}

func (a *app) capsuleVerifyCmd() *cobra.Command {
	o := &capsuleVerifyOptions{}
	cmd := &cobra.Command{
		Use:     "verify PATH [--format json]",
		Short:   "Check a capsule an agent wrote; record, then watch, the files it names",
		Long:    help("verify"),
		Example: "  wake capsule verify .wake/cold/capsules/main/20261122T223000Z.md",
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return hintError{usagef("verify takes one argument, the capsule's path, got %d", len(args)), "run 'wake capsule prompt' for where the capsule goes"}
			}
			o.path = args[0]
			return a.capsuleVerifyRun(cmd.Context(), o)
		},
	}
	addFormat(cmd, &o.format, "text or json", "text", "json")
	return cmd
}

func (a *app) capsuleVerifyRun(ctx context.Context, o *capsuleVerifyOptions) error {
	m, err := a.open()
	if err != nil {
		return err
	}
	v, err := m.VerifyCapsule(ctx, a.absPath(o.path))
	if pe := (*wake.CapsulePathError)(nil); errors.As(err, &pe) {
		return hintError{usagef("%s: %s", o.path, pe.Reason), pe.Hint()}
	}
	if me := (*wake.CapsuleMalformedError)(nil); errors.As(err, &me) {
		me.Path = o.path
		return err
	}
	if err != nil {
		return err
	}
	if o.format == "json" {
		err = a.writeJSON(report.CapsuleVerifyJSON(v))
	} else {
		_, err = io.WriteString(a.out, report.CapsuleVerifyText(v, o.path))
	}
	if err == nil && !v.OK() {
		return exitStatus(exitFailed)
	}
	return err
}
