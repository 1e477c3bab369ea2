//go:build !unix

package main

import "time"

// cpuTime is not measured here: the cpu-ms/op metrics read zero.
func cpuTime() time.Duration { return 0 }
