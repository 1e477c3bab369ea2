//go:build unix

package tiers_test

import "syscall"

func unixMkfifo(name string) error { return syscall.Mkfifo(name, 0o644) }
