//go:build linux

package campaign

import (
	"context"
	"errors"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
)

// ErrNoDiskFull is returned when the disk-full run cannot mount its small
// file system: it needs root (mount -t tmpfs).
var ErrNoDiskFull = errors.New("the disk-full run needs root, to mount a small tmpfs; skipped")

// DiskFull runs each scenario but init runs times in a project on a
// small tmpfs filled to within a few kilobytes of full, so that its
// command fails somewhere for want of space; then frees the space, runs
// the next command and checks the root as after a kill. It needs root.
func (c *Config) DiskFull(ctx context.Context, runs int) ([]Result, error) {
	if os.Geteuid() != 0 {
		return nil, ErrNoDiskFull
	}
	mnt, err := os.MkdirTemp(c.Work, "tmpfs-")
	if err != nil {
		return nil, err
	}
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", mnt).CombinedOutput(); err != nil {
		return nil, fmt.Errorf("%w (mount: %v: %s)", ErrNoDiskFull, err, out)
	}
	defer exec.Command("umount", mnt).Run()
	full := *c
	full.Work = mnt
	rng := rand.New(rand.NewSource(c.Seed))
	var out []Result
	for _, sc := range Scenarios()[1:] {
		res := Result{Scenario: "disk-full " + sc.Name}
		for n := 0; n < runs && ctx.Err() == nil; n++ {
			v, failed, err := full.diskFullOne(sc, n, rng.Int63n(12<<10))
			if err != nil {
				return out, err
			}
			if failed {
				res.Kills++ // the command failed for want of space
			} else {
				res.Finished++
			}
			res.Violations = append(res.Violations, v...)
		}
		for _, v := range res.Violations {
			c.logf("VIOLATION %s", v)
		}
		c.logf("%s: %d failed for want of space, %d fitted, %d violations", res.Scenario, res.Kills, res.Finished, len(res.Violations))
		out = append(out, res)
	}
	return out, ctx.Err()
}

// diskFullOne runs sc once with free bytes left on the file system.
func (c *Config) diskFullOne(sc Scenario, n int, free int64) ([]string, bool, error) {
	r, err := c.newRun(sc.Name, n)
	if err != nil {
		return nil, false, err
	}
	defer r.remove()
	if err := sc.Prepare(r); err != nil {
		return nil, false, fmt.Errorf("disk-full %s: preparing: %w", sc.Name, err)
	}
	filler := filepath.Join(c.Work, "filler")
	if err := fill(filler, c.Work, free); err != nil {
		return nil, false, err
	}
	_, code, err := r.Wake(sc.Args(r)...)
	os.Remove(filler)
	if err != nil {
		return nil, false, err
	}
	var v []string
	for _, s := range r.afterKill(sc) {
		v = append(v, fmt.Sprintf("disk-full %s run %d (%d bytes free, exit %d): %s", sc.Name, n, free, code, s))
	}
	return v, code != 0, nil
}

// fill writes filler until dir's file system has about free bytes left.
func fill(filler, dir string, free int64) error {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		return err
	}
	avail := int64(st.Bavail) * st.Bsize
	if avail <= free {
		return nil
	}
	f, err := os.Create(filler)
	if err != nil {
		return err
	}
	defer f.Close()
	buf := make([]byte, 64<<10)
	for left := avail - free; left > 0; {
		k, err := f.Write(buf[:min(int64(len(buf)), left)])
		left -= int64(k)
		if err != nil {
			return nil // full already
		}
	}
	return nil
}
