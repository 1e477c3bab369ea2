//go:build !linux

package store

// renameNoReplace has no portable form beyond Linux's renameat2: a file
// system refusing links falls back to the exclusive create.
func renameNoReplace(oldname, newname string) error { return errCannotLink }
