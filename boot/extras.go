package boot

import (
	"github.com/wakeproto/wake/budget"
	"github.com/wakeproto/wake/cold"
	"github.com/wakeproto/wake/tiers"
)

// addColdAndDigest builds phase 4 (the cold table of contents, within
// budget.toc) and the digest of recent changes (within budget.digest).
func (c *Context) addColdAndDigest(o Options) error {
	// The session records the trajectory lists are named by it once it
	// is built, and the listing fitted then, once
	// ([Context.nameListedRecords]).
	toc, warns := cold.ListTOC(o.Cold(), o.Config.Budget.TOC)
	c.TOC = toc
	c.HeldBack.Redacted = c.HeldBack.Redacted.Merge(toc.Redacted)
	c.Warnings = append(c.Warnings, warns...)
	d, warns, err := BuildDigest(o)
	if err != nil {
		return err
	}
	c.Digest = d
	c.HeldBack.Redacted = c.HeldBack.Redacted.Merge(d.Redacted)
	c.Warnings = append(c.Warnings, warns...)
	return nil
}

// extraTokens is what the table of contents, the digest and the open
// reminders and the trajectory add to memory.
func (c *Context) extraTokens() int {
	n := 0
	if c.TOC != nil {
		n += c.TOC.Tokens
	}
	if c.Digest != nil {
		n += c.Digest.Tokens
	}
	if c.Reminders != nil {
		n += c.Reminders.Tokens
	}
	if c.Trajectory != nil {
		n += c.Trajectory.Tokens
	}
	return n
}

// squeeze makes room when the whole context is over the limit by over
// tokens, the lowest priority first: from the bottom of the context up,
// the digest, then the table of contents, then the open reminders, and
// only once all three are empty
// the largest file that can still be cut, each fitted again to its size
// less the excess. A file is cut as far as fitting can cut it before the
// next largest is: none is dropped whole while another can still give
// way. Only when no file can be cut further is the largest withheld whole
// (main.md's HANDOFF block is never cut). It reports whether anything
// gave way.
func (c *Context) squeeze(over int, counter budget.Counter) bool {
	if d := c.Digest; d != nil && d.Tokens > 0 {
		d.Squeezed = true
		d.fit(max(0, d.Tokens-over-8), counter)
		return true
	}
	if t := c.TOC; t != nil && t.Tokens > 0 {
		t.Refit(max(0, t.Tokens-over-8), counter)
		return true
	}
	if r := c.Reminders; r != nil && r.Tokens > 0 {
		r.Squeezed = true
		r.fit(max(0, r.Tokens-over-8), counter)
		return true
	}
	largest := func(cuttable bool) *File {
		var big *File
		for _, f := range c.Files() {
			// main.md is cut (never its HANDOFF block), never withheld.
			if !cuttable && f.Path == tiers.MainPath {
				continue
			}
			if f.ShownTokens > 0 && !(cuttable && f.floor) && (big == nil || f.ShownTokens > big.ShownTokens) {
				big = f
			}
		}
		return big
	}
	if big := largest(true); big != nil {
		before := big.ShownTokens
		fit(big, max(0, big.ShownTokens-over-32), counter)
		if big.ShownTokens >= before {
			big.floor = true // as far as it goes: the next largest gives way
		}
		return true
	}
	// The trajectory says where the project is going: it gives way only
	// when no file can be cut further.
	if t := c.Trajectory; t != nil && t.Tokens > 0 {
		t.Squeezed = true
		t.fit(max(0, t.Tokens-over-8), counter)
		return true
	}
	big := largest(false)
	if big == nil {
		return false
	}
	big.Omitted = &Omit{Tokens: big.Tokens}
	big.Content, big.ShownTokens, big.Truncated, big.Budget = "", 0, true, 0
	big.withheld = true
	big.cuts = []budget.Cut{{What: "the whole file", Where: big.Path, Tokens: big.Tokens}}
	return true
}

// nameListedRecords has the table of contents list the session records
// the trajectory gives a line of (its newest sessions) by their names,
// their summaries being there; the others keep theirs. It fits the
// listing, which [Context.addColdAndDigest] left unfitted for it.
func (c *Context) nameListedRecords(o Options) {
	if c.TOC == nil {
		return
	}
	n := 0
	if c.Trajectory != nil {
		for _, e := range c.Trajectory.Entries {
			if e.Held == "" {
				n++
			}
		}
	}
	c.TOC.FitNamed(n, o.Counter)
}
