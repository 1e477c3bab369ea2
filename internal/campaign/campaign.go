// Package campaign is wake's crash campaign, kept so that every later
// change can run it (issue 23): it runs a wake binary on a fresh project,
// kills it with SIGKILL at a random point of its run, runs the next wake
// command, which finishes or undoes what the kill interrupted, and checks
// what the root must then hold: no empty file, no temporary file once
// swept, every created file with its ledger line, a root that loads. It
// also runs wake commands concurrently and checks that nothing was lost.
//
// scripts/campaign runs it at full size; cmd/wake's TestCampaignShort runs
// a few kills of each scenario in the ordinary test suite.
package campaign

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"
)

// Config is what a campaign runs with.
type Config struct {
	Bin  string    // the wake binary, built static (CGO_ENABLED=0)
	Work string    // a directory for the runs' projects, removed as they pass
	Seed int64     // of the kill delays
	Log  io.Writer // progress and violations; nil for none
	// Keep keeps the project of a run that violated an invariant, for
	// inspection, and names it in the violation.
	Keep bool
	// CountKills makes a scenario's count the runs killed before they
	// exited, rather than the runs made (at most three times as many).
	CountKills bool
	// Calibrate is how many whole runs time the command before its kills;
	// 0 is three.
	Calibrate int
}

// Result is what one scenario's kills found.
type Result struct {
	Scenario   string
	Kills      int           // runs killed before they exited
	Finished   int           // runs that exited before the kill came
	Median     time.Duration // of the command run whole, which the delays spread over
	Violations []string
}

// String is the result in one line.
func (r Result) String() string {
	return fmt.Sprintf("%s: %d killed, %d finished before the kill (run %v), %d violations",
		r.Scenario, r.Kills, r.Finished, r.Median.Round(100*time.Microsecond), len(r.Violations))
}

// Scenario is one command to kill: how to prepare its project, the
// command, and what must hold after the next command.
type Scenario struct {
	Name    string
	Prepare func(r *Run) error // lays out the project; the root may stay absent (init)
	Args    func(r *Run) []string
	Next    [][]string            // the next wake commands, which recover; nil: wake load
	Check   func(r *Run) []string // its own invariants, beyond [Run.checkRoot]'s
}

// Run is one project a scenario runs in.
type Run struct {
	cfg   *Config
	N     int
	Dir   string // the project
	Root  string // its memory root, Dir/.wake
	Home  string
	Token string // unique to the run, for the texts its command writes
	Vars  map[string]string
}

func (c *Config) newRun(name string, n int) (*Run, error) {
	dir, err := os.MkdirTemp(c.Work, name+"-")
	if err != nil {
		return nil, err
	}
	r := &Run{cfg: c, N: n, Dir: filepath.Join(dir, "proj"), Home: filepath.Join(dir, "home"), Vars: map[string]string{}}
	r.Root = filepath.Join(r.Dir, ".wake")
	r.Token = fmt.Sprintf("%s%d", name, n)
	for _, d := range []string{r.Dir, r.Home} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, err
		}
	}
	return r, nil
}

func (r *Run) remove() { os.RemoveAll(filepath.Dir(r.Dir)) }

// command is wake with args in the run's project, with its own HOME and
// no git above it.
func (r *Run) command(args ...string) *exec.Cmd {
	cmd := exec.Command(r.cfg.Bin, args...)
	cmd.Dir = r.Dir
	cmd.Env = []string{"HOME=" + r.Home, "PATH=" + os.Getenv("PATH"), "XDG_CONFIG_HOME=" + filepath.Join(r.Home, ".config"),
		"GIT_CEILING_DIRECTORIES=" + filepath.Dir(r.Dir), "TZ=UTC", "NO_COLOR=1"}
	return cmd
}

// Wake runs wake to the end and returns its output and exit status.
func (r *Run) Wake(args ...string) (string, int, error) {
	cmd := r.command(args...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return out.String(), ee.ExitCode(), nil
	}
	return out.String(), 0, err
}

// MustWake runs wake and fails unless it exits 0.
func (r *Run) MustWake(args ...string) (string, error) {
	out, code, err := r.Wake(args...)
	if err == nil && code != 0 {
		err = fmt.Errorf("wake %s: exit %d: %s", strings.Join(args, " "), code, out)
	}
	return out, err
}

// killAt starts wake with args and kills it after d; it reports whether
// the kill came before the process exited.
func (r *Run) killAt(args []string, d time.Duration) (bool, error) {
	cmd := r.command(args...)
	cmd.Stdout, cmd.Stderr = io.Discard, io.Discard
	if err := cmd.Start(); err != nil {
		return false, err
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	select {
	case <-done:
		return false, nil
	case <-time.After(d):
	}
	cmd.Process.Signal(syscall.SIGKILL)
	<-done
	ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus)
	return ok && ws.Signaled(), nil
}

// Kill runs sc kills times: each in a fresh project, the command killed
// at a delay drawn evenly from nothing to a little past its median run
// time, then the next commands, then the checks.
func (c *Config) Kill(ctx context.Context, sc Scenario, kills int) (Result, error) {
	res := Result{Scenario: sc.Name}
	med, err := c.median(sc)
	if err != nil {
		return res, err
	}
	res.Median = med
	rng := rand.New(rand.NewSource(c.Seed))
	for n := 0; ctx.Err() == nil; n++ {
		if !c.CountKills && n >= kills || c.CountKills && (res.Kills >= kills || n >= 3*kills) {
			break
		}
		r, err := c.newRun(sc.Name, n)
		if err != nil {
			return res, err
		}
		if err := sc.Prepare(r); err != nil {
			return res, fmt.Errorf("%s run %d: preparing: %w", sc.Name, n, err)
		}
		d := time.Duration(rng.Int63n(int64(med)*5/4 + 1))
		killed, err := r.killAt(sc.Args(r), d)
		if err != nil {
			return res, err
		}
		if killed {
			res.Kills++
		} else {
			res.Finished++
		}
		v := r.afterKill(sc)
		for _, s := range v {
			s = fmt.Sprintf("%s run %d (killed at %v): %s", sc.Name, n, d, s)
			res.Violations = append(res.Violations, s)
			c.logf("VIOLATION %s", s)
		}
		if (n+1)%100 == 0 {
			c.logf("%s: %d runs, %d killed (of %d asked)", sc.Name, n+1, res.Kills, kills)
		}
		if len(v) > 0 && c.Keep {
			c.logf("kept %s", r.Dir)
		} else {
			r.remove()
		}
	}
	c.logf("%s", res)
	return res, ctx.Err()
}

// afterKill runs the next commands and every check.
func (r *Run) afterKill(sc Scenario) []string {
	var v []string
	next := sc.Next
	if next == nil {
		next = [][]string{{"load"}}
	}
	for _, args := range next {
		if out, code, err := r.Wake(args...); err != nil || code != 0 {
			v = append(v, fmt.Sprintf("the next command, wake %s, failed (exit %d, %v): %s", strings.Join(args, " "), code, err, firstLine(out)))
		}
	}
	v = append(v, r.checkRoot()...)
	if sc.Check != nil {
		v = append(v, sc.Check(r)...)
	}
	return v
}

// median is the median time of whole runs of sc's command; a run that
// fails or fails its checks is an error, since the kills would then test
// nothing.
func (c *Config) median(sc Scenario) (time.Duration, error) {
	var ds []time.Duration
	runs := c.Calibrate
	if runs <= 0 {
		runs = 3
	}
	for n := 0; n < runs; n++ {
		r, err := c.newRun(sc.Name, -1-n)
		if err != nil {
			return 0, err
		}
		if err := sc.Prepare(r); err != nil {
			return 0, fmt.Errorf("%s: preparing: %w", sc.Name, err)
		}
		start := time.Now()
		_, err = r.MustWake(sc.Args(r)...)
		ds = append(ds, time.Since(start))
		if err != nil {
			return 0, fmt.Errorf("%s, run whole: %w", sc.Name, err)
		}
		if v := r.afterKill(sc); len(v) > 0 {
			return 0, fmt.Errorf("%s, run whole, fails its own checks: %s", sc.Name, strings.Join(v, "; "))
		}
		r.remove()
	}
	slices.Sort(ds)
	return ds[len(ds)/2], nil
}

func (c *Config) logf(format string, args ...any) {
	if c.Log != nil {
		fmt.Fprintf(c.Log, format+"\n", args...)
	}
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}
