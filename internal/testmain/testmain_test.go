package testmain

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
)

// mountedTmpfs lists the mount points /proc/mounts gives as tmpfs.
func mountedTmpfs(t *testing.T) map[string]bool {
	f, err := os.Open("/proc/mounts")
	if err != nil {
		t.Skip("no /proc/mounts to check against")
	}
	defer f.Close()
	out := map[string]bool{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if fields := strings.Fields(sc.Text()); len(fields) > 2 && fields[2] == "tmpfs" {
			out[fields[1]] = true
		}
	}
	return out
}

func TestInMemoryAgreesWithMounts(t *testing.T) {
	mounts := mountedTmpfs(t)
	for _, dir := range []string{"/", "/dev/shm", "/run", "/tmp", "/proc"} {
		if _, err := os.Stat(dir); err != nil {
			continue
		}
		if got := inMemory(dir); got != mounts[dir] {
			t.Errorf("inMemory(%s) = %v, /proc/mounts says tmpfs: %v", dir, got, mounts[dir])
		}
	}
}

func TestMemoryTempKeepsAChosenTMPDIR(t *testing.T) {
	dir, err := memoryTemp("/var/tmp", memoryDir)
	if dir != "" || err != nil {
		t.Fatalf("memoryTemp with TMPDIR set = %q, %v; want it left alone", dir, err)
	}
}

func TestMemoryTempOnlyInMemory(t *testing.T) {
	if !mountedTmpfs(t)[memoryDir] {
		t.Skip(memoryDir + " is not a tmpfs here")
	}
	dir, err := memoryTemp("", memoryDir)
	if err != nil || dir == "" {
		t.Fatalf("memoryTemp = %q, %v; want a new directory in %s", dir, err, memoryDir)
	}
	defer os.Remove(dir)
	if filepath.Dir(dir) != memoryDir || !strings.HasPrefix(filepath.Base(dir), "wake-test-") {
		t.Errorf("made %s", dir)
	}
	// /proc is no tmpfs: nothing is made there.
	if dir, err := memoryTemp("", "/proc"); dir != "" || err != nil {
		t.Errorf("memoryTemp under /proc = %q, %v", dir, err)
	}
}

type runner struct {
	tmpdir string
	gc     int
}

func (r *runner) Run() int {
	r.tmpdir = os.Getenv("TMPDIR")
	r.gc = debug.SetGCPercent(100)
	debug.SetGCPercent(r.gc)
	return 7
}

func TestMainSetsAndRemoves(t *testing.T) {
	if os.Getenv("TMPDIR") != "" || !mountedTmpfs(t)[memoryDir] {
		t.Skip("TMPDIR is set, or no tmpfs at " + memoryDir)
	}
	var r runner
	if code := Main(&r); code != 7 {
		t.Fatalf("Main returned %d, want the run's 7", code)
	}
	if v, ok := os.LookupEnv("TMPDIR"); ok {
		t.Errorf("TMPDIR=%q after Main", v)
	}
	if _, set := os.LookupEnv("GOGC"); !set && r.gc != gcPercent {
		t.Errorf("the run had GOGC=%d, want %d", r.gc, gcPercent)
	}
	if filepath.Dir(r.tmpdir) != memoryDir {
		t.Fatalf("the run saw TMPDIR=%q", r.tmpdir)
	}
	if _, err := os.Stat(r.tmpdir); !os.IsNotExist(err) {
		t.Errorf("%s left behind: %v", r.tmpdir, err)
	}
}

// TestSweepDeadKeepsTheLiving: the directory of a test binary that died
// goes, that of one running (this one) and any other name stay.
func TestSweepDeadKeepsTheLiving(t *testing.T) {
	mem := t.TempDir()
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Skip("no true to make a finished process")
	}
	dead := fmt.Sprintf("%s%d-123", dirPrefix, cmd.Process.Pid)
	live := fmt.Sprintf("%s%d-456", dirPrefix, os.Getpid())
	for _, name := range []string{dead, live, "wake-test-x", "other-1-2"} {
		if err := os.MkdirAll(filepath.Join(mem, name, "sub"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	sweepDead(mem)
	for name, want := range map[string]bool{dead: false, live: true, "wake-test-x": true, "other-1-2": true} {
		if _, err := os.Stat(filepath.Join(mem, name)); (err == nil) != want {
			t.Errorf("%s there: %v, want %v", name, err == nil, want)
		}
	}
}

func TestOwnerPID(t *testing.T) {
	for name, want := range map[string]int{"wake-test-42-9876": 42, "wake-test-42": 0, "wake-test--1": 0, "wake-test-x-1": 0, "other-42-1": 0} {
		if got, ok := ownerPID(name); got != want || ok != (want > 0) {
			t.Errorf("ownerPID(%q) = %d, %v; want %d", name, got, ok, want)
		}
	}
}

func TestSystemTempDirIsTheStartingOne(t *testing.T) {
	if os.Getenv("TMPDIR") != "" || !mountedTmpfs(t)[memoryDir] {
		t.Skip("TMPDIR is set, or no tmpfs at " + memoryDir)
	}
	before := os.TempDir()
	var seen string
	Main(runFuncT(func() int { seen = SystemTempDir(); return 0 }))
	if seen != before {
		t.Errorf("SystemTempDir in the run = %q, want %q", seen, before)
	}
}

type runFuncT func() int

func (f runFuncT) Run() int { return f() }
