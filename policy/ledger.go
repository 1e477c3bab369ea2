package policy

import "github.com/wakeproto/wake/store"

// confidentialPath stands in a ledger entry for a confidential document's
// path.
const confidentialPath = "(confidential)"

// RedactLedger applies the sensitivity policy to ledger entries, with
// level giving the sensitivity of the document at a ledger path (asked once
// a path). An entry touching a secret document, or one whose front matter
// cannot be read, is held back and only counted; a confidential document's
// path is replaced, and so is the change summary, by the document's
// one-line summary when the entry carries one. The level an entry
// recorded for its documents ([store.Entry.Sensitivity]) counts when it
// is stricter than the level read now: a secret document deleted since
// has no head left to say so.
//
// It also scrubs the summaries of the entries it shows of secret-looking
// strings, and counts them.
func RedactLedger(entries []store.Entry, level func(path string) string) ([]store.Entry, int, Redactions) {
	var red Redactions
	levels := map[string]string{}
	known := func(p string) string {
		l, ok := levels[p]
		if !ok {
			l = level(p)
			levels[p] = l
		}
		return l
	}
	out := make([]store.Entry, 0, len(entries))
	held := 0
	for _, e := range entries {
		shown, secret := e, false
		shown.Paths = make([]string, 0, len(e.Paths))
		conf := false
		switch e.Sensitivity {
		case Secret:
			secret = true
		case Confidential:
			conf = true
		}
		for _, p := range e.Paths {
			switch stricter(known(p), e.Sensitivity) {
			case Secret:
				secret = true
			case Confidential:
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
		// A summary given on the command line may hold a pasted credential.
		var r1, r2 Redactions
		shown.ChangeSummary, r1 = Scrub(shown.ChangeSummary)
		shown.Summary, r2 = Scrub(shown.Summary)
		red = red.Merge(r1).Merge(r2)
		out = append(out, shown)
	}
	return out, held, red
}

// stricter returns the more restricted of two levels; "" and an unknown
// level count as the least.
func stricter(a, b string) string {
	rank := func(l string) int {
		switch l {
		case Secret:
			return 3
		case Confidential:
			return 2
		case Internal:
			return 1
		}
		return 0
	}
	if rank(b) > rank(a) {
		return b
	}
	return a
}
