//go:build unix

package budget

import (
	"syscall"
	"testing"
	"time"
)

// cpuTime returns the process's CPU time so far, user and system: the
// measure that stays meaningful on a shared machine, where wall time per
// operation also counts the other processes' turns.
func cpuTime(b *testing.B) time.Duration {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		b.Fatal(err)
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}
