package main

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/wakeproto/wake/internal/wakeupschema"
)

// TestMain gives the tests that build the binary a directory to build it
// into once. The scenarios run wake in the test process (cmdWake), or as
// the binary buildScenarioOnce makes.
func TestMain(m *testing.M) {
	testscript.Main(withBinDir{m}, map[string]func(){})
}

// TestScripts runs the command-line scenarios in testdata/script, one a
// file. HOME points into the scenario's work directory so nothing touches
// the real home.
func TestScripts(t *testing.T) {
	t.Parallel()
	testscript.Run(t, testscript.Params{
		Dir: filepath.Join("testdata", "script"),
		Setup: func(env *testscript.Env) error {
			bin, err := buildScenarioOnce()
			if err != nil {
				return err
			}
			env.Setenv("PATH", filepath.Dir(bin)+string(os.PathListSeparator)+env.Getenv("PATH"))
			home := filepath.Join(env.WorkDir, "home")
			env.Setenv("HOME", home)
			env.Setenv("WAKE_ROOT", "")
			return os.MkdirAll(home, 0o755)
		},
		Cmds:          map[string]func(*testscript.TestScript, bool, []string){"wake": cmdWake, "status": cmdStatus, "validpacket": cmdValidPacket},
		UpdateScripts: os.Getenv("UPDATE_SCRIPTS") == "1",
	})
}

// cmdStatus runs "status N wake ARGS..." and requires exit status N, so
// scenarios can tell a usage error (2) from a failure (1) or a HALT (4).
// Its stdout and stderr are kept for the stdout and stderr commands.
func cmdStatus(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: status N command [args...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("status: %q is not a number", args[0])
	}
	var got int
	if args[1] == "wake" {
		got = runScenarioWake(ts, args[2:])
	} else {
		got = execStatus(ts, args[1], args[2:])
	}
	if got != want {
		ts.Fatalf("exit status %d, want %d", got, want)
	}
}

// cmdValidPacket runs "validpacket" and requires the last command's
// stdout to be a wakeup.v1 packet valid against the published schema.
func cmdValidPacket(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 0 {
		ts.Fatalf("usage: validpacket")
	}
	if err := wakeupschema.Check([]byte(ts.ReadFile("stdout"))); err != nil {
		ts.Fatalf("stdout is not a valid wakeup.v1 packet: %v", err)
	}
}
