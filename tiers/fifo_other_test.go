//go:build !unix

package tiers_test

import "errors"

func unixMkfifo(string) error { return errors.New("no named pipes") }
