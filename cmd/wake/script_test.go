package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/wakeproto/wake/internal/wakeupschema"
)

// TestMain lets the test binary run as wake in the scenarios, and gives
// the tests that build the binary a directory to build it into once.
func TestMain(m *testing.M) {
	testscript.Main(withBinDir{m}, map[string]func(){
		// The scenarios' roots get the writer id wtest, so that the names
		// and IDs they write are the same at every run.
		"wake": func() { os.Exit(runAs("wtest", os.Args[1:], os.Environ(), os.Stdin, os.Stdout, os.Stderr)) },
	})
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
		Cmds:          map[string]func(*testscript.TestScript, bool, []string){"status": cmdStatus, "validpacket": cmdValidPacket},
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
	got := 0
	if err := ts.Exec(args[1], args[2:]...); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			ts.Fatalf("status: %v", err)
		}
		got = ee.ExitCode()
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
