package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/wakeproto/wake/budget"
	"github.com/wakeproto/wake/internal/testmain"
	"github.com/wakeproto/wake/tiers"
)

// The tests share what is costly to make and never changes once made: one
// encoder of each encoding, and one build of the wake binary.

// sharedEncoders holds one encoder of each encoding for every in-process
// test. Building one costs about 75 ms and a collection of its tables,
// more than most tests cost; an Encoder is safe for concurrent use and,
// once built, holds nothing a count can change.
var sharedEncoders = map[string]func() (*budget.Encoder, error){
	tiers.EncodingCL100K: sync.OnceValues(func() (*budget.Encoder, error) { return budget.NewEncoder(tiers.EncodingCL100K) }),
	tiers.EncodingO200K:  sync.OnceValues(func() (*budget.Encoder, error) { return budget.NewEncoder(tiers.EncodingO200K) }),
}

// sharedEncoder is the newEncoder of the tests' apps. A test that checks
// whether a command built an encoder sets newEncoder to nil, so that each
// app makes its own.
func sharedEncoder(name string) (*budget.Encoder, error) {
	if f, ok := sharedEncoders[name]; ok {
		return f()
	}
	return budget.NewEncoder(name) // its error for an unknown name
}

// testBinDir is the directory the wake binary is built into, made and
// removed by TestMain around the tests.
var testBinDir string

// withBinDir runs the tests with testBinDir made, and removes it after;
// with the temporary files in memory when it can (package testmain).
type withBinDir struct{ m *testing.M }

func (w withBinDir) Run() int { return testmain.Main(runFunc(w.run)) }

// runFunc gives a function the Run method testmain.Main calls.
type runFunc func() int

func (f runFunc) Run() int { return f() }

func (w withBinDir) run() int {
	dir, err := os.MkdirTemp("", "wake-test-bin")
	if err != nil {
		fmt.Fprintf(os.Stderr, "wake tests: %v\n", err)
		return 1
	}
	defer os.RemoveAll(dir)
	testBinDir = dir
	code := w.m.Run()
	if code == 0 {
		code = runOldestClients()
	}
	return code
}

// buildOnce builds the wake binary on first use only, so that a run of
// tests that never start it as a process (-short, -run) does not pay for
// the build.
var buildOnce = sync.OnceValues(func() (string, error) { return buildWake("wake", "") })

// buildScenarioOnce builds, on first use, the wake the scenarios run: one
// whose roots get the writer id wtest. A process of its own starts in
// half the time of the test binary run as wake, whose init is the tests'
// too, and the scenarios start it some 800 times.
var buildScenarioOnce = sync.OnceValues(func() (string, error) {
	return buildWake("scenario", "-X main.linkedWriter=wtest")
})

// buildWake builds wake into a directory of its own under testBinDir,
// with the given -ldflags.
func buildWake(name, ldflags string) (string, error) {
	if testBinDir == "" {
		return "", fmt.Errorf("no directory to build wake into: TestMain did not run")
	}
	dir := filepath.Join(testBinDir, name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "wake")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", "build", "-ldflags="+ldflags, "-o", bin, ".")
	// Built as the README's install builds it: static, with no C.
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build: %v\n%s", err, out)
	}
	return bin, nil
}

// wakeBinary returns the wake binary, built once for all the tests that
// run it as a process. It is alone in its directory, so that directory can
// go first in a PATH.
func wakeBinary(t *testing.T) string {
	t.Helper()
	bin, err := buildOnce()
	if err != nil {
		t.Fatal(err)
	}
	return bin
}
