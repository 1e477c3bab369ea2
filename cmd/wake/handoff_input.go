package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/wakeproto/wake/handoff"
	"github.com/wakeproto/wake/tiers"
)

// readHandoffFile reads --file: a path, or "-" for standard input.
func (a *app) readHandoffFile(name string) ([]byte, error) {
	r := a.in
	if name != "-" {
		p := name
		if !filepath.IsAbs(p) {
			p = filepath.Join(a.cwd, p)
		}
		// Only a regular file, opened without waiting: a named pipe or a
		// device would stall the command.
		f, _, err := tiers.OpenInput(a.fs, p)
		var nr *tiers.NotRegularError
		if errors.Is(err, os.ErrNotExist) {
			return nil, usagef("--file %s: no such file", name)
		}
		if errors.As(err, &nr) {
			return nil, hintError{usagef("--file %s: %s", name, nr.Why), "give a regular file, or - for standard input"}
		}
		if err != nil {
			return nil, fmt.Errorf("--file %s: %w", name, err)
		}
		defer f.Close()
		r = f
	}
	return handoff.ReadDocument(r, "--file "+name)
}

// readFileInput is the hand-off document named by --file, parsed.
func (a *app) readFileInput(name string) (handoff.Input, error) {
	data, err := a.readHandoffFile(name)
	if err != nil {
		return handoff.Input{}, err
	}
	in, warnings, err := handoff.ParseDocument("--file "+name, data)
	for _, w := range warnings {
		a.warn([]string{w})
	}
	return in, err
}
