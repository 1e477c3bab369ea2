package boot

import (
	"github.com/wakeproto/wake/budget"
	"github.com/wakeproto/wake/cold"
)

// addColdAndDigest builds phase 4 (the cold table of contents, within
// budget.toc) and the digest of recent changes (within budget.digest).
func (c *Context) addColdAndDigest(o Options) error {
	toc, warns, err := cold.BuildTOC(o.Cold(), o.Config.Budget.TOC)
	if err != nil {
		return err
	}
	c.TOC = toc
	c.Warnings = append(c.Warnings, warns...)
	d, warns, err := BuildDigest(o)
	if err != nil {
		return err
	}
	c.Digest = d
	c.Warnings = append(c.Warnings, warns...)
	return nil
}

// extraTokens is what the table of contents and the digest add to memory.
func (c *Context) extraTokens() int {
	n := 0
	if c.TOC != nil {
		n += c.TOC.Tokens
	}
	if c.Digest != nil {
		n += c.Digest.Tokens
	}
	return n
}

// shrinkExtras makes room when the whole context is over the limit by over
// tokens, from the bottom of the context up: the digest first, then the
// table of contents; the phases' files only once both are empty. It reports
// whether it shrank anything.
func (c *Context) shrinkExtras(over int, counter budget.Counter) bool {
	if d := c.Digest; d != nil && d.Tokens > 0 {
		d.Squeezed = true
		d.fit(max(0, d.Tokens-over-8), counter)
		return true
	}
	if t := c.TOC; t != nil && t.Tokens > 0 {
		t.Refit(max(0, t.Tokens-over-8), counter)
		return true
	}
	return false
}
