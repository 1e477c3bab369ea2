//go:build !linux

package testmain

// inMemory is false outside Linux: no memory file system is assumed.
func inMemory(string) bool { return false }

// free is never asked outside Linux (inMemory is false).
func free(string) uint64 { return 0 }

// alive is never asked outside Linux (inMemory is false).
func alive(int) bool { return true }
