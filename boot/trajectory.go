package boot

import (
	"fmt"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/budget"
	"github.com/wakeproto/wake/cold"
	"github.com/wakeproto/wake/policy"
	"github.com/wakeproto/wake/store"
	"github.com/wakeproto/wake/tiers"
)

// TrajectoryTitle is the heading of the trajectory's section.
const TrajectoryTitle = "## Trajectory"

// trajectoryRead is how many session records a start reads for the
// trajectory beyond what checks.risk_sessions asks: enough for ten lines
// when the budget allows, however old the memory.
const trajectoryRead = 20

// Trajectory is where the last sessions took the project (DESIGN section
// 11): one line a session, newest first, with its next priority and open
// risk, within budget.trajectory; and the open risks of the last
// checks.risk_sessions sessions that no later session resolved. The
// sessions are read from their records: recent/ and cold/sessions/.
type Trajectory struct {
	Budget   int
	Tokens   int // exact count of Text()
	Sessions int // the sessions read
	Entries  []TrajectoryEntry
	Unlisted int
	Risks    []TrajectoryEntry // open risks, oldest first
	// Arrived are the sessions a merge of another branch brought since the
	// last hand-off, oldest first: named whether or not their lines fit.
	Arrived  []store.Arrived
	Squeezed bool

	all    []TrajectoryEntry // newest first
	older  int               // sessions of cold/sessions/ not even read
	hidden bool
	cuts   []budget.Cut
}

// TrajectoryEntry is one session as the trajectory shows it.
type TrajectoryEntry struct {
	At      time.Time
	Path    string
	Summary string
	Next    string
	Risk    string
	Held    string // secret, confidential: the policy's; then only what it allows
	// announced: the newest session, whose summary and next priority the
	// announcement gives and whose risk the HANDOFF shows (each fact once).
	announced bool
}

// addTrajectory reads the newest session records and fits their lines to
// budget.trajectory. Records that cannot be read are passed over: they
// never stop a session start.
func (c *Context) addTrajectory(o Options) {
	var recs []TrajectoryEntry
	for _, f := range c.Files() {
		if f.Path == tiers.LatestPath || f.Path == tiers.PreviousPath {
			if e, ok := trajectoryEntry(f.Path, f.doc); ok {
				recs = append(recs, e)
			}
		}
	}
	cold, older := c.coldSessions(o)
	recs = append(recs, cold...)
	arrived := store.ReadArrived(o.FS, o.Root)
	if len(recs) == 0 && len(arrived) == 0 {
		return
	}
	slices.SortStableFunc(recs, byNewest)
	// recent/ holds copies of the newest records (and an older wake's
	// summaries, which are records of their own): each session once,
	// however many sessions share its second.
	// The cold index keeps a long summary (and next, and risk) cut short,
	// the copy in recent/ whole: a copy is the same session at the same
	// time whose fields are the other's, or their opening words.
	// An empty field is the same only as an empty one: a record with no
	// risk is not a copy of one with a risk of the same second.
	same := func(a, b string) bool {
		a, b = strings.TrimRight(a, "…"), strings.TrimRight(b, "…")
		if a == "" || b == "" {
			return a == b
		}
		return strings.HasPrefix(a, b) || strings.HasPrefix(b, a)
	}
	var kept []TrajectoryEntry
	recs = slices.DeleteFunc(recs, func(e TrajectoryEntry) bool {
		for _, k := range kept {
			if k.At.Unix() == e.At.Unix() && k.Held == e.Held && same(k.Summary, e.Summary) && same(k.Next, e.Next) && same(k.Risk, e.Risk) {
				return true
			}
		}
		kept = append(kept, e)
		return false
	})
	if len(recs) > 0 && recs[0].Held == "" {
		// The announcement may give the summary whole where the line
		// would cut it: its opening words are enough to know it.
		sum := []rune(strings.TrimRight(strings.TrimSpace(recs[0].Summary), ". "))
		sum = sum[:min(len(sum), 80)]
		recs[0].announced = len(sum) >= 12 && strings.Contains(c.Announcement, string(sum))
	}
	t := &Trajectory{Budget: o.Config.Budget.Trajectory, Sessions: len(recs) + older, all: recs, older: older, Arrived: arrived}
	t.Risks = openRisks(recs, o.Config.Checks.RiskSessions)
	t.fit(t.Budget, o.Counter)
	c.Trajectory = t
}

// coldSessions are the session records of cold/sessions/, newest first,
// at most as many as the trajectory may show: from the cold index the
// table of contents just brought up to date, so that a warm start opens
// none of them; read from the files when there is no index.
func (c *Context) coldSessions(o Options) (read []TrajectoryEntry, older int) {
	most := max(trajectoryRead, o.Config.Checks.RiskSessions)
	if o.ColdIndex != nil {
		return newestIndexed(o.ColdIndex, most)
	}
	var out []TrajectoryEntry
	names, _ := afero.ReadDir(o.FS, o.Root+"/"+tiers.SessionsDir)
	for _, fi := range names {
		if fi.IsDir() || path.Ext(fi.Name()) != ".md" {
			continue
		}
		rel := tiers.SessionsDir + "/" + fi.Name()
		if d, err := tiers.ReadDoc(o.FS, o.Root, rel); err == nil {
			if e, ok := trajectoryEntry(rel, d); ok {
				out = append(out, e)
			}
		}
	}
	slices.SortFunc(out, byNewest)
	if len(out) <= most {
		return out, 0
	}
	return out[:most], len(out) - most
}

// newestIndexed is [Context.coldSessions] from the cold index: of every
// record it keeps only the most newest, each kept in order as it comes
// (the index holds one record a session, and the trajectory shows a few),
// and makes entries of those alone.
func newestIndexed(x *cold.Index, most int) (read []TrajectoryEntry, older int) {
	type found struct {
		te TrajectoryEntry
		e  *cold.Entry
	}
	var top []found // newest first, at most most
	n := 0
	for rel, e := range x.Scanned(tiers.SessionsDir) {
		if e.Binary {
			continue
		}
		at, err := time.Parse(time.RFC3339, e.Session)
		if err != nil {
			continue
		}
		n++
		f := found{TrajectoryEntry{At: at.UTC(), Path: rel}, e}
		if len(top) == most && byNewest(f.te, top[most-1].te) >= 0 {
			continue
		}
		i, _ := slices.BinarySearchFunc(top, f, func(a, b found) int { return byNewest(a.te, b.te) })
		if len(top) == most {
			top = top[:most-1]
		}
		top = slices.Insert(top, i, f)
	}
	read = make([]TrajectoryEntry, len(top))
	for i, f := range top {
		te, e := f.te, f.e
		te.Summary, te.Next, te.Risk = e.Summary, e.Next, e.Risk
		if lvl, ok := x.Level(te.Path); ok && lvl != tiers.Public && lvl != tiers.Internal {
			te.Held, te.Next, te.Risk = lvl, "", ""
			if lvl != tiers.Confidential {
				te.Summary = ""
			}
		}
		read[i] = te
	}
	return read, n - len(top)
}

// byNewest orders sessions newest first: by time, then recent/latest.md,
// recent/previous.md and the archive by name, newest name first, so that
// sessions of one second keep one order.
func byNewest(a, b TrajectoryEntry) int {
	if c := b.At.Compare(a.At); c != 0 {
		return c
	}
	rank := func(p string) int {
		switch p {
		case tiers.LatestPath:
			return 0
		case tiers.PreviousPath:
			return 1
		}
		return 2
	}
	if c := rank(a.Path) - rank(b.Path); c != 0 {
		return c
	}
	// A name taken in that second gets -2, -3, …: the higher, the newer.
	an, bn := nameNumber(a.Path), nameNumber(b.Path)
	if an != bn {
		return bn - an
	}
	return strings.Compare(b.Path, a.Path)
}

// nameNumber is the "-N" a hand-off adds to a session's name already
// taken ("<time>Z-<writer>-N", or "<time>Z-N" as older wakes named
// them), 1 without one.
func nameNumber(p string) int {
	m := recordNumber().FindStringSubmatch(path.Base(p))
	if m == nil {
		return 1
	}
	n, err := strconv.Atoi(m[1])
	if err != nil || n < 2 {
		return 1
	}
	return n
}

// recordNumber matches a session record's name that ends in "-N".
var recordNumber = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`Z(?:-[a-z][a-z0-9]{2,15})?-(\d{1,9})\.md$`)
})

// trajectoryEntry reads a session record's front matter, as the policy
// lets it appear; ok is false for a document that is no session record.
func trajectoryEntry(rel string, d tiers.Doc) (TrajectoryEntry, bool) {
	if !d.Readable() {
		return TrajectoryEntry{}, false
	}
	s, _ := tiers.ParseSession(d.Content)
	at := s.At
	if at.IsZero() {
		return TrajectoryEntry{}, false
	}
	e := TrajectoryEntry{At: at, Path: rel}
	lvl, _ := policy.OfDoc(d)
	switch lvl {
	case tiers.Secret:
		e.Held = tiers.Secret
		return e, true
	case tiers.Confidential:
		e.Held = tiers.Confidential
	}
	e.Summary, _ = policy.Scrub(tiers.OneLine(s.Summary))
	if e.Held == "" {
		e.Next, _ = policy.Scrub(tiers.OneLine(s.NextPriority))
		e.Risk, _ = policy.Scrub(tiers.OneLine(s.OpenRisk))
	}
	return e, true
}

// openRisks are the risks of the newest window sessions still open,
// oldest first: a later session that gives the same risk keeps it open
// once, and one whose risk says it is settled ("none", "resolved")
// closes every risk before it.
func openRisks(newestFirst []TrajectoryEntry, window int) []TrajectoryEntry {
	recs := newestFirst[:min(window, len(newestFirst))]
	var open []TrajectoryEntry
	for _, e := range slices.Backward(recs) {
		r := strings.ToLower(strings.Trim(e.Risk, " .!"))
		switch {
		case e.Held != "" || r == "":
			continue
		case r == "none" || r == "no" || r == "n/a" || r == "-" || strings.HasPrefix(r, "resolved") || strings.HasPrefix(r, "none "):
			open = nil
			continue
		}
		open = slices.DeleteFunc(open, func(o TrajectoryEntry) bool { return strings.EqualFold(o.Risk, e.Risk) })
		open = append(open, e)
	}
	return open
}

// fit lists as many sessions, newest first, as fit limit tokens with the
// open risks and the line counting the rest; the oldest go first.
func (t *Trajectory) fit(limit int, c budget.Counter) {
	lines := make([]string, len(t.all))
	for i, e := range t.all {
		lines[i] = trajectoryLine(e)
	}
	t.Tokens, t.hidden, t.cuts = fitNewest(c, limit, tiers.SessionsDir+"/", lines, t.moreLine, func(n int) string {
		t.Entries, t.Unlisted = t.all[:n], len(t.all)-n+t.older
		return t.Text()
	})
}

// Text renders the listed sessions, the count of the others and the open
// risks. Empty when nothing fits.
func (t *Trajectory) Text() string {
	if t.hidden {
		return ""
	}
	var b strings.Builder
	for _, e := range t.Entries {
		b.WriteString(trajectoryLine(e))
	}
	b.WriteString(t.moreLine(t.Unlisted))
	if len(t.Arrived) > 0 {
		b.WriteString("\nArrived with a merge of another branch (since the last hand-off):\n")
		for _, a := range t.Arrived {
			fmt.Fprintf(&b, "- %s: %s\n", a.At.UTC().Format("2006-01-02 15:04Z"), tiers.ShortLine(scrubbed(a.Summary)))
		}
	}
	// An open risk a listed line or the HANDOFF shows is not said again.
	var risks []TrajectoryEntry
	for _, r := range t.Risks {
		if !slices.ContainsFunc(t.Entries, func(e TrajectoryEntry) bool {
			return e.At.Equal(r.At) && e.Risk == r.Risk && (e.announced || e.Held == "")
		}) {
			risks = append(risks, r)
		}
	}
	if len(risks) > 0 {
		b.WriteString("\nOpen risks of sessions not listed above (until a later session resolves them with --risk none):\n")
		for _, r := range risks {
			fmt.Fprintf(&b, "- %s: %s\n", r.At.Format("2006-01-02"), tiers.ShortLine(r.Risk))
		}
	}
	return tiers.Printable(b.String())
}

func (t *Trajectory) moreLine(unlisted int) string {
	if unlisted == 0 {
		return ""
	}
	return fmt.Sprintf("- %s, not listed: `wake cold cold/sessions/` lists them\n", budget.Plural(unlisted, "older session"))
}

// trajectoryLine is one session: "- DATE TIME: summary. Next: … Risk: …".
func trajectoryLine(e TrajectoryEntry) string {
	var b strings.Builder
	fmt.Fprintf(&b, "- %s:", e.At.Format("2006-01-02 15:04Z"))
	switch e.Held {
	case tiers.Secret:
		b.WriteString(" (held back: secret)\n")
		return b.String()
	case tiers.Confidential:
		fmt.Fprintf(&b, " (confidential) %s\n", tiers.ShortLine(e.Summary))
		return b.String()
	}
	if e.announced {
		b.WriteString(" the last session, as announced")
		if e.Risk != "" {
			b.WriteString(" (its risk in the HANDOFF above)")
		}
		b.WriteString(".\n")
		return b.String()
	}
	fmt.Fprintf(&b, " %s", strings.TrimRight(tiers.ShortLine(e.Summary), "."))
	if e.Next != "" {
		fmt.Fprintf(&b, ". Next: %s", strings.TrimRight(tiers.ShortLine(e.Next), "."))
	}
	if e.Risk != "" {
		fmt.Fprintf(&b, ". Risk: %s", strings.TrimRight(tiers.ShortLine(e.Risk), "."))
	}
	b.WriteString(".\n")
	return b.String()
}

// writeTrajectory renders the trajectory's section. Listed or not, its
// open risks are never left out unsaid.
func writeTrajectory(b *strings.Builder, c *Context) {
	t := c.Trajectory
	if t == nil {
		return
	}
	what := budget.Plural(t.Sessions, "session")
	if len(t.Risks) > 0 {
		what += " and " + budget.Plural(len(t.Risks), "open risk")
	}
	writeListSection(b, TrajectoryTitle, t.Text(), t.Squeezed, what, "budget.trajectory", "`wake cold cold/sessions/` lists them")
}

// scrubbed is a text as the policy lets it appear.
func scrubbed(s string) string {
	out, _ := policy.Scrub(s)
	return out
}
