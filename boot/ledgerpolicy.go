package boot

import (
	"github.com/spf13/afero"

	"github.com/wakeproto/wake/handoff"
	"github.com/wakeproto/wake/policy"
	"github.com/wakeproto/wake/tiers"
)

// RedactLedger applies the sensitivity policy (DESIGN section 7) to ledger
// entries an agent will see, reading each document's sensitivity from the
// head of the file as it is now: see [policy.RedactLedger].
func RedactLedger(fsys afero.Fs, root string, entries []handoff.Entry) ([]handoff.Entry, int) {
	return policy.RedactLedger(entries, func(p string) string { return policy.OfPath(fsys, root, p) })
}

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
