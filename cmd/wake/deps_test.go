package main

import (
	"debug/elf"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"
)

// TestNoMCPSDKInTheBinary fails when the wake binary links the MCP Go SDK
// or what it brings again: Go runs every linked package's init, and
// theirs cost a warm `wake load` about half its start-up. The SDK is for
// the tests, the oracle of mcpserver's protocol.
func TestNoMCPSDKInTheBinary(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go is not on PATH")
	}
	cmd := exec.Command(goBin, "list", "-deps", ".")
	// go list reads the module cache and writes nothing: no GOFLAGS of the
	// caller (-mod=vendor...) change what it lists.
	cmd.Env = append(os.Environ(), "GOFLAGS=")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	deps := strings.Fields(string(out))
	if !containsPrefix(deps, "github.com/wakeproto/wake/mcpserver") {
		t.Fatalf("go list -deps lists no mcpserver: %q", deps)
	}
	for _, bad := range []string{"github.com/modelcontextprotocol/", "github.com/google/jsonschema-go", "golang.org/x/oauth2",
		"github.com/segmentio/", "github.com/yosida95/", "encoding/gob"} {
		if containsPrefix(deps, bad) {
			t.Errorf("cmd/wake depends on %s again", bad)
		}
	}
}

func containsPrefix(list []string, prefix string) bool {
	for _, s := range list {
		if strings.HasPrefix(s, prefix) {
			return true
		}
	}
	return false
}

// TestBuildsForOtherSystems builds wake for Windows and macOS: code of
// one system's (a stat's fields, a syscall) must have its counterpart on
// the others. The first run compiles the standard library for each (about
// half a minute of two cores), later ones still link two binaries: a pure
// build check, it runs with WAKE_E2E=1 only (.ci/run sets it), not in a
// plain go test (docs/performance.md, The test suite).
func TestBuildsForOtherSystems(t *testing.T) {
	if testing.Short() || os.Getenv("WAKE_E2E") != "1" {
		t.Skip("skipping: cross-compiles wake twice (WAKE_E2E=1 runs it; .ci/run does)")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go is not on PATH")
	}
	for _, target := range [][2]string{{"windows", "amd64"}, {"darwin", "arm64"}} {
		cmd := exec.Command(goBin, "build", "-o", os.DevNull, ".")
		cmd.Env = append(os.Environ(), "GOFLAGS=", "GOOS="+target[0], "GOARCH="+target[1], "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("GOOS=%s GOARCH=%s go build: %v\n%s", target[0], target[1], err, out)
		}
	}
}

// TestStaticBinary fails when the wake the tests run is not built as the
// README installs it, static (CGO_ENABLED=0), or that build needs a
// dynamic loader after all (GOFLAGS=-buildmode=pie, say): each start of a
// dynamically linked wake, every hook, pays the loader, libc's relocations
// and cgo's threads (about 1.5 ms of a 5 ms warm start). A dependency that
// needs C would fail that build, and with it every test that runs wake.
func TestStaticBinary(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the check reads ELF program headers")
	}
	f, err := elf.Open(wakeBinary(t))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP || p.Type == elf.PT_DYNAMIC {
			t.Errorf("the wake binary has a %v program header: it is linked dynamically", p.Type)
		}
	}
	if libs, err := f.ImportedLibraries(); err == nil && len(libs) > 0 {
		t.Errorf("the wake binary imports %q", libs)
	}
}
