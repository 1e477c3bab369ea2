//go:build !linux

package tiers

import "github.com/spf13/afero"

// statAt is a fast path on Linux only: elsewhere the walk lstats each
// path through the afero.Fs.
func statAt(afero.File, string) (coldStat, bool) { return coldStat{}, false }

// direntsAt is a fast path on Linux only: elsewhere the walk lists a
// directory's names through the afero.Fs, without their inode numbers.
func direntsAt(afero.File) ([]dirent, bool) { return nil, false }
