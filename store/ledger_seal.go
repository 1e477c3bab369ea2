package store

import (
	"path"
	"strings"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/policy/scrub"
	"github.com/wakeproto/wake/tiers"
)

// sealed is e as the ledger may keep it. The ledger is committed with the
// root and read by whoever clones it, so it holds no more than an output
// may show: a change to a document that is secret or confidential, or
// whose front matter cannot be read, is recorded by its operation, paths
// and decision IDs only, a secret one with the level in Sensitivity so
// that every output holds the whole line back; and every text is scrubbed
// of secret-looking strings. The level is the strictest of the one the
// entry carries and those read now from the heads of the files it names,
// which a mutation has written by the time its line is appended. Sealing
// twice gives what sealing once gives.
func sealed(fsys afero.Fs, root string, e Entry) Entry {
	level := e.Sensitivity
	// An edit entry's level is the scan's, read from both versions of the
	// file; the file may be gone now.
	if e.Op != OpEdit {
		for _, p := range e.Paths {
			level = stricterLevel(level, headLevel(fsys, root, p))
		}
	}
	if level == tiers.Secret || level == tiers.Confidential {
		e.ChangeSummary = heldSummary(e, level)
		e.Summary = ""
	}
	// A secret document's line is held back whole whatever becomes of the
	// file. A confidential one's paths are judged one by one when shown,
	// so that the other documents of the change stay named; its texts are
	// sealed already.
	if level == tiers.Secret {
		e.Sensitivity = level
	}
	e.ChangeSummary, _ = scrub.Text(e.ChangeSummary)
	e.Summary, _ = scrub.Text(e.Summary)
	return e
}

// heldSummary is the change summary of an entry whose documents are held
// back: what was done and to which decisions, never their text. An edit's
// keeps the scan's first words ("edited by hand").
func heldSummary(e Entry, level string) string {
	what := e.Op
	if e.Op == OpEdit {
		what = e.ChangeSummary
		if i := strings.IndexAny(what, ":("); i >= 0 {
			what = strings.TrimSpace(what[:i])
		}
	}
	if len(e.DecisionIDs) > 0 {
		what += " " + strings.Join(e.DecisionIDs, ", ")
	}
	return what + " (a " + level + " document: no details kept)"
}

// headLevel is the sensitivity of the document at rel under the root, read
// from its head as it is now: "" for a directory, a file that is gone or
// binary, or a path that names nothing inside the root; secret when the
// file or its front matter cannot be read (policy.OfPath, which this
// package cannot import).
func headLevel(fsys afero.Fs, root, rel string) string {
	clean := path.Clean(rel)
	if strings.HasSuffix(rel, "/") || path.IsAbs(clean) || clean == "." || clean == ".." || strings.HasPrefix(clean, "../") {
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

// stricterLevel is the more restricted of two levels; "" and public or
// internal count as not held back.
func stricterLevel(a, b string) string {
	rank := map[string]int{tiers.Confidential: 1, tiers.Secret: 2}
	if rank[b] > rank[a] {
		return b
	}
	return a
}
