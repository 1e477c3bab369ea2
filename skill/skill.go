// Package skill builds skill.md, the compact boot file of the Boot Context
// Spec (seed 001, DESIGN section 7), from the context the boot pipeline
// made: the tier files as its policy admitted them and the sessions the
// cold index knows, fitted to the [skill] budgets from the bottom up. It is
// apart from the pipeline because it is one of several builders over the
// same admitted documents (the wake-up packet is another), not a stage of
// it.
package skill

import (
	"fmt"

	"github.com/wakeproto/wake/budget"
	"github.com/wakeproto/wake/policy"
)

// File is skill.md (the Boot Context Spec, DESIGN section 7) before it is
// rendered: five sections in priority order, each a list of items that
// compression keeps or drops whole.
type File struct {
	Root     string
	Agent    string // the title's name
	Sections []Section
	Held     policy.HeldBack
	Budget   int
	Tokens   int // the rendered file, counted exactly
	// Over says Who I Am and Active Work alone exceed the budget: the
	// file is written whole regardless, with Warnings saying so.
	Over     bool
	Warnings []string
	// Cuts records each item compression left out, with its count, and
	// each older session History left out before fitting, past the
	// budget.
	Cuts []budget.Cut
}

// Titles of skill.md's sections, in order.
const (
	SkillIdentity  = "Who I Am"
	SkillActive    = "Active Work"
	SkillProtocols = "How We Work"
	SkillRecent    = "Last Session"
	SkillHistory   = "History"
)

// Section is one section of skill.md.
type Section struct {
	Title string
	Items []Item
	// Protected sections (Who I Am, Active Work) are never cut.
	Protected bool
	// Source says where a reader finds what compression left out.
	Source  string
	Dropped int
	// Excluded counts the items the spec leaves out of a boot file
	// (transcripts, tool output, code): never shown, whatever the budget.
	Excluded int
	// Budget is the section's share in [skill]; History's is what the
	// total leaves it once the others are fitted.
	Budget int
}

// Item is one line or block of a section.
type Item struct {
	// Group is a label shown before the first kept item of a run of items
	// with the same group ("What happened:").
	Group string
	Text  string
	// Excluded marks what the spec leaves out of a boot file (fenced
	// code, tool output, transcripts): the first to go when over budget.
	Excluded bool
	Dropped  bool
}

// section returns the section titled title.
func (s *File) section(title string) *Section {
	for i := range s.Sections {
		if s.Sections[i].Title == title {
			return &s.Sections[i]
		}
	}
	return nil
}

// fit compresses the skill to its budgets, counted exactly with counter:
// How We Work and Last Session each to their own budget, then the whole to
// the total, so that History gets what the others leave. Each cut goes
// bottom up, what the spec excludes first, then the rest: History from
// its oldest line, Last Session from its last bullet, How We Work from its
// last line. A skill that fits is left as it is. Who I Am and Active Work
// are never cut; over their budgets they take History's room, and only a
// file over its whole budget earns a warning.
func (s *File) fit(counter budget.Counter) {
	for i := range s.Sections {
		s.Sections[i].exclude()
	}
	for _, title := range []string{SkillProtocols, SkillRecent} {
		sec := s.section(title)
		s.shrink(sec.Budget, counter, func() int { return counter.Count(renderSection(sec)) }, sec)
	}
	s.Tokens = s.shrink(s.Budget, counter, func() int { return counter.Count(Render(s)) },
		s.section(SkillProtocols), s.section(SkillRecent), s.section(SkillHistory))
	hist := s.section(SkillHistory)
	hist.Budget = max(0, s.Budget-(s.Tokens-counter.Count(renderSection(hist))))
	// A section that is never cut may run over its own share: that only
	// leaves History less room, which is what History's share is. Only
	// what the file cannot hold is worth a warning at every start.
	if s.Tokens > s.Budget {
		s.Over = true
		s.Warnings = append(s.Warnings, s.overWarning(counter))
	}
}

// shrink cuts the items of secs not cut yet until count, the exact size
// of what they are in, is within limit, and returns that size. Each item
// is a piece of the Fitter, what the spec excludes at a lower priority.
func (s *File) shrink(limit int, counter budget.Counter, count func() int, secs ...*Section) int {
	f := &budget.Fitter{Counter: counter, Limit: limit}
	var items []*Item
	var at []*Section
	for _, sec := range secs {
		where := budget.Where(skillFile, sec.Title)
		for i := range sec.Items {
			if i < sec.mustKeep() {
				continue
			}
			if it := &sec.Items[i]; !it.Dropped {
				p := budget.Piece{Text: it.Text + "\n", Where: where, Priority: 1}
				if it.Excluded {
					p.Priority = 0
				}
				f.Pieces, items, at = append(f.Pieces, p), append(items, it), append(at, sec)
			}
		}
	}
	f.Measure = func() int {
		for i, it := range items {
			if f.IsCut(i) && !it.Dropped {
				it.Dropped = true
				at[i].Dropped++
			}
		}
		return count()
	}
	n := f.Fit()
	s.Cuts = append(s.Cuts, f.Cuts()...)
	return n
}

// skillFile is where the cut record says skill.md's cuts were.
const skillFile = "skill.md"

func (s *File) overWarning(counter budget.Counter) string {
	id, act := s.section(SkillIdentity), s.section(SkillActive)
	return fmt.Sprintf("skill.md is %s tokens, over its budget of %s: Who I Am (%s tokens; identity budget %s) and Active Work (%s tokens; active budget %s) are never cut, so it was written whole; shorten main.md's Identity and Purpose or warm/active_tasks.md",
		budget.Thousands(s.Tokens), budget.Thousands(s.Budget),
		budget.Thousands(counter.Count(renderSection(id))), budget.Thousands(id.Budget),
		budget.Thousands(counter.Count(renderSection(act))), budget.Thousands(act.Budget))
}

// exclude leaves out the items seed 001 excludes from a boot file
// (verbatim transcripts, tool output and raw command results): they are
// never shown, not merely cut first.
func (sec *Section) exclude() {
	kept := sec.Items[:0]
	for _, it := range sec.Items {
		if it.Excluded {
			sec.Excluded++
			continue
		}
		kept = append(kept, it)
	}
	sec.Items = kept
}

// protocolsKept is how many of How We Work's first lines are never cut:
// seed 001 says Learned Protocols must be included, so its first lines
// (the protocol card's, then the first standing directive) stay however
// tight the budget.
const protocolsKept = 3

// mustKeep is how many of the section's first items are never cut.
func (sec *Section) mustKeep() int {
	if sec.Title != SkillProtocols {
		return 0
	}
	return min(protocolsKept, len(sec.Items))
}
