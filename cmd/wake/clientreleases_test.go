package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// clientReleases are the releases of each client the end-to-end tests
// run: the newest this wake is tested with, then the oldest it supports.
// A run takes the newest; with WAKE_E2E=1 the test binary then runs the
// end-to-end tests again with the oldest ([runOldestClients]). docs/clients.md
// names the range (TestClientReleasesDocumented).
var clientReleases = map[string][2]string{
	"claude":   {"2.1.332", "2.1.330"},
	"codex":    {"0.171.0", "0.169.0"},
	"opencode": {"1.18.33", "1.18.33"},
}

// e2eTests are the end-to-end tests of each client, by the start of
// their names.
var e2eTests = map[string]string{"claude": "TestClaudeCode", "codex": "TestCodex", "opencode": "TestOpenCode"}

// oldestClients says this run is the one with the oldest releases.
func oldestClients() bool { return os.Getenv("WAKE_E2E_CLIENTS") == "oldest" }

// clientRelease is the release of client this run tests.
func clientRelease(client string) string {
	if oldestClients() {
		return clientReleases[client][1]
	}
	return clientReleases[client][0]
}

// clientDirVar is the variable naming the cache of a client's release
// for this run: WAKE_CLAUDE_DIR for the newest, WAKE_CLAUDE_OLDEST_DIR
// for the oldest (both set by .ci/run).
func clientDirVar(v string) string {
	if oldestClients() {
		return strings.TrimSuffix(v, "_DIR") + "_OLDEST_DIR"
	}
	return v
}

// runOldestClients runs, after a run with WAKE_E2E=1 that passed, the
// end-to-end tests of each client whose oldest supported release is not
// its newest again with the oldest: the test binary itself, with
// WAKE_E2E_CLIENTS=oldest, its output passed on. With -run, the tests it
// selects instead. It returns the run's exit code; 0 when there is
// nothing to run.
func runOldestClients() int {
	if os.Getenv("WAKE_E2E") != "1" || oldestClients() {
		return 0
	}
	var starts []string
	for c, r := range clientReleases {
		if r[0] != r[1] {
			starts = append(starts, e2eTests[c])
		}
	}
	if len(starts) == 0 {
		return 0
	}
	args := []string{"-test.run", "^(" + strings.Join(starts, "|") + ")"}
	if f := flag.Lookup("test.run"); f != nil && f.Value.String() != "" {
		args = []string{"-test.run", f.Value.String()}
	}
	for _, name := range []string{"test.v", "test.short", "test.count", "test.timeout"} {
		if f := flag.Lookup(name); f != nil && f.Value.String() != f.DefValue {
			args = append(args, "-"+name+"="+f.Value.String())
		}
	}
	fmt.Fprintf(os.Stderr, "wake tests: the end-to-end tests again, with the oldest supported releases (%s)\n", oldestList())
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "WAKE_E2E_CLIENTS=oldest")
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		fmt.Fprintf(os.Stderr, "wake tests: with the oldest supported releases: %v\n", err)
		return 1
	}
	return 0
}

func oldestList() string {
	var out []string
	for _, c := range []string{"claude", "codex", "opencode"} {
		if r := clientReleases[c]; r[0] != r[1] {
			out = append(out, c+" "+r[1])
		}
	}
	return strings.Join(out, ", ")
}

// TestCIPinsClientReleases: .ci/run installs the releases the tests run.
func TestCIPinsClientReleases(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile(filepath.Join("..", "..", ".ci", "run"))
	if err != nil {
		t.Fatal(err)
	}
	for c, vars := range map[string][2]string{"claude": {"claude_version", "claude_oldest"}, "codex": {"codex_version", "codex_oldest"}, "opencode": {"opencode_version", "opencode_version"}} {
		for i, v := range vars {
			if want := v + "=" + clientReleases[c][i] + "\n"; !strings.Contains(string(data), "\n"+want) {
				t.Errorf(".ci/run lacks %q: it must install the releases clientReleases names", strings.TrimSpace(want))
			}
		}
	}
}
