//go:build !unix

package tiers

import "os"

// openFlags: elsewhere (Windows) opening a file does not wait on a
// writer, and there is no O_NONBLOCK to pass.
const openFlags = os.O_RDONLY

func blocking(*os.File) error { return nil }
