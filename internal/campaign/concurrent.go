package campaign

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/wakeproto/wake/tiers"
)

// Concurrent starts n wake processes at once in one project, hand-offs,
// decisions and reminders in turn, and checks that nothing was lost:
// every command that succeeded is in the files once with its one ledger
// line, every one refused is in neither, and the root passes the checks
// of a killed run.
func (c *Config) Concurrent(ctx context.Context, n int) (Result, error) {
	res := Result{Scenario: fmt.Sprintf("concurrent-%d", n)}
	r, err := c.newRun("concurrent", 0)
	if err != nil {
		return res, err
	}
	if err := initRoot(r); err != nil {
		return res, err
	}
	kinds := []struct {
		op   string
		args func(i int) []string
		in   func(i int) int
	}{
		{"handoff", func(i int) []string {
			return []string{"handoff", "--summary", fmt.Sprintf("session c%dx", i), "--next", fmt.Sprintf("go on c%dx", i)}
		}, func(i int) int { return r.inHandoffs(fmt.Sprintf("session c%dx", i)) }},
		{"decide", func(i int) []string {
			return []string{"decide", fmt.Sprintf("Name module c%dx after its package", i), "--because", "it reads well"}
		}, func(i int) int { return strings.Count(r.read(tiers.DecisionsPath), fmt.Sprintf("module c%dx ", i)) }},
		{"remember", func(i int) []string { return []string{"remember", fmt.Sprintf("look at part c%dx", i)} },
			func(i int) int { return strings.Count(r.read(tiers.InboxPath), fmt.Sprintf("part c%dx", i)) }},
	}
	codes := make([]int, n)
	outs := make([]string, n)
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			outs[i], codes[i], _ = r.Wake(kinds[i%len(kinds)].args(i)...)
		}(i)
	}
	wg.Wait()
	for i := 0; i < n; i++ {
		k := kinds[i%len(kinds)]
		in := k.in(i)
		text := k.args(i)[len(k.args(i))-1]
		lines, err := r.opsNamed(k.op, fmt.Sprintf("c%dx", i))
		if err != nil {
			return res, err
		}
		switch {
		case codes[i] == 0 && (in != 1 || lines != 1):
			res.Violations = append(res.Violations, fmt.Sprintf("wake %s (%s) succeeded: %d in the files, %d ledger lines", k.op, text, in, lines))
		case codes[i] != 0 && (in != 0 || lines != 0):
			res.Violations = append(res.Violations, fmt.Sprintf("wake %s (%s) failed (exit %d: %s), yet %d in the files, %d ledger lines", k.op, text, codes[i], firstLine(outs[i]), in, lines))
		case codes[i] == 0:
			res.Finished++
		default:
			c.logf("%s: wake %s exited %d: %s", res.Scenario, k.op, codes[i], firstLine(outs[i]))
		}
	}
	res.Violations = append(res.Violations, r.checkRoot()...)
	for _, v := range res.Violations {
		c.logf("VIOLATION %s: %s", res.Scenario, v)
	}
	c.logf("%s: %d of %d commands succeeded, %d violations", res.Scenario, res.Finished, n, len(res.Violations))
	if len(res.Violations) == 0 || !c.Keep {
		r.remove()
	}
	return res, ctx.Err()
}

// inHandoffs is 1 when a hand-off summary holding s is in recent/ or the
// archive, else 0.
func (r *Run) inHandoffs(s string) int {
	for _, rel := range append([]string{tiers.LatestPath, tiers.PreviousPath}, r.glob(tiers.SessionsDir+"/*.md")...) {
		if strings.Contains(r.read(rel), s) {
			return 1
		}
	}
	return 0
}
