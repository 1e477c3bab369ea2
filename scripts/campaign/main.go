// Command campaign runs wake's crash campaign (see internal/campaign):
// it builds wake static, kills each scenario's command at random points,
// runs the next command and checks the root, then runs wake commands
// concurrently and checks that nothing was lost. It exits 1 when an
// invariant failed.
//
//	go run ./scripts/campaign                         # 50 kills of every scenario, a concurrency run
//	go run ./scripts/campaign -run init=600,stub=200 -count-killed  # issue 23's counts
//	go run ./scripts/campaign -bin ./wake -keep       # a binary built already; keep failing projects
//
// Run as root, it also fills a small tmpfs it mounts to see each command
// fail for want of space (-diskfull); otherwise that run is skipped.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/wakeproto/wake/internal/campaign"
)

func main() {
	bin := flag.String("bin", "", "the wake binary (default: build ./cmd/wake with CGO_ENABLED=0)")
	run := flag.String("run", "", "scenarios and kill counts, NAME=N,... (default: every scenario at -kills)")
	kills := flag.Int("kills", 50, "kills of each scenario -run does not count")
	conc := flag.Int("concurrent", 16, "processes of the concurrency run; 0 skips it")
	full := flag.Int("diskfull", 10, "runs of each scenario on a nearly full tmpfs (needs root; skipped otherwise); 0 skips them")
	hostile := flag.Bool("hostile", true, "run the transcript readers and the everyday commands on hostile input (FIFO, device, directory, 64 MB, malformed files)")
	seed := flag.Int64("seed", time.Now().UnixNano(), "seed of the kill delays")
	killed := flag.Bool("count-killed", false, "count only the runs killed before they exited (at most three times as many runs)")
	keep := flag.Bool("keep", false, "keep the project of a run that failed a check")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := campaignRun(ctx, *bin, *run, *kills, *conc, *full, *hostile, *seed, *keep, *killed); err != nil {
		fmt.Fprintf(os.Stderr, "campaign: error: %v\n", err)
		os.Exit(1)
	}
}

func campaignRun(ctx context.Context, bin, run string, kills, conc, full int, hostile bool, seed int64, keep, killed bool) error {
	work, err := os.MkdirTemp("", "wake-campaign-")
	if err != nil {
		return err
	}
	if !keep {
		defer os.RemoveAll(work)
	}
	if bin == "" {
		if bin, err = build(work); err != nil {
			return err
		}
	}
	plan, err := parsePlan(run, kills)
	if err != nil {
		return err
	}
	c := &campaign.Config{Bin: bin, Work: work, Seed: seed, Log: os.Stdout, Keep: keep, CountKills: killed}
	fmt.Printf("wake campaign: %s, seed %d, in %s\n", bin, seed, work)
	failed := 0
	for _, p := range plan {
		res, err := c.Kill(ctx, p.sc, p.n)
		if err != nil {
			return err
		}
		failed += len(res.Violations)
	}
	if conc > 0 {
		res, err := c.Concurrent(ctx, conc)
		if err != nil {
			return err
		}
		failed += len(res.Violations)
	}
	if hostile {
		res, err := c.Hostile(ctx)
		if err != nil {
			return err
		}
		failed += len(res.Violations)
	}
	if full > 0 {
		res, err := c.DiskFull(ctx, full)
		if errors.Is(err, campaign.ErrNoDiskFull) {
			fmt.Println("wake campaign:", err)
		} else if err != nil {
			return err
		}
		for _, r := range res {
			failed += len(r.Violations)
		}
	}
	if failed > 0 {
		return fmt.Errorf("%d invariant violations", failed)
	}
	fmt.Println("wake campaign: no violation")
	return nil
}

type step struct {
	sc campaign.Scenario
	n  int
}

// parsePlan reads NAME=N,...; empty is every scenario at kills.
func parsePlan(run string, kills int) ([]step, error) {
	var plan []step
	if run == "" {
		for _, sc := range campaign.Scenarios() {
			plan = append(plan, step{sc, kills})
		}
		return plan, nil
	}
	for _, item := range strings.Split(run, ",") {
		name, count, _ := strings.Cut(item, "=")
		sc, ok := campaign.ScenarioNamed(name)
		if !ok {
			return nil, fmt.Errorf("-run %s: no scenario %q (there are init, stub, handoff, decide, reverse, remember)", item, name)
		}
		n := kills
		if count != "" {
			var err error
			if n, err = strconv.Atoi(count); err != nil || n < 0 {
				return nil, fmt.Errorf("-run %s: %q is not a count", item, count)
			}
		}
		plan = append(plan, step{sc, n})
	}
	return plan, nil
}

// build builds wake as the README installs it: static, with no C.
func build(dir string) (string, error) {
	bin := filepath.Join(dir, "wake")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/wake")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build ./cmd/wake (run from the module's root): %v\n%s", err, out)
	}
	return bin, nil
}
