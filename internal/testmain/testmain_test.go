package testmain

import (
	"bufio"
	"os"
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
