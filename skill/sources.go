package skill

import (
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/wakeproto/wake/boot"
	"github.com/wakeproto/wake/budget"
	"github.com/wakeproto/wake/checks"
	"github.com/wakeproto/wake/cold"
	"github.com/wakeproto/wake/gitwork"
	"github.com/wakeproto/wake/protocol"
	"github.com/wakeproto/wake/tiers"
)

// Build builds skill.md from the context [Read] or [Build] made: the
// tier files as its sensitivity policy judged them (read once, counted in
// its policy.HeldBack), and the session summaries of cold/sessions/ as the cold
// index knows them (the context's table of contents, else a scan of cold/
// through o.ColdIndex), to which alone it applies the policy. The result
// is fitted to the [skill] budget, counted exactly with o.Counter.
func Build(o boot.Options, c *boot.Context) (*File, error) {
	cfg := o.Config.Skill
	s := &File{Root: o.Root, Budget: cfg.Budget, Warnings: []string{}, Held: c.HeldBack}
	toc := c.TOC
	if toc == nil {
		// Only the index is wanted: a zero budget lists nothing.
		var warns []string
		var err error
		if toc, warns, err = cold.BuildTOC(o.Cold(), 0); err != nil {
			return nil, err
		}
		s.Warnings = append(s.Warnings, warns...)
	}
	b := &skillBuilder{s: s, o: o}
	main, tasks := c.Admitted(tiers.MainPath), c.Admitted(tiers.TasksPath)
	decisions, latest := c.Admitted(tiers.DecisionsPath), c.Admitted(tiers.LatestPath)
	hist, err := b.history(c.Admitted(tiers.PreviousPath), latest, toc.Index())
	if err != nil {
		return nil, err
	}
	hist.Items = append(milestones(main), hist.Items...)
	s.Sections = []Section{b.identity(main), b.active(main, tasks), b.protocols(main, decisions), b.recent(latest, c.Admitted(tiers.QuestionsPath)), hist}
	excludeRepeats(s.section(SkillRecent), s.section(SkillProtocols))
	s.Agent = b.agent(main)
	s.fit(o.Counter)
	return s, nil
}

type skillBuilder struct {
	s *File
	o boot.Options
}

func (b *skillBuilder) agent(main boot.Admitted) string {
	if a := strings.TrimSpace(b.o.Config.Agent); a != "" {
		return a
	}
	if main.Whole {
		if _, body, _ := tiers.SplitFrontMatter(main.Doc.Content); tiers.FirstHeading(string(body)) != "" {
			return tiers.FirstHeading(string(body))
		}
	}
	name := filepath.Base(b.o.Root)
	if name == tiers.DefaultDirName {
		name = filepath.Base(filepath.Dir(b.o.Root))
	}
	return name
}

func (b *skillBuilder) identity(main boot.Admitted) Section {
	sec := Section{Title: SkillIdentity, Protected: true, Budget: b.o.Config.Skill.Identity, Source: tiers.MainPath}
	var id string
	if main.Whole {
		id, _ = tiers.ParseMain(main.Doc.Content).Section(tiers.SectionIdentity)
	}
	// main.md's Identity usually names the agent already.
	if a := strings.TrimSpace(b.o.Config.Agent); a != "" && !strings.Contains(id, a) {
		sec.Items = append(sec.Items, Item{Text: "Agent: " + a})
	}
	if len(b.o.Config.Team) > 0 {
		sec.Items = append(sec.Items, Item{Text: "Team: " + strings.Join(b.o.Config.Team, "; ")})
	}
	switch {
	case main.Whole:
		m := tiers.ParseMain(main.Doc.Content)
		if id != "" {
			sec.Items = append(sec.Items, Item{Text: id})
		}
		if p, _ := m.Section(tiers.SectionPurpose); p != "" {
			sec.Items = append(sec.Items, Item{Text: "Purpose: " + p})
		}
	case main.Summary != "":
		sec.Items = append(sec.Items, Item{Text: "main.md (confidential): " + main.Summary})
	}
	return sec
}

func (b *skillBuilder) active(main, tasks boot.Admitted) Section {
	sec := Section{Title: SkillActive, Protected: true, Budget: b.o.Config.Skill.Active, Source: tiers.TasksPath}
	if main.Whole {
		h := tiers.ParseMain(main.Doc.Content).Handoff
		for _, f := range []struct{ label, key string }{{"Next: ", tiers.KeyNextPriority}, {"Risk: ", tiers.KeyOpenRisk}} {
			if v := tiers.OneLine(h.Get(f.key)); v != "" {
				sec.Items = append(sec.Items, Item{Text: f.label + v})
			}
		}
	}
	switch {
	case tasks.Whole:
		sec.Items = append(sec.Items, openTaskItems(tasks.Doc)...)
	case tasks.Summary != "":
		sec.Items = append(sec.Items, Item{Text: tiers.TasksPath + " (confidential): " + tasks.Summary})
	}
	sec.Items = append(sec.Items, branchItems(b.o.Branches)...)
	return sec
}

// The sections of main.md History takes besides the sessions: seed 001's
// "project milestones" and "relationship notes (who's good at what,
// communication patterns)", which wake does not infer; they are written
// there by hand or by an agent, a bullet each.
const (
	SectionMilestones    = "Milestones"
	SectionRelationships = "Relationships"
)

// milestones are the bullets of main.md's Milestones and Relationships
// sections, first in History: cut from the bottom, they go after the
// older sessions.
func milestones(main boot.Admitted) []Item {
	if !main.Whole {
		return nil
	}
	m := tiers.ParseMain(main.Doc.Content)
	var out []Item
	for _, s := range []string{SectionMilestones, SectionRelationships} {
		text, _ := m.Section(s)
		out = append(out, blockItems(tiers.StripComments(text), s+":")...)
	}
	return out
}

// branchItems are seed 001's branches in flight: each branch's name,
// status against the default branch and what is in it (its last commit).
func branchItems(bs []gitwork.Branch) []Item {
	var out []Item
	for _, br := range bs {
		name := br.Name
		if br.Current {
			name += " (current)"
		}
		text := "- " + name + ": " + br.Status() + "; last: " + tiers.OneLine(br.Last)
		if !br.LastDate.IsZero() {
			text += " (" + br.LastDate.UTC().Format("2006-01-02") + ")"
		}
		out = append(out, Item{Group: "Branches in flight:", Text: tiers.Printable(text)})
	}
	return out
}

// openTaskItems lists the open tasks of warm/active_tasks.md (as the task
// check counts them) under the heading they sit under, so that blocked
// tasks read as blocked.
func openTaskItems(d tiers.Doc) []Item {
	_, body, _ := tiers.SplitFrontMatter(d.Content)
	text := string(body)
	parts := []struct{ label, text string }{}
	secs := tiers.Sections(text, 2)
	pre := len(text)
	if len(secs) > 0 {
		pre = secs[0].Start
	}
	parts = append(parts, struct{ label, text string }{"Open:", text[:pre]})
	for _, s := range secs {
		parts = append(parts, struct{ label, text string }{s.Title + ":", text[s.Start:s.End]})
	}
	var out []Item
	for _, p := range parts {
		for _, t := range checks.OpenTasks(tiers.Doc{Path: d.Path, Content: []byte(p.text)}) {
			out = append(out, Item{Group: p.label, Text: "- [ ] " + t})
		}
	}
	return out
}

func (b *skillBuilder) protocols(main, decisions boot.Admitted) Section {
	sec := Section{Title: SkillProtocols, Budget: b.o.Config.Skill.Protocols, Source: "the protocol card, main.md (Standing Directives) and " + tiers.DecisionsPath}
	// The protocol card first, so that the directives and decisions are
	// cut before it; skill.md, the compact boot file, takes the short card
	// unless the card is off.
	card := ""
	if b.o.Config.Protocol.Card != tiers.CardOff {
		card = protocol.Card(tiers.CardShort)
	}
	for _, l := range strings.Split(strings.TrimSuffix(card, "\n"), "\n") {
		if l != "" {
			sec.Items = append(sec.Items, Item{Text: l})
		}
	}
	if main.Whole {
		text, _ := tiers.ParseMain(main.Doc.Content).Section(tiers.SectionDirectives)
		sec.Items = append(sec.Items, blockItems(text, "")...)
	}
	switch {
	case decisions.Whole:
		log := tiers.SharedDecisions(decisions.Doc.Content)
		// Newest first, so that the oldest decisions go first when cut.
		for _, d := range slices.Backward(log.Entries) {
			if !d.Active() {
				continue
			}
			line := "- Decided " + d.Date + ": " + tiers.OneLine(d.What)
			if why := tiers.OneLine(d.Why); why != "" {
				line += " (because " + why + ")"
			}
			sec.Items = append(sec.Items, Item{Text: line, Excluded: excluded(line)})
		}
	case decisions.Summary != "":
		sec.Items = append(sec.Items, Item{Text: tiers.DecisionsPath + " (confidential): " + decisions.Summary})
	}
	return sec
}

func (b *skillBuilder) recent(latest, questions boot.Admitted) Section {
	sec := b.lastSession(latest)
	sec.Source += " and " + tiers.QuestionsPath
	// The questions left open, which seed 001's Recent Context carries,
	// go before For my successor: cut from the bottom, they go after it.
	var qs []Item
	switch {
	case questions.Whole:
		_, body, ok := tiers.SplitFrontMatter(questions.Doc.Content)
		if !ok {
			body = questions.Doc.Content
		}
		for _, it := range blockItems(tiers.StripComments(string(body)), "Open questions:") {
			if !strings.HasPrefix(it.Text, "#") {
				qs = append(qs, it)
			}
		}
	case questions.Summary != "":
		qs = []Item{{Group: "Open questions:", Text: tiers.QuestionsPath + " (confidential): " + questions.Summary}}
	}
	at := len(sec.Items)
	for i, it := range sec.Items {
		if it.Group == "For my successor:" {
			at = i
			break
		}
	}
	sec.Items = slices.Insert(sec.Items, at, qs...)
	return sec
}

// lastSession is Last Session as recent/latest.md gives it.
func (b *skillBuilder) lastSession(latest boot.Admitted) Section {
	sec := Section{Title: SkillRecent, Budget: b.o.Config.Skill.Recent, Source: tiers.LatestPath}
	switch {
	case latest.Whole:
		ss, _ := tiers.ParseSession(latest.Doc.Content)
		head := sessionDate(ss, tiers.LatestPath) + ": " + orNone(tiers.OneLine(ss.Summary))
		sec.Items = append(sec.Items, Item{Text: head})
		for _, l := range []struct {
			label string
			list  tiers.List
		}{{"What happened:", ss.Happened}, {"Decisions made:", ss.Decisions}, {"Open threads:", ss.Threads}} {
			for _, it := range l.list.Items {
				debug := l.label != "Decisions made:" && resolvedDebugging(it)
				sec.Items = append(sec.Items, Item{Group: l.label, Text: "- " + it, Excluded: excluded(it) || debug})
			}
			sec.Items = append(sec.Items, blockItems(l.list.Note, l.label)...)
		}
		sec.Items = append(sec.Items, blockItems(ss.Successor, "For my successor:")...)
	case latest.Summary != "":
		ss, _ := tiers.ParseSession(latest.Doc.Content)
		sec.Items = append(sec.Items, Item{Text: sessionDate(ss, tiers.LatestPath) + " (confidential): " + latest.Summary})
	}
	return sec
}

func orNone(s string) string {
	if s == "" {
		return "(no summary)"
	}
	return s
}

// sessionDate is a session's day: its front-matter session time, else a
// date its file name starts with, else "undated".
func sessionDate(ss tiers.Session, rel string) string {
	if !ss.At.IsZero() {
		return ss.At.UTC().Format("2006-01-02")
	}
	if m := datePrefix().FindString(filepath.Base(rel)); m != "" {
		return m
	}
	return "undated"
}

var datePrefix = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\d{4}-\d{2}-\d{2}`) })

// blockItems splits Markdown into items, one a block: list items and
// paragraphs joined into one line each, fenced code kept as it is.
func blockItems(text, group string) []Item {
	var out []Item
	for _, bl := range budget.Blocks(text) {
		t := strings.TrimRight(bl.Text, " \t\r\n")
		if strings.TrimSpace(t) == "" {
			continue
		}
		fenced := tiers.Lines(t)[0].InFence
		if !fenced && !indentedCode(t) {
			t = tiers.OneLine(t)
		}
		out = append(out, Item{Group: group, Text: t, Excluded: excluded(t)})
	}
	return out
}

// transcriptLine matches a line of a chat transcript: a speaker and a colon.
var transcriptLine = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)^\s*(?:[-*+]\s+)?(?:>\s*)?(?:\*\*)?(?:user|human|assistant|claude|ai|system)(?:\*\*)?\s*:`)
})

// excluded reports what the Boot Context Spec leaves out of a boot file:
// fenced code, tool output (shell prompts, indented output) and chat
// transcripts.
func excluded(text string) bool {
	for _, l := range tiers.Lines(text) {
		t := strings.TrimSpace(l.Text)
		if l.InFence || transcriptLine().MatchString(l.Text) || strings.HasPrefix(t, "$ ") || strings.HasPrefix(t, "> $ ") {
			return true
		}
	}
	return indentedCode(text)
}

// indentedCode reports a block whose every line is indented four spaces
// or a tab: Markdown's other code block, and how pasted output looks.
func indentedCode(text string) bool {
	code := false
	for _, l := range strings.Split(text, "\n") {
		if strings.TrimSpace(l) == "" {
			continue
		}
		if !strings.HasPrefix(l, "    ") && !strings.HasPrefix(l, "\t") {
			return false
		}
		code = true
	}
	return code
}
