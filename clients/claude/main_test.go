package claude

import (
	"os"
	"testing"

	"github.com/wakeproto/wake/internal/testmain"
)

// TestMain runs the tests as the suite wants them run: see package
// testmain.
func TestMain(m *testing.M) { os.Exit(testmain.Main(m)) }
