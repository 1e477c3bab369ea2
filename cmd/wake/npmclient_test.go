package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/gofrs/flock"

	"github.com/wakeproto/wake/internal/testmain"
)

// npmClient is a client an end-to-end test runs: an npm package at a
// pinned version, installed into a cache directory that later runs reuse.
type npmClient struct {
	test    string // the test, for the notice of an install
	pkg     string // "@openai/codex"
	version string
	bin     string // the program in node_modules/.bin: "codex"; "" for a library
	env     string // the variable naming the cache (set by .ci/run): "WAKE_CODEX_DIR"
	cache   string // the cache's name under the system's temp directory otherwise, less the version
}

// path returns the client's program from $env, or from a directory under
// the system's temp directory; for a library (no bin), the directory
// whose node_modules holds it. A plain go test stays offline: the test
// is skipped when the client is not installed there, unless WAKE_E2E=1
// asks for it, which installs it with npm (and fails when it cannot).
func (c npmClient) path(t *testing.T) string {
	t.Helper()
	dir := os.Getenv(clientDirVar(c.env))
	if dir == "" {
		// The system's temporary directory, where an install outlives
		// the run, not the tests' own in memory (package testmain).
		dir = filepath.Join(testmain.SystemTempDir(), c.cache+c.version)
	}
	bin := filepath.Join(dir, "node_modules", ".bin", c.bin)
	if c.bin == "" {
		bin = dir
	}
	if c.installed(dir) {
		t.Logf("%s %s, from %s", c.pkg, c.version, dir)
		return bin
	}
	if os.Getenv("WAKE_E2E") != "1" {
		t.Skipf("skipping: %s %s is not installed in %s (set WAKE_E2E=1 to install it with npm and run the test; .ci/run does)", c.pkg, c.version, dir)
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		t.Fatalf("WAKE_E2E=1, but %s is missing and npm is not installed", bin)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	// Parallel test binaries share the directory: one installs, the others
	// wait and reuse it.
	lock := flock.New(filepath.Join(dir, ".install.lock"))
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	if ok, err := lock.TryLockContext(ctx, time.Second); !ok || err != nil {
		t.Fatalf("locking %s: %v", dir, err)
	}
	defer lock.Unlock()
	if c.installed(dir) {
		return bin
	}
	// go test shows a test's log only at the end, and an install from the
	// registry takes a while and reaches the network: say so now.
	fmt.Fprintf(os.Stderr, "wake: %s: installing %s@%s from the npm registry into %s (once; later runs reuse it; set %s to a directory where it is installed, or pass -short to skip this test)\n", c.test, c.pkg, c.version, dir, clientDirVar(c.env))
	cmd := exec.CommandContext(ctx, npm, "install", "--no-audit", "--no-fund", "--prefix", dir, c.pkg+"@"+c.version)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("npm install %s@%s: %v\n%s", c.pkg, c.version, err, out)
	}
	if !c.installed(dir) {
		t.Fatalf("%s does not hold %s %s after npm install", dir, c.pkg, c.version)
	}
	return bin
}

// installed reports whether dir holds the client's program, executable,
// from its package at the pinned version. It reads the package.json
// rather than run the program: Codex and OpenCode write into HOME even
// for --version.
func (c npmClient) installed(dir string) bool {
	if c.bin != "" {
		fi, err := os.Stat(filepath.Join(dir, "node_modules", ".bin", c.bin))
		if err != nil || fi.Mode().Perm()&0o111 == 0 {
			return false
		}
	}
	data, err := os.ReadFile(filepath.Join(dir, "node_modules", filepath.FromSlash(c.pkg), "package.json"))
	var pkg struct{ Version string }
	return err == nil && json.Unmarshal(data, &pkg) == nil && pkg.Version == c.version
}
