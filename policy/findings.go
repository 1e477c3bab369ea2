package policy

import (
	"fmt"
	"sort"
	"strings"

	"github.com/wakeproto/wake/checks"
	"github.com/wakeproto/wake/tiers"
)

// quotes lists the documents whose text a check's findings may quote.
func quotes(check string) []string {
	switch check {
	case checks.Identity:
		return []string{tiers.MainPath}
	case checks.Continuity:
		return []string{tiers.MainPath, tiers.LatestPath}
	case checks.Tasks:
		return []string{tiers.MainPath, tiers.TasksPath}
	case checks.Consistency:
		return []string{tiers.DecisionsPath}
	}
	return nil
}

// RedactReport returns the report with every text quoted from a held-back
// document replaced by a note saying so. held maps a document's path to the
// sensitivity that held it back. The checks still judge the whole
// documents; only what they would show is withheld. Failure messages are
// fixed texts and stay.
func RedactReport(r checks.Report, held map[string]string) checks.Report {
	r = scrubReport(r)
	if len(held) == 0 {
		return r
	}
	note := func(check string, also ...string) string {
		var why []string
		seen := map[string]bool{}
		for _, p := range append(quotes(check), also...) {
			if lvl, ok := held[p]; ok && !seen[p] {
				seen[p] = true
				if lvl == Unreadable {
					why = append(why, fmt.Sprintf("%s's front matter cannot be read", p))
				} else {
					why = append(why, fmt.Sprintf("%s is %s", p, lvl))
				}
			}
		}
		sort.Strings(why)
		return strings.Join(why, ", ")
	}
	out := r
	out.Findings = make([]checks.Finding, len(r.Findings))
	for i, f := range r.Findings {
		// A drift finding quotes the document it is about; the front
		// matter's quotes none of it.
		if n := note(f.Check, f.Path); n != "" && f.Check != CheckFrontMatter {
			if f.Pass {
				f.Message = "details held back (" + n + ")"
			}
			if len(f.Details) > 0 {
				f.Details = []string{fmt.Sprintf("%d detail(s) held back (%s)", len(f.Details), n)}
			}
		}
		out.Findings[i] = f
	}
	if note(checks.Continuity) != "" {
		out.LastSession = "held back (" + note(checks.Continuity) + ")"
	}
	if note(checks.Tasks) != "" {
		out.Focus = "held back (" + note(checks.Tasks) + ")"
	}
	out.Announcement = checks.Announce(out)
	return out
}

// scrubReport replaces the secret-looking strings the findings quote from
// the documents (see [Scrub]); the checks judged the documents whole.
func scrubReport(r checks.Report) checks.Report {
	// The findings are counted; the announcement, last session and focus
	// repeat what they quote, so they are scrubbed without counting again.
	var red Redactions
	count := func(s string) string {
		out, n := Scrub(s)
		red = red.Merge(n)
		return out
	}
	scrub := func(s string) string { out, _ := Scrub(s); return out }
	out := r
	out.Findings = make([]checks.Finding, len(r.Findings))
	changed := false
	for i, f := range r.Findings {
		f.Message = count(f.Message)
		if len(f.Details) > 0 {
			ds := make([]string, len(f.Details))
			for j, d := range f.Details {
				ds[j] = count(d)
			}
			f.Details = ds
		}
		out.Findings[i] = f
	}
	if ls := scrub(r.LastSession); ls != r.LastSession {
		out.LastSession, changed = ls, true
	}
	if fo := scrub(r.Focus); fo != r.Focus {
		out.Focus, changed = fo, true
	}
	if changed || scrub(r.Announcement) != r.Announcement {
		out.Announcement = checks.Announce(out)
	}
	if len(red) > 0 {
		out.Redacted = red
	}
	return out
}
