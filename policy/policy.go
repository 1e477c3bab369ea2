// Package policy is the one place that decides what of the memory may
// leave wake (DESIGN section 7): a document's sensitivity level, and the
// filters every output applies to what it shows. A secret document never
// appears, a confidential one only as its one-line summary, a document
// whose front matter cannot be read counts as secret, and what is held back
// is counted. It exists apart from the pipeline so that every front end
// and every output, not only the boot context, applies the same rule.
//
// # Scrubbing
//
// Memory files collect pasted credentials. [Scrub] replaces each
// secret-looking string in a text with [redacted:<kind>] and changes
// nothing else. Only the secret is replaced: the password of a connection
// URL, the value of a password= assignment, the path of a Slack webhook. A
// secret that runs over several lines (a private-key block) becomes the
// marker followed by the line breaks it covered, so the text keeps its line
// count and a line number still names the same line of the file.
// [FindSecrets] says where secrets are without showing them. Files are never
// rewritten: scrubbing applies to what wake shows. The rules, one table of
// them, follow gitleaks' and are tested against a corpus of true positives
// and one of ordinary notes and code that must come out unchanged
// (scrub/testdata/scrub).
package policy

import (
	"path"
	"strings"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/budget"
	"github.com/wakeproto/wake/tiers"
)

// The sensitivity levels, from the least to the most restricted.
const (
	Public       = tiers.Public
	Internal     = tiers.Internal
	Confidential = tiers.Confidential
	Secret       = tiers.Secret
)

// Level is the policy's one rule: the declared level, internal when unset,
// and secret when the front matter could not be read, since an unknown
// level must be treated as the strictest.
func Level(declared string, metaErr error) string {
	if metaErr != nil {
		return Secret
	}
	return tiers.FrontMatter{Sensitivity: declared}.Level()
}

// OfDoc is the level of a document [tiers.ReadDoc] read, with the error
// that made its front matter unreadable, if any.
func OfDoc(d tiers.Doc) (string, error) {
	return Level(d.Meta.Sensitivity, d.MetaErr), d.MetaErr
}

// Withheld reports whether a document at level is kept out of an output
// whole or cut to its summary.
func Withheld(level string) bool { return level == Secret || level == Confidential }

// OfPath is the level of the document at rel under the root, read from the
// head of the file as it is now: "" for a directory, a file that is gone, a
// binary file or a path that names nothing inside the root; secret when the
// file or its front matter cannot be read.
func OfPath(fsys afero.Fs, root, rel string) string {
	clean, ok := DocPath(rel)
	if !ok {
		return ""
	}
	h, ok, err := tiers.ReadHead(fsys, root, clean)
	switch {
	case err != nil || h.MetaErr != "":
		return Secret
	case !ok || h.Binary:
		return ""
	}
	return h.Meta.Level()
}

// DocPath cleans a root-relative path, reporting false for one that names
// no document inside the root.
func DocPath(p string) (string, bool) {
	clean := path.Clean(p)
	if strings.HasSuffix(p, "/") || path.IsAbs(clean) || clean == "." || clean == ".." || strings.HasPrefix(clean, "../") {
		return "", false
	}
	return clean, true
}

// Held maps each of docs, already read, that the policy holds back to its
// level ([Unreadable] for front matter that cannot be read): for outputs that show what was found in documents (the checks'
// findings) without building the boot context.
func Held(docs ...tiers.Doc) map[string]string {
	out := map[string]string{}
	for _, d := range docs {
		if !d.Readable() {
			continue
		}
		if lvl, err := OfDoc(d); err != nil {
			out[d.Path] = Unreadable
		} else if Withheld(lvl) {
			out[d.Path] = lvl
		}
	}
	return out
}

// Unreadable stands in [Held] for the level of a document whose front
// matter cannot be read: held back as secret, but not said to be secret.
const Unreadable = "unreadable"

// HeldBack counts the documents the sensitivity policy kept out.
type HeldBack struct {
	Secret       int // not shown at all
	Confidential int // shown by their summary only
	// Redacted counts the secret-looking strings scrubbed from what was
	// shown (see [Scrub]).
	Redacted Redactions
}

// Line says what the sensitivity policy kept out, in one line, or "".
func (h HeldBack) Line() string {
	var parts []string
	if h.Secret > 0 {
		parts = append(parts, budget.Plural(h.Secret, "secret document")+" (not shown)")
	}
	if h.Confidential > 0 {
		parts = append(parts, budget.Plural(h.Confidential, "confidential document")+" (summary only)")
	}
	if r := h.Redacted.Line(); r != "" {
		parts = append(parts, r)
	}
	if len(parts) == 0 {
		return ""
	}
	return "Held back: " + strings.Join(parts, "; ") + "."
}
