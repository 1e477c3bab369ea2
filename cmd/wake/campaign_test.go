//go:build unix

package main

import (
	"context"
	"strings"
	"testing"

	"github.com/wakeproto/wake/internal/campaign"
)

// TestCampaignShort is the crash campaign of scripts/campaign in little:
// a few SIGKILLs of each scenario's command at random points, the next
// command, and the root's invariants (no empty or temporary file, every
// created file with its ledger line, a root that loads), then a handful of
// processes at once. The full counts (600 kills of init, 200 of capsule
// prompt --stub) are `go run ./scripts/campaign -run init=600,stub=200`.
func TestCampaignShort(t *testing.T) {
	// Its roots are its own; a kill lands wherever the load puts it, and
	// every point must be safe.
	t.Parallel()
	if testing.Short() {
		t.Skip("runs the wake binary")
	}
	bin := wakeBinary(t)
	counts := map[string]int{"init": 4, "stub": 4}
	for _, sc := range campaign.Scenarios() {
		t.Run(sc.Name, func(t *testing.T) {
			t.Parallel()
			n := counts[sc.Name]
			if n == 0 {
				n = 2
			}
			c := &campaign.Config{Bin: bin, Work: t.TempDir(), Seed: int64(len(sc.Name)), Calibrate: 1}
			res, err := c.Kill(context.Background(), sc, n)
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Violations) > 0 {
				t.Errorf("%s\n%s", res, strings.Join(res.Violations, "\n"))
			}
		})
	}
	t.Run("concurrent", func(t *testing.T) {
		t.Parallel()
		c := &campaign.Config{Bin: bin, Work: t.TempDir()}
		res, err := c.Concurrent(context.Background(), 6)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Violations) > 0 {
			t.Errorf("%s\n%s", res, strings.Join(res.Violations, "\n"))
		}
	})
}
