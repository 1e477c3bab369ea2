package boot

import (
	"github.com/wakeproto/wake/policy"
	"github.com/wakeproto/wake/tiers"
)

// ledgerLevels returns the sensitivity of ledger paths from what Build has
// already read, so that the digest opens no file a second time: the tier
// files (their held-back level), wake.toml (the configuration Build was
// given: parsed as TOML, so it has no front matter) and the cold documents
// the table of contents listed. Any other path is read from its head.
func (c *Context) ledgerLevels(o Options) func(string) string {
	tierFiles := map[string]*File{}
	for _, f := range c.Files() {
		tierFiles[f.Path] = f
	}
	return func(p string) string {
		clean, ok := policy.DocPath(p)
		if !ok {
			return ""
		}
		if f := tierFiles[clean]; f != nil && (f.Missing || f.doc.Readable()) {
			return f.Held
		}
		if clean == tiers.ConfigPath {
			return ""
		}
		if l, ok := c.TOC.Level(clean); ok {
			return l
		}
		return policy.OfPath(o.FS, o.Root, clean)
	}
}
