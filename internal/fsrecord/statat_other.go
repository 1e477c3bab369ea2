//go:build !linux

package fsrecord

import "github.com/spf13/afero"

// observeAt has no fast path here: the caller observes the path through
// the afero.Fs.
func observeAt(afero.File, string) (Identity, bool) { return Identity{}, false }
