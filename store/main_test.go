package store

import (
	"os"
	"testing"

	"github.com/wakeproto/wake/internal/testtmp"
)

// TestMain keeps the tests' temporary roots in memory when it can: see
// package testtmp.
func TestMain(m *testing.M) { os.Exit(testtmp.Main(m)) }
