package boot

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/wakeproto/wake/budget"
	"github.com/wakeproto/wake/protocol"
)

// HookLimit is the most characters of a hook's output that Claude Code adds
// to the model's context as they are: past it, Claude Code saves the output
// to a file and injects only a short preview and the file's path. It counts
// characters as JavaScript does, in UTF-16 code units (see [HookLen]).
const HookLimit = 10000

// HookClient is how a client takes a SessionStart hook's output into the
// session.
type HookClient struct {
	// Name names the client in the note of lines left out.
	Name string
	// Limit is the most of the output the client adds as it is, counted
	// in Unit: past it a client keeps a preview only.
	Limit int
	Unit  budget.Unit // budget.UTF16 or budget.Bytes
	// Import names what read boot.md into the session before the hook
	// ran ("CLAUDE.md"), "" when nothing did: the hook then says what
	// that copy lacks and no more ([HookTarget.Before]).
	Import string
}

// The clients' hooks. Claude Code reads the boot.md CLAUDE.md imports
// before the hook's output; Codex adds a SessionStart hook's output
// within about 10,000 bytes, and past them keeps its head and tail only.
var (
	ClaudeCode = HookClient{Name: "Claude Code", Limit: HookLimit, Unit: budget.UTF16, Import: "CLAUDE.md"}
	Codex      = HookClient{Name: "Codex", Limit: 10000, Unit: budget.Bytes}
)

// Len is the length of s as the client measures it.
func (h HookClient) Len(s string) int {
	if h.Unit == budget.Bytes {
		return len(s)
	}
	return budget.UTF16Len(s)
}

// cut shortens s to at most n of the client's units, on a character
// boundary, marking the cut with an ellipsis.
func (h HookClient) cut(s string, n int) string {
	if h.Len(s) <= n {
		return s
	}
	ell := h.Len("…")
	if n < ell {
		return ""
	}
	used := 0
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		w := size
		if h.Unit != budget.Bytes {
			w = 1
			if r > 0xFFFF {
				w = 2
			}
		}
		if used+w > n-ell {
			return s[:i] + "…"
		}
		used += w
		i += size
	}
	return s
}

// Cut shortens s to at most n of the client's units, on a character
// boundary, marking the cut with an ellipsis.
func (h HookClient) Cut(s string, n int) string { return h.cut(s, n) }

// unitName is what Limit counts, in the note of lines left out.
func (h HookClient) unitName() string {
	if h.Unit == budget.Bytes {
		return "byte"
	}
	return "character"
}

// HookTarget says where the whole boot context went, for the hook text to
// point at.
type HookTarget struct {
	BootPath string // boot.md, "" when the boot mode does not write it
	// BootChanged says boot.md's content changed as the hook wrote it.
	// Claude Code may read the files CLAUDE.md imports before a
	// SessionStart hook has finished (claude -p does, as a rule), so the
	// agent may hold the earlier copy and is told to read the file.
	BootChanged bool
	SkillPath   string // the root's own skill.md, "" when it was not written
	// SkillChanged says skill.md's content changed as it was written.
	SkillChanged bool
	// Before is boot.md's text (without its front matter) as it was
	// before this start wrote it, when BeforeRead: the copy a client that
	// imports the file may have read already ([HookFor]).
	Before     string
	BeforeRead bool
	// Kept says boot.md was left as the client's import read it (see
	// wake.BootFiles.KeepBootMD), behind the context when Before differs
	// from it: a hook's text then never sends the agent to the file for
	// what changed, but to `wake load`.
	Kept bool
	// SkillImported says the project's CLAUDE.md imports SkillPath rather
	// than boot.md ([claude] boot = "skill").
	SkillImported bool
	// Shared is the skill.md at skill.path, which other memory roots may
	// write to as well: whose it is, and whether this run wrote it. Its
	// Path is "" when there is none (skill.path is "", or the root's own
	// copy) or it was not looked at.
	Shared SkillFile
	// Problems are boot files that could not be written, one line each.
	Problems []string
}

// hookBlock is one titled part of the hook text, kept or cut a line at a
// time.
type hookBlock struct {
	title string
	lines []string
}

// Hook renders the text a Claude Code SessionStart hook prints: the
// announcement, the directives, the coherence checks' findings, the last
// sessions' trajectory, the recent changes and the warnings of the
// context, then where the whole context is. It is never longer than limit characters counted as
// [HookLen] counts them: lines are left out from the bottom up, with a line
// saying how many, and the pointer to the whole context always stays.
func Hook(c *Context, t HookTarget, limit int) string {
	h := ClaudeCode
	h.Limit = limit
	return hookSummary(c, t, h)
}

// hookSummary is the hook text of [Hook] for client h.
func hookSummary(c *Context, t HookTarget, h HookClient) string {
	head := hookHead(c)
	tail := hookWhere(t, h, h.Limit/4)
	room := h.Limit - h.Len(head) - h.Len(tail)
	if room < 0 {
		return h.cut(head+tail, h.Limit)
	}
	text, _ := fitHook(blocksOf(c), room, h)
	return head + text + tail
}

func hookHead(c *Context) string { return "# wake: memory loaded\n\nMemory root: " + c.Root + "\n" }

func blocksOf(c *Context) []hookBlock {
	var out []hookBlock
	if a := splitLines(c.Announcement); len(a) > 0 {
		out = append(out, hookBlock{"", a})
	}
	if len(c.Directives) > 0 {
		out = append(out, hookBlock{"", c.Directives})
	}
	if c.Card != "" {
		out = append(out, hookBlock{strings.TrimPrefix(protocol.Title, "## "), splitLines(c.Card)})
	}
	if len(c.Findings) > 0 {
		var b strings.Builder
		WriteFindings(&b, shownFindings(c))
		out = append(out, hookBlock{"Coherence checks", splitLines(b.String())})
	}
	// What the last sessions handed on (their next priorities, the risks
	// still open): cut after the changes, the reminders and the warnings.
	if t := c.Trajectory; t != nil && t.Text() != "" {
		out = append(out, hookBlock{strings.TrimPrefix(TrajectoryTitle, "## "), splitLines(t.Text())})
	}
	if d := c.Digest; d != nil && d.Total > 0 {
		b := hookBlock{title: "Changes in the last " + d.Window}
		b.lines = splitLines(d.Text())
		if len(b.lines) == 0 {
			b.lines = []string{fmt.Sprintf("%s recorded: `wake log --since %s`.", budget.Plural(d.Total, "change"), d.Window)}
		}
		out = append(out, b)
	}
	if r := c.Reminders; r != nil {
		var b strings.Builder
		writeReminders(&b, c)
		out = append(out, hookBlock{strings.TrimPrefix(RemindersTitle, "## "), splitLines(strings.TrimPrefix(b.String(), "\n"+RemindersTitle+"\n\n"))})
	}
	if h := c.HeldBack.Line(); h != "" {
		out = append(out, hookBlock{"", []string{h}})
	}
	if len(c.Warnings) > 0 {
		b := hookBlock{title: "Warnings"}
		for _, w := range c.Warnings {
			b.lines = append(b.lines, "- "+w)
		}
		out = append(out, b)
	}
	return out
}

// hookWhere is the closing pointer to the whole context, at most max
// characters, so that it always fits.
func hookWhere(t HookTarget, h HookClient, max int) string {
	var b strings.Builder
	b.WriteString("\n## Full context\n\n")
	switch {
	case t.BootPath != "" && t.BootChanged && h.Import != "":
		fmt.Fprintf(&b, "The whole boot context (every loaded file, the cold table of contents, the budget) is in %s. It changed as this hook regenerated it, and the copy %s imports may have been read before: read that file before you start.\n", t.BootPath, h.Import)
	case t.BootPath != "" && h.Import != "":
		fmt.Fprintf(&b, "The whole boot context (every loaded file, the cold table of contents, the budget) is in %s, which %s imports. If it is not in your context, read that file before you start.\n", t.BootPath, h.Import)
	case t.BootPath != "":
		fmt.Fprintf(&b, "The whole boot context (every loaded file, the cold table of contents, the budget) is in %s: read that file before you start.\n", t.BootPath)
	case t.SkillPath != "" && t.SkillImported && h.Import != "":
		fmt.Fprintf(&b, "Your memory in brief is in %s, which CLAUDE.md imports. Run `wake load` for the whole boot context.\n", t.SkillPath)
	case t.SkillPath != "":
		fmt.Fprintf(&b, "Your memory in brief is in %s. Run `wake load` for the whole boot context.\n", t.SkillPath)
	default:
		b.WriteString("No boot file was written. Run `wake load` for the whole boot context.\n")
	}
	for _, p := range t.Problems {
		b.WriteString("- " + p + "\n")
	}
	return h.cut(b.String(), max)
}

// fitHook renders blocks within room characters, leaving out lines from
// the bottom up with the Fitter and saying how many. The first line left
// out is shown cut instead when there is fair room for its head. Its
// record of what it left out, in characters, is made when asked for.
func fitHook(blocks []hookBlock, room int, h HookClient) (string, func() []budget.Cut) {
	n := 0
	for _, bl := range blocks {
		n += len(bl.lines)
	}
	// A piece is a line; heads[i] goes before it, the title of its block
	// before its first line.
	f := &budget.Fitter{Unit: h.Unit, Limit: room, Pieces: make([]budget.Piece, 0, n)}
	heads, upTo := make([]string, 0, n), make([]int, 1, n+1)
	for _, bl := range blocks {
		head, where := "\n", budget.Where(hookWhat, bl.title)
		if bl.title != "" {
			head = "\n## " + bl.title + "\n\n"
		}
		for _, l := range bl.lines {
			p := budget.Piece{Text: l, Size: h.Len(head) + h.Len(l) + 1, Where: where}
			f.Pieces, heads, upTo = append(f.Pieces, p), append(heads, head), append(upTo, upTo[len(upTo)-1]+p.Size)
			head = ""
		}
	}
	// The lines go from the bottom: what is kept is always a head of them.
	f.Measure = func() int { return upTo[len(f.Pieces)-f.Steps()] + h.Len(omittedNote(f.Steps(), h)) }
	f.Fit()
	left, kept := f.Steps(), len(f.Pieces)-f.Steps()
	var b strings.Builder
	for i, p := range f.Pieces[:kept] {
		b.WriteString(heads[i])
		b.WriteString(p.Text)
		b.WriteString("\n")
	}
	shown := 0 // of the topmost line cut, shown cut
	if used := upTo[kept]; left > 0 {
		if avail := room - used - h.Len(omittedNote(left-1, h)); avail > minCutLine {
			cut := h.cut(heads[kept]+f.Pieces[kept].Text, avail-1) + "\n"
			b.WriteString(cut)
			used += h.Len(cut)
			left--
			shown = h.Len(cut) - h.Len("…") // less the ellipsis, which is the hook's own
		}
		if note := omittedNote(left, h); used+h.Len(note) <= room {
			b.WriteString(note)
		}
	}
	return b.String(), func() []budget.Cut {
		cuts := f.Cuts()
		if shown > 0 {
			// The topmost line cut, the last to go, lost only its tail.
			cuts[len(cuts)-1].Units -= shown
		}
		return cuts
	}
}

// hookWhat is where the record says the hook's cuts were.
const hookWhat = "hook text"

// minCutLine is the least room worth showing the head of a long line in.
const minCutLine = 120

func omittedNote(n int, h HookClient) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("\n[wake: %s left out to stay within %s's %s-%s hook limit; see the full context below]\n",
		budget.Plural(n, "line"), h.Name, budget.Thousands(h.Limit), h.unitName())
}

func splitLines(s string) []string {
	s = strings.TrimRight(s, "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}
