package boot

import (
	"fmt"

	"github.com/wakeproto/wake/budget"
	"github.com/wakeproto/wake/tiers"
)

// Build reads phases 1-3 and fits them to the budgets of DESIGN section 4:
// each tier's budget is shared among its files, a file over its share is
// compressed from the bottom up (main.md's HANDOFF block is never dropped),
// and the whole rendered context is kept within the memory maximum.
func Build(o Options) (*Context, error) {
	ctx, err := Read(o)
	if err != nil {
		return nil, err
	}
	for i := range ctx.Phases {
		p := &ctx.Phases[i]
		wants := make([]int, len(p.Files))
		for j, f := range p.Files {
			wants[j] = f.Tokens
		}
		shares := budget.Allocate(p.Budget, wants)
		used := 0
		for _, s := range shares {
			used += s
		}
		for j, share := range shares {
			f := p.Files[j]
			// What the file may use: the tier's budget less what the other
			// files take. For a file over its share that is the share itself.
			f.Budget = p.Budget - (used - share)
			switch {
			case f.Tokens > share:
				fit(f, share, o.Counter)
			case f.Path == tiers.DecisionsPath && f.doc.Readable():
				// The log is shown as a view of what is in force
				// whatever its size, within what the tier leaves it.
				fit(f, f.Budget, o.Counter)
			}
		}
	}
	ctx.check(o)
	ctx.readInbox(o)
	ctx.announcedHandoff(o.Counter)
	o.ledgerLevel = ctx.ledgerLevels(o)
	if err := ctx.addColdAndDigest(o); err != nil {
		return nil, err
	}
	ctx.addTrajectory(o)
	ctx.nameListedRecords(o)
	ctx.addReminders(o)
	ctx.directives()
	ctx.sum()
	ctx.enforceMax(o)
	return ctx, nil
}

// Cuts returns the record of everything fitting left out of a context
// Build made, in the context's order: each file's blocks (or a whole file
// withheld under memory_max), the table of contents' folds, the digest's
// unlisted entries, the open reminders left unlisted; where each was, and its count. The folds' lines are
// counted on the first call, not by Build: rendering and counting most of
// a large cold tier's listing again is not worth it to a start that does
// not ask.
func (c *Context) Cuts() []budget.Cut {
	out := []budget.Cut{}
	for _, f := range c.Files() {
		out = append(out, f.cuts...)
	}
	if c.TOC != nil {
		out = append(out, c.TOC.Cuts()...)
	}
	if c.Digest != nil {
		out = append(out, c.Digest.cuts...)
	}
	if c.Reminders != nil {
		out = append(out, c.Reminders.cuts...)
	}
	if c.Trajectory != nil {
		out = append(out, c.Trajectory.cuts...)
	}
	return out
}

func fit(f *File, share int, c budget.Counter) {
	if f.Path == tiers.DecisionsPath {
		if v, ok := decisionsView(f.full, share, c); ok {
			f.Budget = share
			f.Content, f.ShownTokens, f.Truncated = v.Text, v.Tokens, v.Truncated
			f.Omitted, f.withheld, f.cuts = nil, false, v.Cuts
			if v.Truncated {
				f.Omitted = &Omit{Blocks: len(v.Cuts)}
				for _, c := range v.Cuts {
					f.Omitted.Tokens += c.Tokens
				}
			}
			return
		}
	}
	r := budget.FitRanked(f.full, share, c, f.Path, rankFor(f.Path))
	f.Budget = share
	f.Content, f.ShownTokens, f.Truncated = r.Text, r.Tokens, r.Truncated
	f.Omitted, f.withheld, f.cuts = nil, false, r.Cuts
	if r.Truncated {
		f.Omitted = &Omit{Blocks: r.DroppedBlocks, Tokens: r.DroppedTokens}
	}
}

// directives tells the instance which files to compress first.
func (c *Context) directives() {
	c.Directives = c.Directives[:0]
	for _, f := range c.Files() {
		var what string
		switch {
		case f.Huge:
			what = fmt.Sprintf("%s (%s bytes, over the %d MiB read limit; only its head is shown)",
				f.Path, budget.Thousands(int(f.Bytes)), tiers.MaxDocBytes>>20)
		case f.Truncated:
			what = fmt.Sprintf("%s (%s tokens; budget %s)",
				f.Path, budget.Thousands(f.Tokens), budget.Thousands(f.Budget))
		default:
			continue
		}
		// A warm file wake compact archives from is shrunk by the command
		// first: moving finished entries by hand would read as deleting them.
		if compactable(f.Path) {
			what += ": run `wake compact`, then compress what is left by hand."
		} else {
			what = "compress " + what + " before proceeding."
		}
		c.directive(what)
	}
	if c.inboxHuge > 0 {
		c.directive(fmt.Sprintf("%s (%s bytes, over the %d MiB read limit; only its head is read): run `wake compact`, then compress what is left by hand.",
			tiers.InboxPath, budget.Thousands(int(c.inboxHuge)), tiers.MaxDocBytes>>20))
	}
}

// directive adds what to the directives, the first as the first task.
func (c *Context) directive(what string) {
	if len(c.Directives) == 0 {
		c.Directives = append(c.Directives, "First task: "+what)
	} else {
		c.Directives = append(c.Directives, "Then: "+what)
	}
}

// compactable reports whether wake compact moves finished entries out of
// the file at rel.
// OverShare lists the warm files wake compact archives from that the
// context had to cut to fit their share, or could read only the head of:
// those its directives send to `wake compact`.
func (c *Context) OverShare() []string {
	var out []string
	for _, f := range c.Files() {
		if (f.Truncated || f.Huge) && compactable(f.Path) {
			out = append(out, f.Path)
		}
	}
	if c.inboxHuge > 0 {
		out = append(out, tiers.InboxPath)
	}
	return out
}

func compactable(rel string) bool {
	switch rel {
	case tiers.DecisionsPath, tiers.TasksPath, tiers.QuestionsPath, tiers.InboxPath:
		return true
	}
	return false
}

// limit is the most the context may hold: the memory maximum, and never so
// much that less than work_min is left of the window.
func (c *Context) limit() int {
	return min(c.Totals.Max, c.Totals.ContextWindow-c.Totals.WorkMin)
}

// enforceMax measures the rendered context and, while it is over the
// limit, squeezes it further (see [Context.squeeze]). Tier budgets normally
// add up to well under the maximum; this only bites on configurations
// where they do not. It leaves the measured text on the context.
func (c *Context) enforceMax(o Options) {
	for range 64 {
		c.text = c.Measure(o.Counter)
		over := c.Totals.Output - c.limit()
		if over <= 0 || !c.squeeze(over, o.Counter) {
			return
		}
		c.directives()
		c.sum()
	}
	c.text = c.Measure(o.Counter)
}

// Measure renders the Markdown context and records its exact token count.
// The last line shows the count, so the count is a fixed point. It is
// sought on that line alone: the rest of the context is rendered and
// counted once, and the usual encodings count it and the line apart as
// they count them together. Then the whole text's exact count is taken
// from the head's and the text near the join ([budget.CountJoined]), so
// the head is not counted twice; on a warm start every count is a cache
// hit and the tokenizer is not loaded. Whole texts that do not settle are
// counted without being remembered.
func (c *Context) Measure(counter budget.Counter) string {
	head := markdownHead(c)
	base := counter.Count(head)
	n := base
	for range 8 {
		c.setOutput(n)
		m := base + counter.Count(outputLine(c))
		if m == n {
			break
		}
		n = m
	}
	line := outputLine(c)
	out := head + line
	if n = budget.CountJoined(counter, head, base, line); n == c.Totals.Output {
		return out
	}
	// The encoding joined the last line to the rest: settle on whole
	// texts, remembering only the one that settles.
	trial := budget.Transient(counter)
	for range 8 {
		c.setOutput(n)
		out = head + outputLine(c)
		if n = trial(out); n == c.Totals.Output {
			break
		}
	}
	counter.Count(out)
	return out
}

// setOutput records the context's token count, which the work left
// depends on.
func (c *Context) setOutput(n int) {
	c.Totals.Output = n
	c.sum()
}
