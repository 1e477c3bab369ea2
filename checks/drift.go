package checks

import (
	"fmt"
	"path"
	"regexp"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/wakeproto/wake/tiers"
)

// Drift is the group of findings beyond the four checks: signs that the
// memory has drifted from the project or from the protocol. They are
// warnings, never failures.
const Drift = "drift"

// The kinds of drift, each a field of its own in `wake check --format json`.
const (
	KindMissingPath  = "missing_path"  // a file path named in the memory that the project lacks
	KindStale        = "stale_handoff" // a HANDOFF older than checks.stale_after
	KindPlaceholder  = "placeholder"   // a hand-off field left as TBD, TODO, ... or empty
	KindOverBudget   = "over_budget"   // a warm file cut to fit for several sessions running
	maxMissingListed = 10
)

// DriftOptions are what the drift findings need beyond the documents.
type DriftOptions struct {
	// Exists reports whether a slash-separated path relative to the project
	// (or, for the memory's own files, the root) exists; nil skips the
	// path check, as when the project directory is not known.
	Exists func(rel string) bool
	// OverBudget counts, for each warm file, the sessions running in which
	// it had to be cut to fit its budget; Sessions is how many make it
	// drift (checks.over_budget_sessions).
	OverBudget map[string]int
	Sessions   int
	// Module reports whether the project requires a Go module path (or
	// one it is inside of); known is false when the project has no
	// go.mod. nil skips the check ([KindReview]).
	Module func(path string) (present, known bool)
	// Mentioned reports, for each lower-case string, whether the
	// project's files (outside the memory root) hold it, case aside;
	// known is false when they cannot all be searched. nil skips the
	// options named in decisions ([KindReview], [NamedOptions]).
	Mentioned func(spellings []string) (found map[string]bool, known bool)
	// Dependencies are the dependencies the project's manifests list
	// (each as [DependencyKey]) and the manifests read, relative to the
	// project; none read (or one unreadable) skips the dependencies named
	// in decisions. nil skips them too ([NamedDependencies]).
	Dependencies func() (names map[string]bool, manifests []string)
	// ReviewAfter is how long a decision in force may go untouched before
	// it is listed for review (checks.review_after); 0, or a nil Now,
	// never lists one for its age.
	ReviewAfter time.Duration
	Now         func() time.Time
}

// CheckDrift returns the drift findings on m: paths named in the warm files
// and the last session that do not exist, placeholder hand-off fields, and
// warm files over their budget for more than Sessions sessions. (A stale
// HANDOFF is found by [CheckContinuity], as a warning of kind
// KindStale.)
func CheckDrift(m Memory, o DriftOptions) []Finding {
	var out []Finding
	if o.Exists != nil {
		for _, d := range []tiers.Doc{m.Tasks, m.Decisions, m.Questions, m.Latest} {
			if f, ok := missingPaths(d, o.Exists); ok {
				out = append(out, f)
			}
		}
	}
	out = append(out, placeholders(m)...)
	if f, ok := reviewDecisions(m, o); ok {
		out = append(out, f)
	}
	paths := make([]string, 0, len(o.OverBudget))
	for p := range o.OverBudget {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		if n := o.OverBudget[p]; o.Sessions > 0 && n > o.Sessions {
			out = append(out, Finding{Check: Drift, Kind: KindOverBudget, Pass: true, Severity: Warning, Path: p,
				Message: fmt.Sprintf("%s has been cut to fit its budget for %d sessions running (checks.over_budget_sessions is %d): compress it, or move what is settled to cold/", p, n, o.Sessions)})
		}
	}
	return out
}

// filePath is a file path as memory files name them: slash-separated
// words ending in a file name with an extension that has a letter in it
// ("report/vat.go", not "3.5/4.0"). A file name alone ("main.go") counts
// only between backticks: in prose it is too often something else
// ("Node.js").
var (
	filePath = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(?:\.{1,2}/)?[\w.-]+(?:/[\w.-]+)*\.[A-Za-z0-9]*[A-Za-z][A-Za-z0-9]*$`)
	})
	codeSpan = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile("`([^`\\s]+)`") })
)

// NamedPaths returns the file paths text names, each once, in order of
// first mention: slash-separated paths, and file names between backticks.
// URLs, globs and absolute, home or parent paths are not the project's
// files and are left out.
func NamedPaths(text string) []string {
	seen := map[string]bool{}
	var out []string
	add := func(p string, bare bool) {
		p = strings.TrimPrefix(p, "./")
		switch {
		// The cheap tests first: most words of prose have no "/".
		case p == "" || bare && !strings.Contains(p, "/") || seen[p] || !filePath().MatchString(p):
		case strings.HasPrefix(p, "../") || path.Clean(p) != p || strings.ContainsAny(p, "*?{}$@#~"):
		default:
			seen[p] = true
			out = append(out, p)
		}
	}
	for _, l := range strings.Split(text, "\n") {
		if strings.IndexByte(l, '`') >= 0 {
			for _, m := range codeSpan().FindAllStringSubmatch(l, -1) {
				add(m[1], false)
			}
			l = codeSpan().ReplaceAllString(l, " ")
		}
		for _, tok := range strings.Fields(l) {
			// A word outside backticks names a path only with a "/" in
			// it, which trimming its punctuation keeps.
			if strings.IndexByte(tok, '/') < 0 || strings.Contains(tok, "://") || strings.Contains(tok, "@") {
				continue
			}
			add(strings.TrimRight(strings.TrimLeft(tok, "([<\"'"), ")]>\"',.;:!?"), true)
		}
	}
	return out
}

// missingPaths is the finding on d's named paths that do not exist.
func missingPaths(d tiers.Doc, exists func(string) bool) (Finding, bool) {
	if !d.Readable() {
		return Finding{}, false
	}
	_, body, ok := tiers.SplitFrontMatter(d.Content)
	if !ok {
		body = d.Content
	}
	text := tiers.StripComments(string(body))
	toMake := toBeMade(text)
	var missing []string
	for _, p := range NamedPaths(text) {
		if !exists(p) && !toMake[p] {
			missing = append(missing, p)
		}
	}
	if len(missing) == 0 {
		return Finding{}, false
	}
	details := missing
	if len(details) > maxMissingListed {
		details = append(details[:maxMissingListed:maxMissingListed], fmt.Sprintf("and %d more", len(missing)-maxMissingListed))
	}
	return Finding{Check: Drift, Kind: KindMissingPath, Pass: true, Severity: Warning, Path: d.Path, Details: details,
		Message: fmt.Sprintf("%s names %d file path(s) the project does not have: renamed, deleted, or never made", d.Path, len(missing))}, true
}

// makeWords are the words by which a task says that what it names is
// still to be made: "create X", "write X", "add X", "X (new)", "X, to be
// created". Past forms ("added", "wrote") say it exists and do not count.
var makeWords = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)(?:^|[^\w-])(?:create|write|add|new|scaffold|to be (?:created|written|added|made))(?:$|[^\w-])`)
})

// toBeMade is the set of paths that the open tasks of text say are still
// to be made: a file a task plans is not drift until the task is done.
func toBeMade(text string) map[string]bool {
	out := map[string]bool{}
	for _, l := range tiers.Lines(text) {
		if l.InFence {
			continue
		}
		item, box, _, ok := listItem(l.Text)
		if !ok || box == "x" || box == "X" || !makeWords().MatchString(item) {
			continue
		}
		for _, p := range NamedPaths(item) {
			out[p] = true
		}
	}
	return out
}

// placeholderValue matches a value that holds the place of one: "TBD",
// "TODO", "...", "?", "n/a", "-".
var placeholderValue = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)^(?:tbd|todo|fixme|xxx|\.{2,}|…|\?+|-+|n/?a|none yet|to do)\.?$`)
})

// placeholders finds hand-off fields left as placeholders: in the HANDOFF
// block of main.md (once a hand-off has written it: the template's empty
// fields are a first wake, not drift) and in recent/latest.md's front
// matter.
func placeholders(m Memory) []Finding {
	var out []Finding
	h := handoffOf(m)
	if h.Present && h.Get(tiers.KeyUpdated) != "" {
		var bad []string
		for _, k := range []string{tiers.KeySessionSummary, tiers.KeyNextPriority, tiers.KeyOpenRisk, tiers.KeyEmotionalRegister} {
			v, ok := h.Fields[k]
			switch {
			case ok && placeholderValue().MatchString(strings.TrimSpace(v)):
				bad = append(bad, fmt.Sprintf("%s: %s", k, v))
			case (k == tiers.KeySessionSummary || k == tiers.KeyNextPriority) && strings.TrimSpace(v) == "":
				bad = append(bad, k+" is empty")
			}
		}
		if len(bad) > 0 {
			out = append(out, Finding{Check: Drift, Kind: KindPlaceholder, Pass: true, Severity: Warning, Path: tiers.MainPath, Details: bad,
				Message: "the HANDOFF block holds placeholders, not a hand-off: the next instance learns nothing from them"})
		}
	}
	if m.Latest.Readable() {
		if s := strings.TrimSpace(m.Latest.Meta.Summary); s != "" && placeholderValue().MatchString(s) {
			out = append(out, Finding{Check: Drift, Kind: KindPlaceholder, Pass: true, Severity: Warning, Path: tiers.LatestPath, Details: []string{"summary: " + s},
				Message: "the last session's summary is a placeholder"})
		}
	}
	return out
}
