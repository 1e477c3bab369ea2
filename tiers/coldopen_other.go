//go:build !linux

package tiers

import (
	"os"
	"time"

	"github.com/spf13/afero"
)

// openRoot opens nothing where there is no [openBeneath]: the root is not
// held open for reads that all take the common way.
func openRoot(afero.Fs, string) afero.File { return nil }

// openBeneath is a fast path on Linux only (openat2(2)): elsewhere every
// cold document is resolved and opened by its whole path.
func openBeneath(afero.File, string, string) (*os.File, int64, time.Time, fastResult) {
	return nil, 0, time.Time{}, fastUnsupported
}
