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
		if f, ok := SecretFinding(d.Path, FindSecrets(string(d.Content))); ok {
			out = append(out, f)
		}
	}
	return out
}

// SecretFinding is the warning that the document at path holds the
// secret-looking strings hits: their lines and kinds, never their values.
func SecretFinding(path string, hits []SecretHit) (checks.Finding, bool) {
	if len(hits) == 0 {
		return checks.Finding{}, false
	}
	details := make([]string, len(hits))
	for i, h := range hits {
		details[i] = fmt.Sprintf("line %d: %s", h.Line, h.Kind)
	}
	return checks.Finding{Check: checks.Drift, Kind: KindSecret, Pass: true, Severity: checks.Warning, Path: path, Details: details,
		Message: fmt.Sprintf("%s holds %d secret-looking string(s); wake shows them redacted, but they belong in a secret store, not in the memory: take them out", path, len(hits))}, true
}

// ScrubDecisions returns the decision log with the texts an output shows
// (each field's value, the decision and its reason, malformed lines)
// scrubbed of secret-looking strings; positions and the raw entries stay
// as read, for wake's own writes.
func ScrubDecisions(log tiers.DecisionLog) (tiers.DecisionLog, Redactions) {
	var all Redactions
	scrub := func(s string) string {
		out, r := Scrub(s)
		all = all.Merge(r)
		return out
	}
	out := log
	out.Entries = make([]tiers.Decision, len(log.Entries))
	for i, e := range log.Entries {
		// What and Why are cut from the DECISION field, counted below.
		e.What, _ = Scrub(e.What)
		e.Why, _ = Scrub(e.Why)
		fs := make([]tiers.Field, len(e.Fields))
		for j, f := range e.Fields {
			f.Value = scrub(f.Value)
			fs[j] = f
		}
		e.Fields = fs
		out.Entries[i] = e
	}
	out.Malformed = make([]tiers.MalformedLine, len(log.Malformed))
	for i, m := range log.Malformed {
		m.Text = scrub(m.Text)
		out.Malformed[i] = m
	}
	return out, all
}
