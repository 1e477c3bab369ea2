package boot

import (
	"time"

	"github.com/wakeproto/wake/tiers"
)

// ValidUntil is the first moment after now, the clock c was built at, when
// a build with nothing else changed may read differently: the oldest
// ledger entry of the digest's window leaving it, the HANDOFF block
// turning stale, or a stale block's age, which the warning gives in hours
// or days, reaching its next hour. The zero time when none applies. Every
// use of the clock by [Build] is covered here; a session start's cache
// keeps its result no longer than this.
func (c *Context) ValidUntil(cfg tiers.Config, now time.Time) time.Time {
	var until time.Time
	earlier := func(t time.Time) {
		if until.IsZero() || t.Before(until) {
			until = t
		}
	}
	if c.Digest != nil && !c.Digest.oldest.IsZero() {
		// An entry is in the window while now - window <= its time;
		// held back or listed, its leaving changes the context.
		earlier(c.Digest.oldest.Add(cfg.Digest.Window))
	}
	if at, ok := c.handoffUpdated(); ok && cfg.Checks.StaleAfter > 0 {
		if age := now.Sub(at); age <= cfg.Checks.StaleAfter {
			earlier(at.Add(cfg.Checks.StaleAfter).Add(time.Nanosecond))
		} else {
			earlier(at.Add((age/time.Hour + 1) * time.Hour))
		}
	}
	return until
}

// handoffUpdated is the time main.md's HANDOFF block was updated, as the
// continuity check reads it.
func (c *Context) handoffUpdated() (time.Time, bool) {
	for _, f := range c.Files() {
		if f.Path != tiers.MainPath || !f.doc.Readable() {
			continue
		}
		raw := tiers.ParseMain(f.doc.Content).Handoff.Get(tiers.KeyUpdated)
		at, err := time.Parse(time.RFC3339, raw)
		return at, err == nil
	}
	return time.Time{}, false
}
