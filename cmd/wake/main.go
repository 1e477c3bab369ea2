// Command wake gives AI coding agents continuity across sessions through a
// plain-file memory root. See README.md.
package main

import "os"

func main() {
	os.Exit(run(os.Args[1:], os.Environ(), os.Stdin, os.Stdout, os.Stderr))
}
