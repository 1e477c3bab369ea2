package policy

import (
	"errors"
	"fmt"

	"github.com/wakeproto/wake/checks"
	"github.com/wakeproto/wake/tiers"
)

// CheckFrontMatter names the finding that a document's front matter
// cannot be read.
const CheckFrontMatter = "front_matter"

// UnreadableFindings are the failures, one a document, that docs have
// front matter wake cannot read. Such a document is held back from every
// output as if it were secret (its sensitivity is unknown), and without
// this finding nothing would say why an agent lost it: the finding names
// the file and the problem, never a value of the document.
func UnreadableFindings(docs ...tiers.Doc) []checks.Finding {
	var out []checks.Finding
	for _, d := range docs {
		if !d.Readable() || d.MetaErr == nil {
			continue
		}
		hint := "fix the front matter (a first line of exactly ---, then key: value lines, then a --- line), or remove it, then run wake check"
		var le *tiers.LevelError
		if errors.As(d.MetaErr, &le) {
			hint = fmt.Sprintf("on line %d of %s write sensitivity: public, internal, confidential or secret, then run wake check", le.Line, d.Path)
			if le.Want != "" {
				hint = fmt.Sprintf("on line %d of %s write sensitivity: %s if that is what was meant, then run wake check", le.Line, d.Path, le.Want)
			}
		}
		out = append(out, checks.Finding{Check: CheckFrontMatter, Severity: checks.Fail, Path: d.Path,
			Message: fmt.Sprintf("%s is held back from every output because its front matter cannot be read, not because it is secret: %v", d.Path, d.MetaErr),
			Details: []string{hint}})
	}
	return out
}
