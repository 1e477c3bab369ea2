// Command wake gives AI coding agents continuity across sessions through a
// plain-file memory root. See README.md.
package main

import (
	"os"
	"runtime/debug"

	"github.com/wakeproto/wake"
)

func main() {
	// See wake.GCPercent. GOGC, when set, rules.
	if _, set := os.LookupEnv("GOGC"); !set {
		debug.SetGCPercent(wake.GCPercent)
	}
	os.Exit(run(os.Args[1:], os.Environ(), os.Stdin, os.Stdout, os.Stderr))
}
