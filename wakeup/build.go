package wakeup

import (
	"encoding/json"
	"fmt"
	"math"
	"path"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

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
	Profile string // ProfileProject or ProfileDeveloper; "" is project
}

// Check reports a target or profile the packet does not know.
func (q Query) Check() error {
	if q.Target != "" && !slices.Contains(Targets, q.Target) {
		return fmt.Errorf("target %q is not one of %s", q.Target, strings.Join(Targets, ", "))
	}
	if q.Profile != "" && q.Profile != ProfileProject && q.Profile != ProfileDeveloper {
		return fmt.Errorf("profile %q is not %s or %s", q.Profile, ProfileProject, ProfileDeveloper)
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
	// Unread marks a document whose body may be shown but was not read:
	// Build reads it through Sources.ReadBody when it ranks near the top.
	Unread bool
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
	// IdentityLevel is the sensitivity of the identity's source, and
	// IdentityBasis why it is the identity.
	IdentityLevel, IdentityBasis string
	// MainLevel is main.md's sensitivity; "" when main.md gave nothing.
	MainLevel  string
	Directives []string          // main.md's Standing Directives, a bullet each
	Handoff    map[string]string // nil: none in the packet
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
	// ReadBody reads the body of a document marked Unread, as the policy
	// admits it now: its level, and the body scrubbed ("" unless public
	// or internal); an error when it cannot be read (the document is then
	// used as listed). nil when every body is in Docs already.
	ReadBody func(path string) (level, body string, err error)
}

// Limits are the section sizes (wake.toml [wakeup]).
type Limits = tiers.Wakeup

// candidate is one thing the scoring ranks.
type candidate struct {
	doc      Doc
	score    float64
	tf       []int // weighted counts of the query's terms
	length   int   // weighted count of all its terms
	matched  bool  // a query term or file matched, not only boosts
	mentions []string
	reasons  []string // by explain, once taken
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
	sc := newScorer(q, src.Identity.ProjectID, now)
	b.sc = sc

	// Every candidate is scored in one corpus, so that the term weights
	// are the same whatever section an item lands in.
	// One allocation for the documents' candidates and their counts.
	slab := make([]candidate, len(src.Docs))
	tfs := make([]int, len(src.Docs)*len(sc.qt))
	cands := make([]*candidate, 0, len(src.Docs))
	for i, d := range src.Docs {
		if d.MemoryType == TypeSession {
			continue // the seed: sessions only in a session-oriented packet
		}
		c := &slab[i]
		c.doc, c.tf = d, tfs[i*len(sc.qt):(i+1)*len(sc.qt):(i+1)*len(sc.qt)]
		c.count(sc.qi)
		cands = append(cands, c)
	}
	var directives []*candidate
	for _, t := range src.Directives {
		c := newCandidate(Doc{Path: tiers.MainPath, Title: t, SourceOfTruth: true, Sensitivity: src.MainLevel, Origin: "standing directive of main.md"}, sc.qi)
		directives = append(directives, c)
	}
	var decisions []*candidate
	logs := map[*candidate]LogDecision{}
	for _, d := range src.Decisions {
		c := newCandidate(Doc{Path: d.Ref, Title: d.Title, Body: d.Rationale + " " + d.Reversal, SourceOfTruth: true, Sensitivity: src.DecisionsLevel,
			Origin: "active entry of the decision log"}, sc.qi)
		decisions = append(decisions, c)
		logs[c] = d
	}
	all := slices.Concat(cands, directives, decisions)
	sc.score(all)
	if src.ReadBody != nil {
		var dropped int
		cands, dropped = readBodies(cands, src.ReadBody, lim, sc.qi)
		p.Policy.SuppressedNoteCount += dropped
		sc.score(slices.Concat(cands, directives, decisions))
	}
	var weak int
	cands, weak = strongConfidential(cands, len(sc.qt))
	p.Policy.SuppressedNoteCount += weak

	// Identity, and the HANDOFF of main.md.
	if id := src.Identity.Source; id != "" {
		b.use(id, true, "", src.IdentityLevel)
		b.basis("identity: " + id + " (" + src.IdentityBasis + ")")
	}
	if h := src.Handoff; h != nil {
		b.use(tiers.MainPath, true, "", src.MainLevel)
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
		if c.doc.MemoryType == TypePattern || c.matched {
			rec = append(rec, c)
		}
	}
	rank(rec)
	for _, c := range first(rec, lim.RecommendedNotes) {
		mt := c.doc.MemoryType
		b.item(fmt.Sprintf("recommended_notes[%d]", len(p.RecommendedNotes)), c)
		p.RecommendedNotes = append(p.RecommendedNotes, Note{Path: c.doc.Path, Title: c.doc.Title, MemoryType: mt,
			WhyRelevant: strings.Join(c.reasons, "; "), Score: c.score})
	}

	for _, d := range b.used {
		p.Provenance.DerivedFrom = append(p.Provenance.DerivedFrom, d)
	}
	slices.SortFunc(p.Provenance.DerivedFrom, func(a, b Derived) int { return strings.Compare(a.Path, b.Path) })
	p.Policy.MaxSensitivityIncluded = maxLevel(b.levels)
	p.Policy.RedactionsApplied += redactions(p) + b.conf
	// Sources scrub what they read, but not every source is wake's own
	// (a note anywhere in the root, a developer root, the query): the
	// packet is scrubbed whole once assembled, and what that finds counts
	// too.
	p.Policy.RedactionsApplied += scrubPacket(&p)
	return p
}

// strongConfidential keeps a confidential candidate only when it is
// strongly relevant to the query (the seed: "include only if strongly
// relevant"), and returns how many it dropped. Strongly relevant is
// deterministic: the document mentions one of the query's files, or its
// title, summary and path match at least half of the query's distinct
// terms (rounded up). With no task and no files nothing is strongly
// relevant, so no confidential note is promoted. A confidential document
// is never read whole, so only what its index entry shows is matched.
func strongConfidential(cands []*candidate, queryTerms int) ([]*candidate, int) {
	out := cands[:0:0]
	dropped := 0
	for _, c := range cands {
		if c.doc.Sensitivity == policy.Confidential && !strong(c, queryTerms) {
			dropped++
			continue
		}
		out = append(out, c)
	}
	return out, dropped
}

// strong reports whether c is strongly relevant to a query of n terms.
func strong(c *candidate, n int) bool {
	if len(c.mentions) > 0 {
		return true
	}
	hits := 0
	for _, tf := range c.tf {
		if tf > 0 {
			hits++
		}
	}
	return n > 0 && hits > 0 && hits >= (n+1)/2
}

// redactions counts what the policy cut from what the packet shows: the
// secret-looking strings the sources scrubbed, by their markers. (The
// confidential items shown as their summary only are counted as they are
// taken.)
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
	sc     *scorer
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
	c.reasons = b.sc.explain(c)
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

// newCandidate counts the query's terms in d's fields, weighted.
func newCandidate(d Doc, qi map[string]int) *candidate {
	c := &candidate{doc: d, tf: make([]int, len(qi))}
	c.count(qi)
	return c
}

func (c *candidate) count(qi map[string]int) {
	clear(c.tf)
	c.length = 0
	var buf []byte
	add := func(s string, w int) {
		// Stopwords count in the length (they are never query terms).
		buf = eachWord(s, buf, func(t []byte) {
			c.length += w
			if i, ok := qi[string(t)]; ok {
				c.tf[i] += w
			}
		})
	}
	add(c.doc.Title, 3)
	add(c.doc.Summary, 2)
	add(strings.TrimSuffix(c.doc.Path, path.Ext(c.doc.Path)), 2)
	add(c.doc.Body, 1)
}

// eachTerm calls fn with each term of s as terms finds them, lower-cased
// in buf (reused, and returned for the next call).
func eachTerm(s string, buf []byte, fn func([]byte)) []byte {
	return eachWord(s, buf, func(t []byte) {
		if !stopwords[string(t)] {
			fn(t)
		}
	})
}

// eachWord is eachTerm with the stopwords.
func eachWord(s string, buf []byte, fn func([]byte)) []byte {
	flush := func() {
		if len(buf) > 1 {
			fn(buf)
		}
		buf = buf[:0]
	}
	for i := 0; i < len(s); {
		b := s[i]
		if b < utf8.RuneSelf {
			switch {
			case b >= 'a' && b <= 'z' || b >= '0' && b <= '9':
				buf = append(buf, b)
			case b >= 'A' && b <= 'Z':
				buf = append(buf, b+'a'-'A')
			default:
				flush()
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if inWord(r) {
			buf = utf8.AppendRune(buf, unicode.ToLower(r))
		} else {
			flush()
		}
		i += n
	}
	flush()
	return buf
}

func inWord(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127 && r != '—' && r != '–' && r != '“' && r != '”' && r != '’' ||
		r >= 'A' && r <= 'Z'
}

// scorer holds what scoring needs of the query.
type scorer struct {
	qt        []string
	qi        map[string]int
	files     []string // lower case, slash-separated
	projectID string
	now       time.Time
}

func newScorer(q Query, projectID string, now time.Time) *scorer {
	sc := &scorer{qt: queryTerms(q), qi: map[string]int{}, projectID: projectID, now: now}
	for i, t := range sc.qt {
		sc.qi[t] = i
	}
	for _, f := range q.Files {
		f = strings.ToLower(path.Clean(strings.ReplaceAll(f, "\\", "/")))
		if f != "." {
			sc.files = append(sc.files, f)
		}
	}
	return sc
}

// score scores every candidate against the query, in one corpus, so
// that the term weights are the same whatever section an item lands in.
// Reasons are written when an item is taken ([candidate.explain]).
func (sc *scorer) score(cs []*candidate) {
	if len(cs) == 0 {
		return
	}
	df := make([]int, len(sc.qt))
	total := 0
	for _, c := range cs {
		total += c.length
		for i, tf := range c.tf {
			if tf > 0 {
				df[i]++
			}
		}
	}
	avg := float64(total) / float64(len(cs))
	if avg == 0 {
		avg = 1
	}
	n := float64(len(cs))
	idf := make([]float64, len(sc.qt))
	for i := range idf {
		idf[i] = math.Log(1 + (n-float64(df[i])+0.5)/(float64(df[i])+0.5))
	}
	for _, c := range cs {
		var s float64
		c.matched = false
		for i, tf := range c.tf {
			if tf == 0 {
				continue
			}
			f := float64(tf)
			s += idf[i] * f * (bm25K1 + 1) / (f + bm25K1*(1-bm25B+bm25B*float64(c.length)/avg))
			c.matched = true
		}
		c.mentions = c.mentions[:0]
		for _, f := range sc.files {
			base := path.Base(f)
			if sc.mentions(c.doc, f) || len(base) > 2 && sc.mentions(c.doc, base) {
				s += boostFile
				c.mentions = append(c.mentions, base)
				c.matched = true
			}
		}
		if c.doc.SourceOfTruth {
			s += boostSourceOT
		}
		if sc.projectMatch(c) {
			s += boostProject
		}
		if c.doc.MemoryType != "" {
			s += boostMemoryType
		}
		if sc.recent(c) {
			s += boostRecent * (1 - float64(sc.now.Sub(c.doc.ModTime))/float64(recentWindow))
		}
		c.score = math.Round(s*1000) / 1000
	}
}

func (sc *scorer) projectMatch(c *candidate) bool {
	return sc.projectID != "" && strings.EqualFold(c.doc.ProjectID, sc.projectID)
}

func (sc *scorer) recent(c *candidate) bool {
	if c.doc.ModTime.IsZero() {
		return false
	}
	age := sc.now.Sub(c.doc.ModTime)
	return age >= 0 && age < recentWindow
}

// mentions reports whether any of d's fields holds sub, ignoring case.
func (sc *scorer) mentions(d Doc, sub string) bool {
	for _, s := range [...]string{d.Path, d.Title, d.Summary, d.Body} {
		if containsFold(s, sub) {
			return true
		}
	}
	return false
}

// containsFold is strings.Contains ignoring ASCII case; sub is lower case.
func containsFold(s, sub string) bool {
	n := len(sub)
	if n == 0 {
		return true
	}
	first := sub[0]
	for i := 0; i+n <= len(s); i++ {
		b := s[i]
		if b >= 'A' && b <= 'Z' {
			b += 'a' - 'A'
		}
		if b == first && strings.EqualFold(s[i:i+n], sub) {
			return true
		}
	}
	return false
}

// explain writes the candidate's reasons, in a fixed order.
func (sc *scorer) explain(c *candidate) []string {
	var r []string
	if c.doc.Origin != "" {
		r = append(r, c.doc.Origin)
	}
	var hits []string
	for i, tf := range c.tf {
		if tf > 0 {
			hits = append(hits, sc.qt[i])
		}
	}
	if len(hits) > 0 {
		r = append(r, "matched "+strings.Join(hits, ", "))
	}
	for _, m := range c.mentions {
		r = append(r, "mentions "+m)
	}
	if c.doc.SourceOfTruth {
		r = append(r, "source_of_truth boosted")
	}
	if sc.projectMatch(c) {
		r = append(r, "project_id matched "+sc.projectID)
	}
	if c.doc.MemoryType != "" {
		r = append(r, "memory_type "+c.doc.MemoryType+" boosted")
	}
	if sc.recent(c) {
		r = append(r, "modified in the last 30 days")
	}
	return r
}

// stopwords are left out of the query's terms.
var stopwords = map[string]bool{
	"a": true, "an": true, "and": true, "are": true, "as": true, "at": true, "be": true, "by": true, "for": true,
	"from": true, "in": true, "into": true, "is": true, "it": true, "of": true, "on": true, "or": true, "the": true,
	"to": true, "with": true, "this": true, "that": true, "not": true, "no": true, "md": true,
}

// terms splits text into lower-case words of letters and digits of two
// characters or more, stopwords left out.
func terms(s string) []string {
	var out []string
	eachTerm(s, nil, func(t []byte) { out = append(out, string(t)) })
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

// bodyReads is how many unread documents of a memory type, per item its
// section keeps, are read whole and rescored: the first stage ranks on
// what the cold index holds (title, summary, path, front matter), the
// second adds the bodies of the best.
const bodyReads = 3

// readBodies reads the bodies of the best-ranked unread candidates of each
// memory type, and rescores them; it drops those the policy now holds
// back and returns how many.
func readBodies(cands []*candidate, read func(string) (string, string, error), lim Limits, qi map[string]int) ([]*candidate, int) {
	limits := map[string]int{TypePreference: lim.WorkingStyle, TypeWorkflow: lim.WorkingStyle, TypeProject: lim.ActiveContext,
		TypeConstraint: lim.Constraints, TypeDecision: lim.Decisions, TypeIncident: lim.Incidents, TypePattern: lim.RecommendedNotes}
	var unread []*candidate
	for _, c := range cands {
		if c.doc.Unread {
			unread = append(unread, c)
		}
	}
	rank(unread)
	want := map[*candidate]bool{}
	seen := map[string]int{}
	for _, c := range unread {
		if seen[c.doc.MemoryType] < bodyReads*limits[c.doc.MemoryType] {
			seen[c.doc.MemoryType]++
			want[c] = true
		}
	}
	dropped := 0
	out := cands[:0:0]
	for _, c := range cands {
		if want[c] {
			level, body, err := read(c.doc.Path)
			switch {
			case err != nil:
				// Listed from the index, unreadable now: shown as listed
				// (the reader warned).
			case level == policy.Secret:
				dropped++
				continue
			case level == policy.Confidential:
				c.doc.Sensitivity = level
			default:
				c.doc.Body = body
				c.count(qi)
			}
			c.doc.Unread = false
		}
		out = append(out, c)
	}
	return out, dropped
}
