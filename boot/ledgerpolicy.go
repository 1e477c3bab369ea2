package boot

import (
	"path"
	"strings"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/handoff"
	"github.com/wakeproto/wake/tiers"
)

// confidentialPath stands in a ledger entry for a confidential document's
// path.
const confidentialPath = "(confidential)"

// RedactLedger applies the sensitivity policy (DESIGN section 7) to ledger
// entries an agent will see, reading each document's sensitivity from the
// head of the file as it is now: see [RedactLedgerBy].
func RedactLedger(fsys afero.Fs, root string, entries []handoff.Entry) ([]handoff.Entry, int) {
	return RedactLedgerBy(entries, func(p string) string { return pathLevel(fsys, root, p) })
}

// RedactLedgerBy applies the sensitivity policy to ledger entries, with
// level giving the sensitivity of the document at a ledger path (asked once
// a path). An entry touching a secret document, or one whose front matter
// cannot be read, is held back and only counted; a confidential document's
// path is replaced, and so is the change summary, by the document's
// one-line summary when the entry carries one.
func RedactLedgerBy(entries []handoff.Entry, level func(path string) string) ([]handoff.Entry, int) {
	levels := map[string]string{}
	known := func(p string) string {
		l, ok := levels[p]
		if !ok {
			l = level(p)
			levels[p] = l
		}
		return l
	}
	out := make([]handoff.Entry, 0, len(entries))
	held := 0
	for _, e := range entries {
		shown, secret := e, false
		shown.Paths = make([]string, 0, len(e.Paths))
		conf := false
		for _, p := range e.Paths {
			switch known(p) {
			case tiers.Secret:
				secret = true
			case tiers.Confidential:
				conf = true
				shown.Paths = append(shown.Paths, confidentialPath)
			default:
				shown.Paths = append(shown.Paths, p)
			}
		}
		if secret {
			held++
			continue
		}
		if conf {
			shown.ChangeSummary = "changed a confidential document"
			if shown.Summary != "" {
				shown.ChangeSummary += ": " + shown.Summary
			}
		}
		out = append(out, shown)
	}
	return out, held
}

// pathLevel is the sensitivity of the document at a ledger path: "" for a
// directory, a file that is gone, or a path that does not name one inside
// the root (a hand-edited ledger is not followed out of it); secret when
// the file or its front matter cannot be read.
func pathLevel(fsys afero.Fs, root, p string) string {
	clean, ok := ledgerDoc(p)
	if !ok {
		return ""
	}
	h, ok, err := tiers.ReadHead(fsys, root, clean)
	switch {
	case err != nil || h.MetaErr != "":
		return tiers.Secret
	case !ok || h.Binary:
		return ""
	}
	return h.Meta.Level()
}

// ledgerDoc cleans a ledger path, reporting false for one that names no
// document inside the root.
func ledgerDoc(p string) (string, bool) {
	clean := path.Clean(p)
	if strings.HasSuffix(p, "/") || path.IsAbs(clean) || clean == "." || clean == ".." || strings.HasPrefix(clean, "../") {
		return "", false
	}
	return clean, true
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
		clean, ok := ledgerDoc(p)
		if !ok {
			return ""
		}
		if f := tierFiles[clean]; f != nil && (f.Missing || f.doc.Readable()) {
			return f.Held
		}
		if clean == tiers.ConfigPath {
			return ""
		}
		if l, ok := c.TOC.level(clean); ok {
			return l
		}
		return pathLevel(o.FS, o.Root, clean)
	}
}
