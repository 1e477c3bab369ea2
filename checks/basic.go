package checks

import (
	"fmt"
	"strings"
	"time"
	"unicode"

	"github.com/wakeproto/wake/tiers"
)

// CheckIdentity is check 1: main.md exists and states the project's
// purpose in at least one sentence: in its Purpose section, else in the
// paragraph under its title, else in its front-matter summary (unless
// that is the template's). Failing it is a HALT.
func CheckIdentity(m Memory) []Finding {
	halt := func(detail string) []Finding {
		return []Finding{{Check: Identity, Severity: Halt, Path: tiers.MainPath, Message: MsgIdentity, Details: []string{detail}}}
	}
	switch {
	case m.Main.Missing:
		return halt("main.md does not exist")
	case !m.Main.Readable():
		return halt("main.md was not read: " + m.Main.Skipped)
	}
	purpose, ok := tiers.ParseMain(m.Main.Content).Section(tiers.SectionPurpose)
	for _, p := range []string{purpose, titleParagraph(m.Main.Content), ownSummary(m.Main.Meta.Summary)} {
		if isSentence(p) {
			return []Finding{{Check: Identity, Pass: true, Severity: OK, Path: tiers.MainPath, Message: fmt.Sprintf("purpose: %s", firstSentence(p))}}
		}
	}
	const elsewhere = "; nor does the paragraph under its title or its front-matter summary state it"
	if !ok {
		return halt(`main.md has no "## Purpose" section` + elsewhere)
	}
	return halt("the Purpose section of main.md does not state the purpose (it is empty or holds only the template's comment)" + elsewhere)
}

// titleParagraph is the text between main.md's title and its next
// heading, without comments: where a hand-written main.md often states
// what the project is.
func titleParagraph(content []byte) string {
	_, body, ok := tiers.SplitFrontMatter(content)
	if !ok {
		body = content
	}
	var b strings.Builder
	in := false
	for _, l := range tiers.Lines(string(body)) {
		lv, _ := tiers.HeadingLevel(l.Text)
		switch {
		case lv == 1 && !in:
			in = true
		case lv > 0:
			if in {
				return strings.TrimSpace(tiers.StripComments(b.String()))
			}
		case in:
			b.WriteString(l.Text + "\n")
		}
	}
	return strings.TrimSpace(tiers.StripComments(b.String()))
}

// templateSummary opens the front-matter summary wake init writes, which
// describes the file, not the project.
const templateSummary = "Identity, purpose and standing directives of "

// ownSummary is a front-matter summary the user wrote: "" for the
// template's.
func ownSummary(s string) string {
	if strings.HasPrefix(strings.TrimSpace(s), templateSummary) {
		return ""
	}
	return s
}

// isSentence reports whether text has at least two words with letters in
// them: enough to rule out an empty section, "TODO" or stray punctuation.
func isSentence(text string) bool {
	n := 0
	for _, w := range strings.Fields(text) {
		if strings.IndexFunc(w, unicode.IsLetter) >= 0 {
			n++
		}
	}
	return n >= 2
}

func firstSentence(text string) string {
	t := tiers.OneLine(text)
	if i := strings.Index(t, ". "); i >= 0 {
		t = t[:i+1]
	}
	const max = 200
	if r := []rune(t); len(r) > max {
		t = string(r[:max]) + "…"
	}
	return t
}

// CheckContinuity is check 2: recent/latest.md holds a session and main.md
// has a HANDOFF block with a session_summary. A first wake passes: there
// is no session yet to continue, and the protocol's announcement for it
// is the first-wake line, not a failure. A HANDOFF older than StaleAfter,
// or with an unreadable time, gives a warning of its own.
func CheckContinuity(m Memory, o Options) []Finding {
	h := handoffOf(m)
	if firstWake(m, h) && m.Main.Readable() && h.Present {
		return []Finding{{Check: Continuity, Pass: true, Severity: OK, Path: tiers.LatestPath,
			Message: "no session yet: nothing has been handed off, so this is the first"}}
	}
	var missing []string
	path := tiers.LatestPath
	switch {
	case m.Latest.Missing:
		missing = append(missing, "recent/latest.md does not exist")
	case !m.Latest.Readable():
		missing = append(missing, "recent/latest.md was not read: "+m.Latest.Skipped)
	case !hasSession(m.Latest):
		missing = append(missing, "recent/latest.md has no session in it")
	}
	if len(missing) == 0 {
		path = tiers.MainPath
	}
	switch {
	case !m.Main.Readable():
		missing = append(missing, "main.md cannot be read, so there is no HANDOFF block")
	case !h.Present:
		missing = append(missing, `main.md has no "## HANDOFF" block`)
	case h.Get(tiers.KeySessionSummary) == "":
		missing = append(missing, "the HANDOFF block in main.md has no session_summary")
	}
	var out []Finding
	if len(missing) > 0 {
		out = append(out, Finding{Check: Continuity, Severity: Fail, Path: path, Message: MsgContinuity, Details: missing})
	} else {
		out = append(out, Finding{Check: Continuity, Pass: true, Severity: OK, Path: tiers.LatestPath,
			Message: "last session: " + tiers.OneLine(h.Get(tiers.KeySessionSummary))})
	}
	if w, ok := staleness(h, o); ok {
		out = append(out, w)
	}
	return out
}

// staleness warns about a HANDOFF block last updated longer ago than
// o.StaleAfter, or whose time cannot be read.
func staleness(h tiers.Handoff, o Options) (Finding, bool) {
	raw := h.Get(tiers.KeyUpdated)
	if raw == "" || o.Now == nil || o.StaleAfter <= 0 {
		return Finding{}, false
	}
	w := Finding{Check: Continuity, Kind: KindStale, Pass: true, Severity: Warning, Path: tiers.MainPath}
	at, err := time.Parse(time.RFC3339, raw)
	if err != nil {
		w.Message = fmt.Sprintf("the HANDOFF updated time %q is not an RFC 3339 time (such as 2026-11-22T03:24:20Z); how old it is cannot be told", raw)
		return w, true
	}
	age := o.Now().Sub(at)
	if age <= o.StaleAfter {
		return Finding{}, false
	}
	w.Message = fmt.Sprintf("the HANDOFF block is stale: updated %s, %s ago (checks.stale_after is %s); recent/ may be out of date",
		at.UTC().Format(time.RFC3339), roughAge(age), o.StaleAfter)
	return w, true
}

func roughAge(d time.Duration) string {
	if days := int(d.Hours() / 24); days >= 2 {
		return fmt.Sprintf("%d days", days)
	}
	return fmt.Sprintf("%d hours", int(d.Hours()))
}

// hasSession reports whether a session summary has content beyond front
// matter, headings and comments.
func hasSession(d tiers.Doc) bool {
	if !d.Readable() {
		return false
	}
	_, body, _ := tiers.SplitFrontMatter(d.Content)
	for _, l := range tiers.Lines(tiers.StripComments(string(body))) {
		if lv, _ := tiers.HeadingLevel(l.Text); lv == 0 && strings.TrimSpace(l.Text) != "" {
			return true
		}
	}
	return false
}

// CheckTasks is check 3: an open task in warm/active_tasks.md or a HANDOFF
// next_priority.
func CheckTasks(m Memory) []Finding {
	open := OpenTasks(m.Tasks)
	focus := Focus(m)
	if focus == "" {
		why := "warm/active_tasks.md has no open task (\"- [ ] …\", or an item under an Active or In progress heading) and the HANDOFF block has no next_priority"
		if !m.Tasks.Readable() {
			why = "warm/active_tasks.md does not exist or cannot be read, and the HANDOFF block has no next_priority"
		}
		return []Finding{{Check: Tasks, Severity: Fail, Path: tiers.TasksPath, Message: MsgTasks, Details: []string{why}}}
	}
	return []Finding{{Check: Tasks, Pass: true, Severity: OK, Path: tiers.TasksPath,
		Message: fmt.Sprintf("current focus: %s; %d open in warm/active_tasks.md", strings.TrimRight(focus, ". "), len(open))}}
}

// Focus is the current task: the HANDOFF next_priority, else the first open
// task; "" when there is neither.
func Focus(m Memory) string {
	if p := tiers.OneLine(handoffOf(m).Get(tiers.KeyNextPriority)); p != "" {
		return p
	}
	if open := OpenTasks(m.Tasks); len(open) > 0 {
		return open[0]
	}
	return ""
}

// OpenTasks lists the open tasks of warm/active_tasks.md in order: every
// unchecked "- [ ]" item, and every top-level list item that is not
// checked off under a heading beginning "Active" or "In progress".
// Comments, front matter and fenced code are not read.
func OpenTasks(d tiers.Doc) []string {
	if !d.Readable() {
		return nil
	}
	_, body, _ := tiers.SplitFrontMatter(d.Content)
	var out []string
	active := false
	for _, l := range tiers.Lines(tiers.StripComments(string(body))) {
		if l.InFence {
			continue
		}
		if lv, title := tiers.HeadingLevel(l.Text); lv > 0 {
			t := strings.ToLower(title)
			active = strings.HasPrefix(t, "active") || strings.HasPrefix(t, "in progress")
			continue
		}
		text, box, top, ok := listItem(l.Text)
		if !ok || text == "" {
			continue
		}
		if box == " " || box == "" && active && top {
			out = append(out, text)
		}
	}
	return out
}

// listItem parses a Markdown list item: its text, its checkbox mark ("" for
// none) and whether it is at the top level.
func listItem(line string) (text, box string, top, ok bool) {
	trim := strings.TrimLeft(line, " \t")
	top = len(line)-len(trim) < 2
	switch {
	case len(trim) >= 2 && strings.ContainsRune("-*+", rune(trim[0])) && (trim[1] == ' ' || trim[1] == '\t'):
		trim = trim[2:]
	default:
		i := strings.IndexFunc(trim, func(r rune) bool { return r < '0' || r > '9' })
		if i <= 0 || i+1 >= len(trim) || (trim[i] != '.' && trim[i] != ')') || trim[i+1] != ' ' {
			return "", "", false, false
		}
		trim = trim[i+2:]
	}
	trim = strings.TrimLeft(trim, " \t")
	if len(trim) >= 3 && trim[0] == '[' && trim[2] == ']' {
		box, trim = string(trim[1]), trim[3:]
	}
	return strings.TrimSpace(trim), box, top, true
}
