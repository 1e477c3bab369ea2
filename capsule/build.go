package capsule

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/wakeproto/wake/budget"
	"github.com/wakeproto/wake/policy"
	"github.com/wakeproto/wake/tiers"
)

// Sources are what a capsule is built from, read from the memory as the
// sensitivity policy admits it (the caller's part: a secret document gives
// nothing, a confidential one its summary only, in Held). [Build] scrubs
// every text again all the same.
type Sources struct {
	Handoff Handoff
	// Successor is the last session summary's "For my successor".
	Successor string
	// Threads are the last session summary's open threads.
	Threads []string
	// Changed are the last session summary's "What changed (files)".
	Changed   []string
	Decisions []Decision // the decisions in force, in file order
	Tasks     []Task     // the open items of warm/active_tasks.md, in file order
	Questions []string   // the open questions, in file order
	Files     []string   // files git lists as changed since the last hand-off
	Commits   []string   // commits since the last hand-off, newest first: "abc1234 subject"
	// Highlights are a transcript's, in order; Build keeps the last
	// [MaxHighlights].
	Highlights []Highlight
	Reminders  []Reminder // the inbox's open reminders, in file order
	// Held are notes on documents the policy held back in part: a
	// confidential document's summary.
	Held []string
}

// Handoff holds the HANDOFF block's fields.
type Handoff struct {
	Updated, Summary, Next, Risk, Register string
}

// Decision is a decision in force.
type Decision struct {
	Date, What, Why string
	Contested       bool
	Objection       string
	Ref             string // where it is: "warm/decisions.md#…"
}

// Task is an open item of the active tasks.
type Task struct {
	Text    string
	Group   string // its section's title
	Blocked bool
}

// Highlight is a moment of a transcript: a prompt of the user's or the
// agent's last message.
type Highlight struct {
	At   time.Time // zero when the transcript recorded no time
	Who  string    // "user" or "agent"
	Text string
}

// Reminder is an open reminder of the inbox.
type Reminder struct {
	N                 int
	At                time.Time
	Text, Topic, Next string
	// Hypothesis and Missing are an exploratory thread's current
	// hypothesis and the evidence still missing for it.
	Hypothesis, Missing string
	Tags                []string
}

// MaxHighlights is the most transcript highlights a capsule keeps.
const MaxHighlights = 5

// The priorities of the items: the fitter cuts the lowest first and,
// among equals, the last first; each section lists its items newest or
// most pressing first, so what goes first is the oldest and least
// pressing of the least important kind.
const (
	prioHighlight = 30
	prioHeld      = 40
	prioFile      = 42
	prioCommit    = 44
	prioChanged   = 45
	prioRegister  = 50
	prioQuestion  = 52
	prioReminder  = 55
	prioThread    = 62
	prioTask      = 64
	prioDecision  = 70
	prioSuccessor = 75
	prioContested = 78
	prioBlocked   = 80
	prioRisk      = 90
	prioStatus    = 95
)

// item is one bullet of a section with its priority.
type item struct {
	section  int // index in Outline
	text     string
	prio     int
	reminder int // the inbox number it shows; 0 for none
}

// Options are what Build needs besides the sources.
type Options struct {
	Front   FrontMatter // the front matter; TokenBudget is the body's budget
	Path    string      // where the capsule goes, for the cut records
	Ceiling int         // capsule.prompt_ceiling: a warning past 80% of it
	Counter budget.Counter
}

// Built is a capsule as Build made it.
type Built struct {
	Capsule  Capsule
	Data     []byte // Render(Capsule)
	Tokens   int    // the body's exact size
	Cuts     []budget.Cut
	Consumed []int // the reminders the kept body shows
	Warnings []string
}

// Build fills a capsule from src and fits its body to the front matter's
// token_budget, counted exactly: the fitter cuts whole items bottom-up,
// the least important kinds first (see the priorities above), keeping the
// headings, the objective, the HANDOFF's status and risk longest. A
// section that lost items says how many. The same sources and options
// give the same capsule.
func Build(src Sources, o Options) Built {
	fm := o.Front
	// The objective is never cut by the fitter: like every item it keeps
	// at most maxItem characters, so that the body still fits.
	fm.PrimaryObjective = short(fm.PrimaryObjective)
	fm.SourceSession = short(fm.SourceSession)
	items := itemsOf(src, fm.PrimaryObjective)
	pieces := make([]budget.Piece, len(items))
	for i, it := range items {
		p := it.prio
		if p == 0 {
			p = budget.Keep
		}
		pieces[i] = budget.Piece{Text: it.text + "\n", What: tiers.ShortLine(it.text), Where: budget.Where(o.Path, Outline[it.section]), Priority: p}
	}
	f := &budget.Fitter{Counter: o.Counter, Limit: fm.TokenBudget, Pieces: pieces}
	body := func() string { return renderBody(items, f.IsCut) }
	f.Measure = func() int { return o.Counter.Count(body()) }
	var b Built
	b.Tokens = f.Fit()
	c := New(fm)
	secs := sectionsOf(items, f.IsCut)
	for i := range c.Sections {
		c.Sections[i].Body = secs[i]
	}
	b.Capsule = c
	b.Data = Render(c)
	b.Cuts = f.Cuts()
	for i, it := range items {
		if it.reminder > 0 && !f.IsCut(i) {
			b.Consumed = append(b.Consumed, it.reminder)
		}
	}
	slices.Sort(b.Consumed)
	if b.Tokens > fm.TokenBudget {
		b.Warnings = append(b.Warnings, fmt.Sprintf("the capsule's body is %d tokens, over capsule.max_tokens (%d), with everything that may be cut cut",
			b.Tokens, fm.TokenBudget))
	}
	if o.Ceiling > 0 && b.Tokens*5 > o.Ceiling*4 {
		b.Warnings = append(b.Warnings, fmt.Sprintf("the capsule's body is %d tokens, past 80%% of capsule.prompt_ceiling (%d): a subagent's prompt may not hold it with its task",
			b.Tokens, o.Ceiling))
	}
	return b
}

// renderBody is the body with the items not cut, as Render writes it.
func renderBody(items []item, cut func(int) bool) string {
	var b strings.Builder
	for i, s := range sectionsOf(items, cut) {
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString(RenderSection(Section{Title: Outline[i], Body: s}))
	}
	return b.String()
}

// sectionsOf gives each section's body: its items not cut, and a line
// saying how many were cut.
func sectionsOf(items []item, cut func(int) bool) []string {
	kept := make([][]string, len(Outline))
	lost := make([]int, len(Outline))
	for i, it := range items {
		if cut(i) {
			lost[it.section]++
			continue
		}
		kept[it.section] = append(kept[it.section], it.text)
	}
	out := make([]string, len(Outline))
	for i := range out {
		lines := kept[i]
		if lost[i] > 0 {
			lines = append(lines, fmt.Sprintf("- _%s cut to fit capsule.max_tokens._", budget.Plural(lost[i], "more item")))
		}
		out[i] = strings.Join(lines, "\n")
	}
	return out
}

// clean makes s one line of printable characters (a hand-edited memory
// may hold terminal escapes), scrubbed of secret-looking strings, with
// "<!--" written "&lt;!--": a text's own would open an HTML comment that
// hides the rest of the capsule from a Markdown viewer and from verify.
func clean(s string) string {
	s, _ = policy.Scrub(tiers.OneLine(tiers.Printable(s)))
	return strings.ReplaceAll(s, "<!--", "&lt;!--")
}

// maxItem is the most characters an item's text keeps.
const maxItem = 400

// short is s cleaned and cut to maxItem characters.
func short(s string) string {
	s = clean(s)
	if r := []rune(s); len(r) > maxItem {
		s = strings.TrimSpace(string(r[:maxItem-1])) + "…"
	}
	return s
}

// itemsOf lays out the items of every section in Outline order, each
// section's most pressing first.
func itemsOf(src Sources, objective string) []item {
	var items []item
	add := func(sec int, prio int, format string, args ...any) {
		items = append(items, item{section: sec, prio: prio, text: fmt.Sprintf(format, args...)})
	}
	// Mission Snapshot.
	add(0, 0, "- **Objective:** %s", objective)
	h := src.Handoff
	if s := short(h.Summary); s != "" {
		if u := clean(h.Updated); u != "" {
			add(0, prioStatus, "- **Status** (handed off %s): %s", u, s)
		} else {
			add(0, prioStatus, "- **Status:** %s", s)
		}
	}
	if s := short(h.Next); s != "" && s != objective {
		add(0, prioStatus, "- **Next:** %s", s)
	}
	if s := short(src.Successor); s != "" {
		add(0, prioSuccessor, "- **For the successor:** %s", s)
	}
	if s := short(h.Register); s != "" {
		add(0, prioRegister, "- **Register:** %s", s)
	}
	// Key Decisions & Rationale: newest first.
	decs := slices.Clone(src.Decisions)
	slices.Reverse(decs) // the log appends: later in the file is newer
	slices.SortStableFunc(decs, func(a, b Decision) int { return cmp.Compare(b.Date, a.Date) })
	for _, d := range decs {
		text := fmt.Sprintf("- [%s] %s", clean(d.Date), short(d.What))
		if why := short(d.Why); why != "" {
			text += " **Because:** " + why
		}
		prio := prioDecision
		if d.Contested {
			text += " **Contested**"
			prio = prioContested
		}
		if d.Ref != "" {
			text += " (`" + clean(d.Ref) + "`)"
		}
		add(1, prio, "%s", text)
	}
	// Active Workstreams: the last session's open threads.
	for _, t := range src.Threads {
		if s := short(t); s != "" {
			add(2, prioThread, "- %s", s)
		}
	}
	// Pending Actions: blocked first.
	for _, blocked := range []bool{true, false} {
		for _, t := range src.Tasks {
			s := short(t.Text)
			if t.Blocked != blocked || s == "" {
				continue
			}
			if blocked {
				add(3, prioBlocked, "- [ ] **Blocked:** %s", s)
			} else {
				add(3, prioTask, "- [ ] %s", s)
			}
		}
	}
	// Knowledge Base: the last session's files, commits, git's files.
	changedAt := map[string]int{}
	for _, f := range src.Changed {
		s := short(f)
		if s == "" {
			continue
		}
		p := changedPath(s)
		if _, ok := changedAt[p]; ok && p != "" {
			continue
		}
		if p != "" {
			changedAt[p] = len(items)
		}
		add(4, prioChanged, "- %s", s)
	}
	for _, c := range src.Commits {
		if s := short(c); s != "" {
			add(4, prioCommit, "- commit %s", s)
		}
	}
	// A file the last summary names and git lists again is one item: the
	// summary's, with what git says of it now when that differs.
	for _, f := range src.Files {
		s := short(f)
		if s == "" {
			continue
		}
		if i, ok := changedAt[changedPath(s)]; ok {
			if now := gitNow(s); now != "" && !strings.Contains(items[i].text, "("+now+")") {
				items[i].text += " · git now: " + now
			}
			continue
		}
		add(4, prioFile, "- %s", s)
	}
	for _, n := range src.Held {
		if s := short(n); s != "" {
			add(4, prioHeld, "- %s", s)
		}
	}
	// Risks & Watchpoints: the open risk, contested decisions, questions.
	if s := short(h.Risk); s != "" {
		add(5, prioRisk, "- **Open risk:** %s", s)
	}
	for _, d := range decs {
		if !d.Contested {
			continue
		}
		text := "- **Contested decision:** " + short(d.What)
		if obj := short(d.Objection); obj != "" {
			text += " **Objection:** " + obj
		}
		add(5, prioContested, "%s", text)
	}
	for _, q := range src.Questions {
		if s := short(q); s != "" {
			add(5, prioQuestion, "- **Open question:** %s", s)
		}
	}
	// Transcript Highlights: the last few, in order.
	hl := src.Highlights
	if len(hl) > MaxHighlights {
		hl = hl[len(hl)-MaxHighlights:]
	}
	for _, x := range hl {
		s := short(x.Text)
		if s == "" {
			continue
		}
		when := "(no time)"
		if !x.At.IsZero() {
			when = x.At.UTC().Format("2006-01-02 15:04:05Z")
		}
		add(6, prioHighlight, "- %s · %s: %s", when, clean(x.Who), s)
	}
	// Exploratory Threads & User Preferences: the reminders, newest first.
	rems := slices.Clone(src.Reminders)
	slices.SortStableFunc(rems, func(a, b Reminder) int {
		if c := b.At.Compare(a.At); c != 0 {
			return c
		}
		return cmp.Compare(b.N, a.N)
	})
	for _, r := range rems {
		s := short(r.Text)
		if s == "" {
			continue
		}
		text := "- "
		if t := short(r.Topic); t != "" {
			text += "**" + t + ":** "
		}
		text += s
		if h := short(r.Hypothesis); h != "" {
			text += " **Hypothesis:** " + h
		}
		if e := short(r.Missing); e != "" {
			text += " **Missing evidence:** " + e
		}
		if n := short(r.Next); n != "" {
			text += " **Next:** " + n
		}
		if len(r.Tags) > 0 {
			text += " (tags: " + clean(strings.Join(r.Tags, ", ")) + ")"
		}
		if r.At.IsZero() {
			// A hand-written entry whose time wake could not read.
			text += fmt.Sprintf(" [inbox %d]", r.N)
		} else {
			text += fmt.Sprintf(" [inbox %d, %s]", r.N, r.At.UTC().Format(time.RFC3339))
		}
		items = append(items, item{section: 7, prio: prioReminder, text: text, reminder: r.N})
	}
	return items
}
