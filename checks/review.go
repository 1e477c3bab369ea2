package checks

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/wakeproto/wake/tiers"
)

// KindReview is the drift of a decision in force whose reasons may no
// longer hold (nostalgia): its BECAUSE names a file, a Go module or a
// scoped npm package the project no longer has, or nothing has touched it for
// checks.review_after. It is listed for review, never changed: the user
// upholds it ('wake uphold') or replaces it ('wake reverse').
const KindReview = "review_decision"

// maxReviewListed bounds the decisions one review finding lists.
const maxReviewListed = 10

var (
	// annotationDate is a date an annotation of an entry carries
	// ("UPHELD: [2026-03-01] …").
	annotationDate = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\[(\d{4}-\d{2}-\d{2})\]`) })
	// modulePath is a Go module path: a host with a dot, then a path.
	modulePath = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^[a-z0-9-]+(?:\.[a-z0-9-]+)+/[\w.~-]+(?:/[\w.~-]+)*$`)
	})
	// scopedPackage is an npm package's scoped name, as npm allows it:
	// "@scope/name", lowercase.
	scopedPackage = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^@[a-z0-9-~][a-z0-9-._~]*/[a-z0-9-~][a-z0-9-._~]*$`)
	})
)

// reviewDecisions lists the decisions in force whose reasons may no longer
// hold, with why.
func reviewDecisions(m Memory, o DriftOptions) (Finding, bool) {
	d := m.Decisions
	if !d.Readable() || d.Huge {
		return Finding{}, false
	}
	var details []string
	n := 0
	for _, e := range tiers.SharedDecisions(d.Content).Entries {
		if !e.Active() {
			continue
		}
		why := reviewReasons(e, o)
		if len(why) == 0 {
			continue
		}
		if n++; n <= maxReviewListed {
			details = append(details, fmt.Sprintf("entry %s (%s): %s", e.Name(), e.Title(), strings.Join(why, "; ")))
		}
	}
	if n == 0 {
		return Finding{}, false
	}
	if n > maxReviewListed {
		details = append(details, fmt.Sprintf("and %d more", n-maxReviewListed))
	}
	return Finding{Check: Drift, Kind: KindReview, Pass: true, Severity: Warning, Path: tiers.DecisionsPath, Details: details,
		Message: fmt.Sprintf("%d decision(s) in force may rest on reasons that no longer hold: review them ('wake uphold' keeps one, 'wake reverse' replaces it); nothing was changed", n)}, true
}

// reviewReasons says why e may no longer hold: what its BECAUSE names
// that is gone, and its age past o.ReviewAfter.
func reviewReasons(e tiers.Decision, o DriftOptions) []string {
	var out []string
	because := tiers.OneLine(e.Why)
	if o.Exists != nil {
		for _, p := range NamedPaths(because) {
			if !o.Exists(p) {
				out = append(out, fmt.Sprintf("its reason names %s, which the project no longer has", p))
			}
		}
	}
	if o.Module != nil {
		for _, tok := range strings.Fields(because) {
			tok = strings.Trim(tok, "`()[]<>\"',.;:!?")
			if !modulePath().MatchString(tok) {
				continue
			}
			if present, known := o.Module(tok); known && !present {
				out = append(out, fmt.Sprintf("its reason names the module %s, which the project no longer requires", tok))
			}
		}
	}
	if o.Package != nil {
		for _, tok := range strings.Fields(because) {
			tok = strings.Trim(tok, "`()[]<>\"',;:!?")
			tok = strings.TrimSuffix(tok, ".")
			if !scopedPackage().MatchString(tok) {
				continue
			}
			if present, known := o.Package(tok); known && !present {
				out = append(out, fmt.Sprintf("its reason names the npm package %s, which the project's package.json no longer lists", tok))
			}
		}
	}
	if o.ReviewAfter > 0 && o.Now != nil {
		if last, ok := lastTouched(e); ok && o.Now().Sub(last) > o.ReviewAfter {
			out = append(out, fmt.Sprintf("untouched since %s, longer than checks.review_after (%s)", last.Format("2006-01-02"), days(o.ReviewAfter)))
		}
	}
	return out
}

// lastTouched is the newest date of an entry: its own, or an annotation's
// (an objection, an uphold).
func lastTouched(e tiers.Decision) (time.Time, bool) {
	var last time.Time
	dates := []string{e.Date}
	for _, m := range annotationDate().FindAllStringSubmatch(e.Raw, -1) {
		dates = append(dates, m[1])
	}
	for _, s := range dates {
		if t, err := time.Parse("2006-01-02", s); err == nil && t.After(last) {
			last = t
		}
	}
	return last, !last.IsZero()
}

func days(d time.Duration) string {
	if d%(24*time.Hour) == 0 {
		return fmt.Sprintf("%d days", d/(24*time.Hour))
	}
	return d.String()
}
