package checks

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/wakeproto/wake/tiers"
)

// KindReview is the drift of a decision in force whose reasons may no
// longer hold (nostalgia): its BECAUSE names a file, a Go module, an
// option or a dependency the project no longer has, or nothing has
// touched it for
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
)

// reviewDecisions lists the decisions in force whose reasons may no longer
// hold, with why.
func reviewDecisions(m Memory, o DriftOptions) (Finding, bool) {
	d := m.Decisions
	if !d.Readable() || d.Huge {
		return Finding{}, false
	}
	var active []tiers.Decision
	for _, e := range tiers.SharedDecisions(d.Content).Entries {
		if e.Active() {
			active = append(active, e)
		}
	}
	g := gone{o: o}
	g.options(active)
	var details []string
	n := 0
	for _, e := range active {
		why := reviewReasons(e, o, &g)
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
func reviewReasons(e tiers.Decision, o DriftOptions, g *gone) []string {
	var out []string
	because := tiers.OneLine(e.Why)
	if o.Exists != nil {
		for _, p := range NamedPaths(because) {
			// A key such as `server.timeout` looks like a file name: it
			// is reviewed as an option.
			if !isConfigKey(p) && !o.Exists(p) {
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
	for _, opt := range NamedOptions(because) {
		if g.optionGone(opt) {
			out = append(out, fmt.Sprintf("its reason names the option %s, which no file of the project mentions", opt))
		}
	}
	for _, dep := range NamedDependencies(because) {
		if manifests, isGone := g.dependencyGone(dep); isGone {
			out = append(out, fmt.Sprintf("its reason names the dependency %s, which none of the project's manifests lists (%s)", dep, listed(manifests)))
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

// gone answers, for the decisions under review, which of the options and
// dependencies they name the project no longer has: the project is
// searched once for every option, and its manifests read once.
type gone struct {
	o     DriftOptions
	found map[string]bool // by spelling; nil when the search is off or incomplete
	deps  map[string]bool
	read  []string // the manifests read
	done  bool     // deps and read are set
}

// options searches the project for every option the entries name.
func (g *gone) options(entries []tiers.Decision) {
	if g.o.Mentioned == nil {
		return
	}
	var all []string
	for _, e := range entries {
		for _, opt := range NamedOptions(tiers.OneLine(e.Why)) {
			for _, s := range OptionSpellings(opt) {
				if !slices.Contains(all, s) {
					all = append(all, s)
				}
			}
		}
	}
	if len(all) == 0 {
		return
	}
	if found, known := g.o.Mentioned(all); known {
		g.found = found
		if g.found == nil {
			g.found = map[string]bool{}
		}
	}
}

// optionGone reports whether the search ran and found none of opt's
// spellings.
func (g *gone) optionGone(opt string) bool {
	if g.found == nil {
		return false
	}
	for _, s := range OptionSpellings(opt) {
		if g.found[s] {
			return false
		}
	}
	return true
}

// dependencyGone reports whether the project's manifests were read and
// none lists dep, with the manifests read.
func (g *gone) dependencyGone(dep string) ([]string, bool) {
	if g.o.Dependencies == nil {
		return nil, false
	}
	if !g.done {
		g.deps, g.read = g.o.Dependencies()
		g.done = true
	}
	if len(g.read) == 0 {
		return nil, false
	}
	return g.read, !g.deps[DependencyKey(dep)]
}

// listed names up to three manifests, then how many more.
func listed(paths []string) string {
	if len(paths) <= 3 {
		return strings.Join(paths, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(paths[:3], ", "), len(paths)-3)
}
