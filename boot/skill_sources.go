package boot

import (
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/wakeproto/wake/budget"
	"github.com/wakeproto/wake/checks"
	"github.com/wakeproto/wake/cold"
	"github.com/wakeproto/wake/tiers"
)

// BuildSkill builds skill.md from the context [Read] or [Build] made: the
// tier files as its sensitivity policy judged them (read once, counted in
// its HeldBack), and the session summaries of cold/sessions/ as the cold
// index knows them (the context's table of contents, else a scan of cold/
// through o.ColdIndex), to which alone it applies the policy. The result
// is fitted to the [skill] budget, counted exactly with o.Counter.
func BuildSkill(o Options, c *Context) (*Skill, error) {
	cfg := o.Config.Skill
	s := &Skill{Root: o.Root, Budget: cfg.Budget, Warnings: []string{}, Held: c.HeldBack}
	files := map[string]*File{}
	for _, f := range c.Files() {
		files[f.Path] = f
	}
	toc := c.TOC
	if toc == nil {
		// Only the index is wanted: a zero budget lists nothing.
		var warns []string
		var err error
		if toc, warns, err = cold.BuildTOC(o.cold(), 0); err != nil {
			return nil, err
		}
		s.Warnings = append(s.Warnings, warns...)
	}
	b := &skillBuilder{s: s, o: o}
	main, tasks := admittedFile(files[tiers.MainPath]), admittedFile(files[tiers.TasksPath])
	decisions, latest := admittedFile(files[tiers.DecisionsPath]), admittedFile(files[tiers.LatestPath])
	hist, err := b.history(admittedFile(files[tiers.PreviousPath]), toc.Index())
	if err != nil {
		return nil, err
	}
	s.Sections = []SkillSection{b.identity(main), b.active(main, tasks), b.protocols(main, decisions), b.recent(latest), hist}
	s.Agent = b.agent(main)
	s.fit(o.Counter)
	return s, nil
}

type skillBuilder struct {
	s *Skill
	o Options
}

// admitted is a document as the sensitivity policy lets it appear.
type admitted struct {
	doc     tiers.Doc
	whole   bool   // its content may appear
	summary string // confidential: the one line that may appear
}

// admittedFile is a tier file as the context's policy judged it.
func admittedFile(f *File) admitted {
	switch {
	case f == nil || !f.doc.Readable() || f.Held == tiers.Secret:
		return admitted{}
	case f.Held == tiers.Confidential:
		return admitted{doc: f.doc, summary: tiers.OneLine(f.doc.Meta.Summary)}
	}
	return admitted{doc: f.doc, whole: true}
}

func (b *skillBuilder) agent(main admitted) string {
	if a := strings.TrimSpace(b.o.Config.Agent); a != "" {
		return a
	}
	if main.whole {
		if _, body, _ := tiers.SplitFrontMatter(main.doc.Content); tiers.FirstHeading(string(body)) != "" {
			return tiers.FirstHeading(string(body))
		}
	}
	name := filepath.Base(b.o.Root)
	if name == tiers.DefaultDirName {
		name = filepath.Base(filepath.Dir(b.o.Root))
	}
	return name
}

func (b *skillBuilder) identity(main admitted) SkillSection {
	sec := SkillSection{Title: SkillIdentity, Protected: true, Budget: b.o.Config.Skill.Identity, Source: tiers.MainPath}
	var id string
	if main.whole {
		id, _ = tiers.ParseMain(main.doc.Content).Section(tiers.SectionIdentity)
	}
	// main.md's Identity usually names the agent already.
	if a := strings.TrimSpace(b.o.Config.Agent); a != "" && !strings.Contains(id, a) {
		sec.Items = append(sec.Items, SkillItem{Text: "Agent: " + a})
	}
	if len(b.o.Config.Team) > 0 {
		sec.Items = append(sec.Items, SkillItem{Text: "Team: " + strings.Join(b.o.Config.Team, "; ")})
	}
	switch {
	case main.whole:
		m := tiers.ParseMain(main.doc.Content)
		if id != "" {
			sec.Items = append(sec.Items, SkillItem{Text: id})
		}
		if p, _ := m.Section(tiers.SectionPurpose); p != "" {
			sec.Items = append(sec.Items, SkillItem{Text: "Purpose: " + p})
		}
	case main.summary != "":
		sec.Items = append(sec.Items, SkillItem{Text: "main.md (confidential): " + main.summary})
	}
	return sec
}

func (b *skillBuilder) active(main, tasks admitted) SkillSection {
	sec := SkillSection{Title: SkillActive, Protected: true, Budget: b.o.Config.Skill.Active, Source: tiers.TasksPath}
	if main.whole {
		h := tiers.ParseMain(main.doc.Content).Handoff
		for _, f := range []struct{ label, key string }{{"Next: ", tiers.KeyNextPriority}, {"Risk: ", tiers.KeyOpenRisk}} {
			if v := tiers.OneLine(h.Get(f.key)); v != "" {
				sec.Items = append(sec.Items, SkillItem{Text: f.label + v})
			}
		}
	}
	switch {
	case tasks.whole:
		sec.Items = append(sec.Items, openTaskItems(tasks.doc)...)
	case tasks.summary != "":
		sec.Items = append(sec.Items, SkillItem{Text: tiers.TasksPath + " (confidential): " + tasks.summary})
	}
	return sec
}

// openTaskItems lists the open tasks of warm/active_tasks.md (as the task
// check counts them) under the heading they sit under, so that blocked
// tasks read as blocked.
func openTaskItems(d tiers.Doc) []SkillItem {
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
	var out []SkillItem
	for _, p := range parts {
		for _, t := range checks.OpenTasks(tiers.Doc{Path: d.Path, Content: []byte(p.text)}) {
			out = append(out, SkillItem{Group: p.label, Text: "- [ ] " + t})
		}
	}
	return out
}

func (b *skillBuilder) protocols(main, decisions admitted) SkillSection {
	sec := SkillSection{Title: SkillProtocols, Budget: b.o.Config.Skill.Protocols, Source: "main.md (Standing Directives) and " + tiers.DecisionsPath}
	if main.whole {
		text, _ := tiers.ParseMain(main.doc.Content).Section(tiers.SectionDirectives)
		sec.Items = append(sec.Items, blockItems(text, "")...)
	}
	switch {
	case decisions.whole:
		log := tiers.ParseDecisions(decisions.doc.Content)
		// Newest first, so that the oldest decisions go first when cut.
		for _, d := range slices.Backward(log.Entries) {
			if !d.Active() {
				continue
			}
			line := "- Decided " + d.Date + ": " + tiers.OneLine(d.What)
			if why := tiers.OneLine(d.Why); why != "" {
				line += " (because " + why + ")"
			}
			sec.Items = append(sec.Items, SkillItem{Text: line, Excluded: excluded(line)})
		}
	case decisions.summary != "":
		sec.Items = append(sec.Items, SkillItem{Text: tiers.DecisionsPath + " (confidential): " + decisions.summary})
	}
	return sec
}

func (b *skillBuilder) recent(latest admitted) SkillSection {
	sec := SkillSection{Title: SkillRecent, Budget: b.o.Config.Skill.Recent, Source: tiers.LatestPath}
	switch {
	case latest.whole:
		ss, _ := tiers.ParseSession(latest.doc.Content)
		head := sessionDate(ss, tiers.LatestPath) + ": " + orNone(tiers.OneLine(ss.Summary))
		sec.Items = append(sec.Items, SkillItem{Text: head})
		for _, l := range []struct {
			label string
			list  tiers.List
		}{{"What happened:", ss.Happened}, {"Decisions made:", ss.Decisions}, {"Open threads:", ss.Threads}} {
			for _, it := range l.list.Items {
				sec.Items = append(sec.Items, SkillItem{Group: l.label, Text: "- " + it, Excluded: excluded(it)})
			}
			sec.Items = append(sec.Items, blockItems(l.list.Note, l.label)...)
		}
		sec.Items = append(sec.Items, blockItems(ss.Successor, "For my successor:")...)
	case latest.summary != "":
		ss, _ := tiers.ParseSession(latest.doc.Content)
		sec.Items = append(sec.Items, SkillItem{Text: sessionDate(ss, tiers.LatestPath) + " (confidential): " + latest.summary})
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
	if m := datePrefix.FindString(filepath.Base(rel)); m != "" {
		return m
	}
	return "undated"
}

var datePrefix = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}`)

// blockItems splits Markdown into items, one a block: list items and
// paragraphs joined into one line each, fenced code kept as it is.
func blockItems(text, group string) []SkillItem {
	var out []SkillItem
	for _, bl := range budget.Blocks(text) {
		t := strings.TrimRight(bl.Text, " \t\r\n")
		if strings.TrimSpace(t) == "" {
			continue
		}
		fenced := tiers.Lines(t)[0].InFence
		if !fenced && !indentedCode(t) {
			t = tiers.OneLine(t)
		}
		out = append(out, SkillItem{Group: group, Text: t, Excluded: excluded(t)})
	}
	return out
}

// transcriptLine matches a line of a chat transcript: a speaker and a colon.
var transcriptLine = regexp.MustCompile(`(?i)^\s*(?:[-*+]\s+)?(?:>\s*)?(?:\*\*)?(?:user|human|assistant|claude|ai|system)(?:\*\*)?\s*:`)

// excluded reports what the Boot Context Spec leaves out of a boot file:
// fenced code, tool output (shell prompts, indented output) and chat
// transcripts.
func excluded(text string) bool {
	for _, l := range tiers.Lines(text) {
		t := strings.TrimSpace(l.Text)
		if l.InFence || transcriptLine.MatchString(l.Text) || strings.HasPrefix(t, "$ ") || strings.HasPrefix(t, "> $ ") {
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
