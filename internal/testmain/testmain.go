// Package testmain runs a package's tests as this repository's suite
// wants them run, on a small machine: their temporary directories in
// memory, and the garbage collector set for short-lived garbage.
//
// Temporary directories go to memory when the machine has a memory file
// system and the person running the tests did not choose a TMPDIR. wake
// syncs every write (file and directory) before it renames, as it must;
// the tests write thousands of small roots, so on a disk most of their
// time is the disk's. Measured on the 2-core CI machine, go test
// ./cmd/wake took 75 s with its roots on the disk and 39 s on tmpfs, for
// the same code paths: the sync calls still run, they are only cheap. A
// TMPDIR set by hand is kept, so the tests can still be run against a
// real disk (TMPDIR=/var/tmp go test ./...).
//
// The collector runs when the heap has grown fivefold rather than
// twofold (GOGC=400), unless GOGC is set: the tests make far more garbage
// than they keep, and a whole go test ./... took about 10% less CPU (111
// s against 123 s). wake itself keeps its own setting (cmd/wake's main).
package testmain

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
)

// gcPercent is the tests' GOGC: see the package comment.
const gcPercent = 400

// memoryDir is where Linux mounts its shared-memory tmpfs.
const memoryDir = "/dev/shm"

// Main runs m (a *testing.M) with the collector set, and with TMPDIR
// pointing at a fresh directory in memory when the environment names none
// and one can be made (see the package comment); it removes that
// directory after, and returns m's exit code for os.Exit, with TMPDIR
// unset again. Child processes the tests start inherit the TMPDIR.
func Main(m interface{ Run() int }) int {
	if _, set := os.LookupEnv("GOGC"); !set {
		debug.SetGCPercent(gcPercent)
	}
	systemTemp = os.TempDir()
	dir, err := memoryTemp(os.Getenv("TMPDIR"), memoryDir)
	if err != nil {
		fmt.Fprintf(os.Stderr, "testmain: %v; temporary files stay in %s\n", err, os.TempDir())
	}
	if dir == "" {
		return m.Run()
	}
	defer os.RemoveAll(dir)
	if err := os.Setenv("TMPDIR", dir); err != nil {
		fmt.Fprintf(os.Stderr, "testmain: %v\n", err)
		return 1
	}
	defer os.Unsetenv("TMPDIR")
	return m.Run()
}

// systemTemp is the temporary directory the test binary started with,
// before Main pointed TMPDIR into memory.
var systemTemp string

// SystemTempDir is the temporary directory of the machine (os.TempDir as
// the test binary started), not the one in memory Main gives the tests:
// where caches that outlive a run belong (the real clients the
// end-to-end tests install), and where a program that ignores TMPDIR
// would write.
func SystemTempDir() string {
	if systemTemp == "" {
		return os.TempDir()
	}
	return systemTemp
}

// memoryTemp makes a directory for the tests' temporary files under mem
// when tmpdir (the environment's TMPDIR) is empty and mem is a writable
// memory file system; "" with no error when it should not or cannot.
func memoryTemp(tmpdir, mem string) (string, error) {
	if tmpdir != "" || !inMemory(mem) {
		return "", nil
	}
	sweepDead(mem)
	if free(mem) < minFree {
		return "", nil
	}
	return os.MkdirTemp(mem, fmt.Sprintf("%s%d-", dirPrefix, os.Getpid()))
}

// dirPrefix begins the name of a test binary's directory in memory, which
// goes on with the binary's process id.
const dirPrefix = "wake-test-"

// minFree is the room a memory file system must have left for the tests
// to use it (a whole go test ./... peaks at about 40 MB there).
const minFree = 256 << 20

// sweepDead removes the directories in mem of test binaries no longer
// running: one that died (a panic, a timeout, a signal) never ran its
// deferred removal, and memory is not freed by a reboot's absence.
func sweepDead(mem string) {
	entries, err := os.ReadDir(mem)
	if err != nil {
		return
	}
	for _, e := range entries {
		pid, ok := ownerPID(e.Name())
		if ok && e.IsDir() && !alive(pid) {
			os.RemoveAll(filepath.Join(mem, e.Name()))
		}
	}
}

// ownerPID is the process id in a name Main gave its directory.
func ownerPID(name string) (int, bool) {
	rest, ok := strings.CutPrefix(name, dirPrefix)
	if !ok {
		return 0, false
	}
	digits, _, ok := strings.Cut(rest, "-")
	pid, err := strconv.Atoi(digits)
	if !ok || err != nil || pid <= 0 {
		return 0, false
	}
	return pid, true
}
