package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/wakeproto/wake/handoff"
	"github.com/wakeproto/wake/tiers"
)

// maxHandoffFile caps a --file document; a summary is read whole.
const maxHandoffFile = tiers.MaxDocBytes

// readHandoffFile reads --file: a path, or "-" for standard input.
func (a *app) readHandoffFile(name string) ([]byte, error) {
	var r io.Reader = a.in
	if name != "-" {
		p := name
		if !filepath.IsAbs(p) {
			p = filepath.Join(a.cwd, p)
		}
		f, err := a.fs.Open(p)
		if errors.Is(err, os.ErrNotExist) {
			return nil, usagef("--file %s: no such file", name)
		}
		if err != nil {
			return nil, fmt.Errorf("--file %s: %w", name, err)
		}
		defer f.Close()
		r = f
	}
	data, err := io.ReadAll(io.LimitReader(r, maxHandoffFile+1))
	switch {
	case err != nil:
		return nil, fmt.Errorf("--file %s: %w", name, err)
	case len(data) > maxHandoffFile:
		return nil, usagef("--file %s: over %d MiB; a session summary should be far smaller", name, maxHandoffFile>>20)
	case len(bytes.TrimSpace(data)) == 0:
		return nil, usagef("--file %s: the document is empty", name)
	}
	return data, nil
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
