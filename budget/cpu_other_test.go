//go:build !unix

package budget

import (
	"testing"
	"time"
)

// cpuTime is not measured here: the cpu-ms/op metric reads zero.
func cpuTime(*testing.B) time.Duration { return 0 }
