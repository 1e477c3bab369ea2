package wakeup

import (
	"encoding/json"
	"fmt"
	"math"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/wakeproto/wake/policy"
	"github.com/wakeproto/wake/tiers"
)

// Query is what a packet is built for.
type Query struct {
	Task    string
	Cwd     string
	Files   []string
	Modules []string
	Target  string // TargetClaude, TargetCodex, TargetOpenCode or TargetGeneric; "" is generic
	Profile string // ProfileProject; "" is project
}

// Check reports a target or profile the packet does not know.
func (q Query) Check() error {
	if q.Target != "" && !slices.Contains(Targets, q.Target) {
		return fmt.Errorf("target %q is not one of %s", q.Target, strings.Join(Targets, ", "))
	}
	if q.Profile != "" && q.Profile != ProfileProject {
		return fmt.Errorf("profile %q is not %s", q.Profile, ProfileProject)
	}
	return nil
}

// The memory types a document's front matter may declare, and the
// sections they are routed to (the seed's mapping).
const (
	TypePreference = "preference"
	TypeWorkflow   = "workflow"
	TypeProject    = "project"
	TypeConstraint = "constraint"
	TypeDecision   = "decision"
	TypeIncident   = "incident"
	TypePattern    = "pattern"
	TypeSession    = "session"
)

// Doc is a candidate document as the sensitivity policy admitted it.
type Doc struct {
	Path          string // relative to the root, slash-separated
	Title         string
	Summary       string // one line, scrubbed
	Body          string // scrubbed; "" when only the summary may appear (confidential) or it was not read
	MemoryType    string
	ProjectID     string
	SourceOfTruth bool
	Sensitivity   string // the policy's level
	ModTime       time.Time
	// Origin says what the candidate is when it is not a document of its
	// own (a standing directive, a decision log entry).
	Origin string
}

// LogDecision is an active entry of the decision log.
type LogDecision struct {
	Title     string
	Rationale string
	Reversal  string // the reversal condition, "" when none is known
	Ref       string // "warm/decisions.md#d-…", or with the entry's line
}

// Sources is everything the builder takes, already through the policy:
// gathered by the root package's Memory.Wakeup.
type Sources struct {
	Identity Identity
	// MainLevel is main.md's sensitivity; "" when main.md gave nothing.
	MainLevel  string
	Directives []string // main.md's Standing Directives, a bullet each
	Handoff    map[string]string
	// Tasks are the active tasks in progress, Blocked those waiting.
	Tasks, Blocked []string
	TasksLevel     string
	Decisions      []LogDecision
	DecisionsLevel string
	// Docs are the documents with a memory_type, wherever they live, and
	// the cold documents without one (candidates for recommended_notes
	// only).
	Docs []Doc
	// Suppressed and Redactions are what the policy held back and cut
	// while gathering.
	Suppressed, Redactions int
}

// Limits are the section sizes (wake.toml [wakeup]).
type Limits = tiers.Wakeup

// candidate is one thing the scoring ranks.
type candidate struct {
	doc     Doc
	score   float64
	reasons []string
	terms   map[string]int // weighted term counts
	length  int
}

// Build assembles the packet. The same sources, query, limits and clock
// give the same packet.
func Build(src Sources, q Query, lim Limits, now time.Time) Packet {
	target, profile := q.Target, q.Profile
	if target == "" {
		target = TargetGeneric
	}
	if profile == "" {
		profile = ProfileProject
	}
	p := Packet{
		Version: Version, GeneratedAt: now.UTC().Format(time.RFC3339), Target: target, Profile: profile,
		Query:            QueryInfo{Task: q.Task, Cwd: q.Cwd, Files: nonNil(q.Files), Modules: q.Modules},
		Identity:         src.Identity,
		WorkingStyle:     WorkingStyle{Items: []Item{}},
		ActiveContext:    ActiveContext{Source: tiers.MainPath, Blocked: []string{}, Items: []Item{}},
		Priorities:       []Priority{},
		Constraints:      []Constraint{},
		Decisions:        []Decision{},
		Incidents:        []Incident{},
		RecommendedNotes: []Note{},
		Provenance:       Provenance{DerivedFrom: []Derived{}, SelectionBasis: []string{}},
		Policy:           Policy{SuppressedNoteCount: src.Suppressed, RedactionsApplied: src.Redactions, PolicyMode: PolicyMode},
	}
	b := &builder{p: &p, used: map[string]Derived{}, levels: []string{}}
	qt := queryTerms(q)
	projectID := src.Identity.ProjectID

	// Every candidate is scored in one corpus, so that the term weights
	// are the same whatever section an item lands in.
	var cands []*candidate
	for _, d := range src.Docs {
		if d.MemoryType == TypeSession {
			continue // the seed: sessions only in a session-oriented packet
		}
		cands = append(cands, newCandidate(d))
	}
	var directives []*candidate
	for _, t := range src.Directives {
		c := newCandidate(Doc{Path: tiers.MainPath, Title: t, SourceOfTruth: true, Sensitivity: src.MainLevel, Origin: "standing directive of main.md"})
		directives = append(directives, c)
	}
	var decisions []*candidate
	logs := map[*candidate]LogDecision{}
	for _, d := range src.Decisions {
		c := newCandidate(Doc{Path: d.Ref, Title: d.Title, Body: d.Rationale + " " + d.Reversal, SourceOfTruth: true, Sensitivity: src.DecisionsLevel,
			Origin: "active entry of the decision log"})
		decisions = append(decisions, c)
		logs[c] = d
	}
	all := slices.Concat(cands, directives, decisions)
	score(all, qt, q.Files, projectID, now)

	// Identity and the HANDOFF: always, from main.md.
	if src.MainLevel != "" {
		b.use(tiers.MainPath, true, "", src.MainLevel)
		b.basis("identity: main.md (the project's identity)")
		h := src.Handoff
		p.ActiveContext.Updated = h[tiers.KeyUpdated]
		p.ActiveContext.SessionSummary = h[tiers.KeySessionSummary]
		p.ActiveContext.OpenRisk = h[tiers.KeyOpenRisk]
		if np := h[tiers.KeyNextPriority]; np != "" && len(p.Priorities) < lim.Priorities {
			p.Priorities = append(p.Priorities, Priority{Title: np, Source: tiers.MainPath})
			b.basis(fmt.Sprintf("priorities[%d] main.md: next_priority of the last hand-off", len(p.Priorities)-1))
		}
	}
	for _, t := range src.Tasks {
		if len(p.Priorities) >= lim.Priorities {
			break
		}
		p.Priorities = append(p.Priorities, Priority{Title: t, Source: tiers.TasksPath})
		b.use(tiers.TasksPath, false, "", src.TasksLevel)
		b.basis(fmt.Sprintf("priorities[%d] %s: in progress, in the file's order", len(p.Priorities)-1, tiers.TasksPath))
	}
	if len(src.Blocked) > 0 {
		p.ActiveContext.Blocked = src.Blocked
		b.use(tiers.TasksPath, false, "", src.TasksLevel)
		b.basis(fmt.Sprintf("active_context.blocked %s: blocked tasks", tiers.TasksPath))
	}

	rank(directives)
	rank(decisions)
	rank(cands)

	// Constraints: the standing directives and constraint notes, by score.
	var constraints []*candidate
	constraints = append(constraints, directives...)
	constraints = append(constraints, ofType(cands, TypeConstraint)...)
	rank(constraints)
	for _, c := range first(constraints, lim.Constraints) {
		summary := c.doc.Summary
		if summary == "" {
			summary = c.doc.Title
		}
		p.Constraints = append(p.Constraints, Constraint{Title: c.doc.Title, Summary: summary, Sensitivity: c.doc.Sensitivity, Source: c.doc.Path})
		b.item(fmt.Sprintf("constraints[%d]", len(p.Constraints)-1), c)
	}
	// Decisions: the log's active entries and decision notes.
	var decs []*candidate
	decs = append(decs, decisions...)
	decs = append(decs, ofType(cands, TypeDecision)...)
	rank(decs)
	for _, c := range first(decs, lim.Decisions) {
		d, fromLog := logs[c]
		if !fromLog {
			d = LogDecision{Title: c.doc.Title, Rationale: c.doc.Summary, Reversal: reversalIn(c.doc.Body), Ref: c.doc.Path}
		}
		p.Decisions = append(p.Decisions, Decision{Title: d.Title, Rationale: d.Rationale, ReversalCondition: d.Reversal, Source: d.Ref})
		b.item(fmt.Sprintf("decisions[%d]", len(p.Decisions)-1), c)
	}
	for _, c := range first(slices.Concat(ofType(cands, TypePreference), ofType(cands, TypeWorkflow)), lim.WorkingStyle) {
		p.WorkingStyle.Items = append(p.WorkingStyle.Items, itemOf(c))
		b.item(fmt.Sprintf("working_style.items[%d]", len(p.WorkingStyle.Items)-1), c)
	}
	for _, c := range first(ofType(cands, TypeProject), lim.ActiveContext) {
		p.ActiveContext.Items = append(p.ActiveContext.Items, itemOf(c))
		b.item(fmt.Sprintf("active_context.items[%d]", len(p.ActiveContext.Items)-1), c)
	}
	for _, c := range first(ofType(cands, TypeIncident), lim.Incidents) {
		consequence, prevention := incidentParts(c.doc.Body)
		summary := c.doc.Summary
		if summary == "" {
			summary = c.doc.Title
		}
		p.Incidents = append(p.Incidents, Incident{Summary: summary, Consequence: consequence, Prevention: prevention, Source: c.doc.Path})
		b.item(fmt.Sprintf("incidents[%d]", len(p.Incidents)-1), c)
	}
	// Recommended notes: pattern notes, and the best of every other
	// document the sections above did not take, when it matches the query
	// at all.
	var rec []*candidate
	for _, c := range cands {
		if b.taken[c] {
			continue
		}
		if c.doc.MemoryType == TypePattern || c.score > 0 && matched(c) {
			rec = append(rec, c)
		}
	}
	rank(rec)
	for _, c := range first(rec, lim.RecommendedNotes) {
		mt := c.doc.MemoryType
		p.RecommendedNotes = append(p.RecommendedNotes, Note{Path: c.doc.Path, Title: c.doc.Title, MemoryType: mt,
			WhyRelevant: strings.Join(c.reasons, "; "), Score: c.score})
		b.item(fmt.Sprintf("recommended_notes[%d]", len(p.RecommendedNotes)-1), c)
	}

	for _, d := range b.used {
		p.Provenance.DerivedFrom = append(p.Provenance.DerivedFrom, d)
	}
	slices.SortFunc(p.Provenance.DerivedFrom, func(a, b Derived) int { return strings.Compare(a.Path, b.Path) })
	p.Policy.MaxSensitivityIncluded = maxLevel(b.levels)
	p.Policy.RedactionsApplied += redactions(p) + b.conf
	return p
}

// redactions counts what the policy cut from what the packet shows: the
// secret-looking strings scrubbed, by their markers. (The confidential
// items shown as their summary only are counted as they are taken.)
func redactions(p Packet) int {
	data, _ := json.Marshal(p)
	return strings.Count(string(data), "[redacted:")
}

// builder records what the packet used.
type builder struct {
	p      *Packet
	used   map[string]Derived
	levels []string
	taken  map[*candidate]bool
	conf   int // confidential items: shown as their summary only
}

func (b *builder) use(p string, sot bool, memType, level string) {
	file, _, _ := strings.Cut(p, "#")
	d := b.used[file]
	d.Path = file
	d.SourceOfTruth = d.SourceOfTruth || sot
	if d.MemoryType == "" {
		d.MemoryType = memType
	}
	b.used[file] = d
	b.levels = append(b.levels, level)
}

func (b *builder) basis(s string) {
	b.p.Provenance.SelectionBasis = append(b.p.Provenance.SelectionBasis, s)
}

func (b *builder) item(slot string, c *candidate) {
	if b.taken == nil {
		b.taken = map[*candidate]bool{}
	}
	b.taken[c] = true
	if c.doc.Sensitivity == policy.Confidential {
		b.conf++
	}
	b.use(c.doc.Path, c.doc.SourceOfTruth, c.doc.MemoryType, c.doc.Sensitivity)
	b.basis(fmt.Sprintf("%s %s: %s (score %s)", slot, c.doc.Path, strings.Join(c.reasons, "; "), fmtScore(c.score)))
}

func fmtScore(f float64) string { return fmt.Sprintf("%.3f", f) }

func itemOf(c *candidate) Item {
	summary := c.doc.Summary
	if summary == "" {
		summary = c.doc.Title
	}
	return Item{Title: c.doc.Title, Summary: summary, MemoryType: c.doc.MemoryType, Sensitivity: c.doc.Sensitivity, Source: c.doc.Path}
}

func ofType(cs []*candidate, t string) []*candidate {
	var out []*candidate
	for _, c := range cs {
		if c.doc.MemoryType == t {
			out = append(out, c)
		}
	}
	return out
}

func first(cs []*candidate, n int) []*candidate {
	rank(cs)
	if len(cs) > n {
		return cs[:n]
	}
	return cs
}

// rank orders by score, highest first, ties by path and then title.
func rank(cs []*candidate) {
	slices.SortStableFunc(cs, func(a, b *candidate) int {
		switch {
		case a.score > b.score:
			return -1
		case a.score < b.score:
			return 1
		}
		if c := strings.Compare(a.doc.Path, b.doc.Path); c != 0 {
			return c
		}
		return strings.Compare(a.doc.Title, b.doc.Title)
	})
}

// matched reports whether a candidate's relevance came from the query,
// not from its boosts alone.
func matched(c *candidate) bool {
	for _, r := range c.reasons {
		if strings.HasPrefix(r, "matched ") || strings.HasPrefix(r, "mentions ") {
			return true
		}
	}
	return false
}

var levelRank = map[string]int{policy.Public: 1, policy.Internal: 2, policy.Confidential: 3, policy.Secret: 4}

func maxLevel(levels []string) string {
	best := policy.Public
	for _, l := range levels {
		if levelRank[l] > levelRank[best] {
			best = l
		}
	}
	return best
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// Scoring: BM25 over the candidates' weighted terms (title counts three
// times, summary and path twice, body once), then boosts, each with its
// reason.
const (
	bm25K1          = 1.2
	bm25B           = 0.75
	boostSourceOT   = 1.0
	boostProject    = 1.0
	boostMemoryType = 0.5
	boostRecent     = 0.5
	boostFile       = 2.0
	recentWindow    = 30 * 24 * time.Hour
)

func newCandidate(d Doc) *candidate {
	c := &candidate{doc: d, terms: map[string]int{}}
	add := func(s string, w int) {
		for _, t := range terms(s) {
			c.terms[t] += w
			c.length += w
		}
	}
	add(d.Title, 3)
	add(d.Summary, 2)
	add(strings.TrimSuffix(d.Path, path.Ext(d.Path)), 2)
	add(d.Body, 1)
	return c
}

func score(cs []*candidate, qt []string, files []string, projectID string, now time.Time) {
	if len(cs) == 0 {
		return
	}
	df := map[string]int{}
	total := 0
	for _, c := range cs {
		total += c.length
		for _, t := range qt {
			if c.terms[t] > 0 {
				df[t]++
			}
		}
	}
	avg := float64(total) / float64(len(cs))
	if avg == 0 {
		avg = 1
	}
	n := float64(len(cs))
	for _, c := range cs {
		var s float64
		var hits []string
		if c.doc.Origin != "" {
			c.reasons = append(c.reasons, c.doc.Origin)
		}
		for _, t := range qt {
			tf := float64(c.terms[t])
			if tf == 0 {
				continue
			}
			idf := math.Log(1 + (n-float64(df[t])+0.5)/(float64(df[t])+0.5))
			s += idf * tf * (bm25K1 + 1) / (tf + bm25K1*(1-bm25B+bm25B*float64(c.length)/avg))
			hits = append(hits, t)
		}
		if len(hits) > 0 {
			c.reasons = append(c.reasons, "matched "+strings.Join(hits, ", "))
		}
		text := strings.ToLower(c.doc.Path + "\n" + c.doc.Title + "\n" + c.doc.Summary + "\n" + c.doc.Body)
		for _, f := range files {
			f = strings.ToLower(path.Clean(strings.ReplaceAll(f, "\\", "/")))
			base := path.Base(f)
			if f != "." && (strings.Contains(text, f) || len(base) > 2 && strings.Contains(text, base)) {
				s += boostFile
				c.reasons = append(c.reasons, "mentions "+path.Base(f))
			}
		}
		if c.doc.SourceOfTruth {
			s += boostSourceOT
			c.reasons = append(c.reasons, "source_of_truth boosted")
		}
		if projectID != "" && strings.EqualFold(c.doc.ProjectID, projectID) {
			s += boostProject
			c.reasons = append(c.reasons, "project_id matched "+projectID)
		}
		if c.doc.MemoryType != "" {
			s += boostMemoryType
			c.reasons = append(c.reasons, "memory_type "+c.doc.MemoryType+" boosted")
		}
		if !c.doc.ModTime.IsZero() {
			if age := now.Sub(c.doc.ModTime); age >= 0 && age < recentWindow {
				s += boostRecent * (1 - float64(age)/float64(recentWindow))
				c.reasons = append(c.reasons, "modified in the last 30 days")
			}
		}
		c.score = math.Round(s*1000) / 1000
	}
}

// stopwords are left out of the query's terms.
var stopwords = map[string]bool{
	"a": true, "an": true, "and": true, "are": true, "as": true, "at": true, "be": true, "by": true, "for": true,
	"from": true, "in": true, "into": true, "is": true, "it": true, "of": true, "on": true, "or": true, "the": true,
	"to": true, "with": true, "this": true, "that": true, "not": true, "no": true, "md": true,
}

// terms splits text into lower-case words of letters and digits.
func terms(s string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127 && r != '—' && r != '–' && r != '“' && r != '”' && r != '’')
	}) {
		if len(w) > 1 && !stopwords[w] {
			out = append(out, w)
		}
	}
	return out
}

// queryTerms are the distinct terms of the task, the files' paths and the
// modules, in first-seen order.
func queryTerms(q Query) []string {
	seen := map[string]bool{}
	var out []string
	// A file's extension says nothing of its subject ("go" would match
	// every mention of go test).
	files := make([]string, len(q.Files))
	for i, f := range q.Files {
		files[i] = strings.TrimSuffix(f, path.Ext(f))
	}
	for _, s := range slices.Concat([]string{q.Task}, files, q.Modules) {
		for _, t := range terms(s) {
			if !seen[t] {
				seen[t] = true
				out = append(out, t)
			}
		}
	}
	return out
}
