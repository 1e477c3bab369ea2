//go:build !linux

package testmain

// inMemory is false outside Linux: no memory file system is assumed.
func inMemory(string) bool { return false }
