//go:build !linux

package campaign

import (
	"context"
	"errors"
)

// ErrNoDiskFull is returned where the disk-full run cannot run.
var ErrNoDiskFull = errors.New("the disk-full run mounts a tmpfs, on Linux only; skipped")

// DiskFull is the disk-full run, on Linux only.
func (c *Config) DiskFull(ctx context.Context, runs int) ([]Result, error) { return nil, ErrNoDiskFull }
