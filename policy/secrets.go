package policy

import (
	"fmt"

	"github.com/wakeproto/wake/checks"
	"github.com/wakeproto/wake/tiers"
)

// KindSecret is the kind of the warning that a document holds a
// secret-looking string: `wake check` says where, never what.
const KindSecret = "secret"

// SecretFindings are the warnings, one a document, that docs hold
// secret-looking strings (see [FindSecrets]): each line and kind, never the
// value. Outputs show them redacted; the warning is for the user to take
// them out of the memory, which scrubbing never rewrites. Documents the
// policy holds back are not looked at: nothing of them is shown anyway.
func SecretFindings(docs ...tiers.Doc) []checks.Finding {
	var out []checks.Finding
	for _, d := range docs {
		if !d.Readable() {
			continue
		}
		if lvl, _ := OfDoc(d); Withheld(lvl) {
			continue
		}
		hits := FindSecrets(string(d.Content))
		if len(hits) == 0 {
			continue
		}
		details := make([]string, len(hits))
		for i, h := range hits {
			details[i] = fmt.Sprintf("line %d: %s", h.Line, h.Kind)
		}
		out = append(out, checks.Finding{Check: checks.Drift, Kind: KindSecret, Pass: true, Severity: checks.Warning, Path: d.Path, Details: details,
			Message: fmt.Sprintf("%s holds %d secret-looking string(s); wake shows them redacted, but they belong in a secret store, not in the memory: take them out", d.Path, len(hits))})
	}
	return out
}
