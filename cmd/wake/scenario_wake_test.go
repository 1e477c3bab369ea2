package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// The scenarios start wake some 800 times. Run as a process, each start
// costs the runtime's start, the binary's page faults and a fresh
// tokenizer table (about 25 ms of CPU on the 2-core CI machine, a third of
// the package's tests); run in the test process, wake is the same code
// (runIn, as main calls it) given the scenario's directory, environment
// and streams. A command the test process cannot give what the process
// would have is run as the process: one with standard input waiting (the
// stdin command, which only exec can read), or with a PATH the scenario
// changed (wake's children are found on the test process's PATH).

// cmdWake runs "wake ARGS..." for a scenario: see runScenarioWake. Like
// exec, it fails on a non-zero exit status, and with ! on a zero one.
func cmdWake(ts *testscript.TestScript, neg bool, args []string) {
	code := runScenarioWake(ts, args)
	switch {
	case neg && code == 0:
		ts.Fatalf("unexpected wake success")
	case !neg && code != 0:
		ts.Fatalf("wake: exit status %d", code)
	}
}

// runScenarioWake runs wake with args in the scenario, in the test process
// when it can, and returns its exit status.
func runScenarioWake(ts *testscript.TestScript, args []string) int {
	bin, err := buildScenarioOnce()
	if err != nil {
		ts.Fatalf("%v", err)
	}
	env, ok := scriptState(ts)
	if !ok || ts.Getenv("PATH") != scenarioPath(bin) {
		return execStatus(ts, "wake", args)
	}
	// The runs share the tests' encoders, as processes cannot: building
	// one is a few milliseconds and a megabyte and a half.
	p := process{writer: "wtest", cwd: ts.MkAbs("."), exe: bin, newEncoder: sharedEncoder}
	return runIn(p, args, env, strings.NewReader(""), ts.Stdout(), ts.Stderr())
}

// scenarioPath is the PATH Setup gives a scenario: the scenario binary's
// directory first.
func scenarioPath(bin string) string {
	return filepath.Dir(bin) + string(os.PathListSeparator) + os.Getenv("PATH")
}

// scriptState reads the scenario's environment from testscript, which
// does not export it, and whether wake can run in the test process: false
// when standard input waits for the next exec, or when the fields are not
// where this version of testscript keeps them (then every command is run
// as a process). TestScenarioStateRead checks it against testscript.
func scriptState(ts *testscript.TestScript) (env []string, ok bool) {
	v := reflect.ValueOf(ts).Elem()
	envField, stdin, pty := v.FieldByName("env"), v.FieldByName("stdin"), v.FieldByName("stdinPty")
	if envField.Kind() != reflect.Slice || stdin.Kind() != reflect.String || pty.Kind() != reflect.Bool {
		return nil, false
	}
	if stdin.String() != "" || pty.Bool() {
		return nil, false
	}
	env = make([]string, envField.Len())
	for i := range env {
		env[i] = envField.Index(i).String()
	}
	return env, true
}

// execStatus runs name as a process in the scenario and returns its exit
// status.
func execStatus(ts *testscript.TestScript, name string, args []string) int {
	err := ts.Exec(name, args...)
	if err == nil {
		return 0
	}
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		ts.Fatalf("%s: %v", name, err)
	}
	return ee.ExitCode()
}

// TestScenarioStateRead checks scriptState against this testscript: the
// scenario's environment as env set it, and standard input waiting for an
// exec (wake is then run as a process, which can read it).
func TestScenarioStateRead(t *testing.T) {
	t.Parallel()
	script := filepath.Join(t.TempDir(), "state.txtar")
	src := "env PROBE=set-by-env\nprobe\nstdout '^ok PROBE=set-by-env$'\nstdin in.txt\nprobe\nstdout '^waiting$'\nexec cat\nstdout '^input$'\nprobe\nstdout '^ok '\n-- in.txt --\ninput\n"
	if err := os.WriteFile(script, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Files: []string{script},
		Cmds: map[string]func(*testscript.TestScript, bool, []string){"probe": func(ts *testscript.TestScript, _ bool, _ []string) {
			env, ok := scriptState(ts)
			if !ok {
				fmt.Fprintln(ts.Stdout(), "waiting")
				return
			}
			for _, kv := range env {
				if strings.HasPrefix(kv, "PROBE=") {
					fmt.Fprintln(ts.Stdout(), "ok "+kv)
				}
			}
		}},
	})
}
