// Command wake gives AI coding agents continuity across sessions through a
// plain-file memory root. See README.md.
package main

import (
	"os"
	"runtime/debug"
)

func main() {
	// A session start allocates a few megabytes and exits: collecting when
	// the heap has tripled rather than doubled spares it a collection or
	// two (about 3 of 40 ms of CPU on a first start). GOGC, when set, rules.
	if _, set := os.LookupEnv("GOGC"); !set {
		debug.SetGCPercent(200)
	}
	os.Exit(run(os.Args[1:], os.Environ(), os.Stdin, os.Stdout, os.Stderr))
}
