package tiers

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"gopkg.in/yaml.v3"
)

// Section titles of a session summary, in the order of the Wake Protocol's
// template (section 4.2).
const (
	SessionHappened  = "What happened"
	SessionDecisions = "Decisions made"
	SessionChanged   = "What changed (files)"
	SessionThreads   = "Open threads"
	SessionSuccessor = "For my successor"
)

// Front-matter keys a session summary carries besides summary and
// session: the HANDOFF block's fields, so that the session's record holds
// everything it handed on after the block is overwritten (DESIGN section
// 11). wake reads them from `wake handoff --file` too.
const (
	FrontNextPriority      = "next_priority"
	FrontOpenRisk          = "open_risk"
	FrontEmotionalRegister = "emotional_register"
)

// SessionTimeLayout is how a session's time is written: RFC 3339, UTC,
// whole seconds.
const SessionTimeLayout = "2006-01-02T15:04:05Z"

// ErrSessionTime marks a front-matter session value that is not an RFC 3339
// time.
var ErrSessionTime = errors.New("session is not an RFC 3339 time")

// none is what an empty section of a rendered summary says.
const none = "None."

// List is a list section of a session summary: its bullet items, each one
// line, and whatever else the section holds, kept as written.
type List struct {
	Items []string
	Note  string
}

// Empty reports whether the list says nothing.
func (l List) Empty() bool { return len(l.Items) == 0 && l.Note == "" }

// Extra is a section beyond the template's, kept as written.
type Extra struct {
	Title string
	Body  string
}

// Session is a session summary (recent/latest.md, DESIGN section 2).
type Session struct {
	Summary     string    // front matter summary: the session_summary
	At          time.Time // front matter session, UTC; zero when absent or unparseable
	Sensitivity string    // front matter sensitivity, kept when set

	// The HANDOFF fields a hand-off document may carry in its front matter.
	NextPriority      string
	OpenRisk          string
	EmotionalRegister string

	Title     string // the H1 heading as found; Render always writes "Session <date>"
	Preamble  string // text between the title and the first section
	Happened  List
	Decisions List // items read "WHAT because WHY"
	Changed   List
	Threads   List
	Successor string
	Extra     []Extra // other H2 sections, in order
}

// ParseSession parses a session summary. Malformed front matter and a
// session value that is not an RFC 3339 time (wrapping [ErrSessionTime]) are
// errors, returned together with everything else the document holds.
// Sections are matched by title ignoring case; "What changed" and
// "Decisions" are accepted for the longer titles.
func ParseSession(data []byte) (Session, error) {
	var s Session
	m, body, err := parseFront(data)
	s.Summary, s.Sensitivity = m.Summary, m.Sensitivity
	s.NextPriority, s.OpenRisk, s.EmotionalRegister = m.NextPriority, m.OpenRisk, m.EmotionalRegister
	if err == nil {
		if v := strings.TrimSpace(m.Session); v != "" {
			t, terr := time.Parse(time.RFC3339, v)
			if terr != nil {
				err = fmt.Errorf("front matter: %w: %q", ErrSessionTime, v)
			} else {
				s.At = t.UTC().Truncate(time.Second)
			}
		}
	}
	s.parseBody(string(body))
	return s, err
}

// yamlLine matches a line number in a YAML error.
var yamlLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\bline (\d+)\b`) })

// fileLines rewrites the line numbers of a YAML error in front matter,
// counted from the line after the opening "---", as lines of the file, and
// puts it on one line.
func fileLines(msg string) string {
	msg = yamlLine().ReplaceAllStringFunc(msg, func(m string) string {
		n, err := strconv.Atoi(strings.TrimPrefix(m, "line "))
		if err != nil {
			return m
		}
		return fmt.Sprintf("line %d", n+1)
	})
	msg = strings.TrimPrefix(msg, "yaml: ")
	return strings.Join(strings.Fields(msg), " ")
}

// sessionKind says which part of a session a line belongs to.
type sessionKind int

const (
	kindPreamble sessionKind = iota
	kindHappened
	kindDecisions
	kindChanged
	kindThreads
	kindSuccessor
	kindExtra
)

func sessionSection(title string) sessionKind {
	switch strings.ToLower(strings.Join(strings.Fields(title), " ")) {
	case "what happened":
		return kindHappened
	case "decisions made", "decisions":
		return kindDecisions
	case "what changed (files)", "what changed":
		return kindChanged
	case "open threads":
		return kindThreads
	case "for my successor":
		return kindSuccessor
	}
	return kindExtra
}

func (s *Session) parseBody(body string) {
	parts := map[sessionKind][]Line{}
	var extras [][]Line
	cur, seenH2 := kindPreamble, false
	for _, l := range Lines(body) {
		lv, title := 0, ""
		if !l.InFence {
			lv, title = HeadingLevel(l.Text)
		}
		switch {
		case lv == 1 && !seenH2 && s.Title == "":
			s.Title = title
			continue
		case lv == 2:
			seenH2 = true
			cur = sessionSection(title)
			if cur == kindExtra {
				s.Extra = append(s.Extra, Extra{Title: title})
				extras = append(extras, nil)
			} else if len(parts[cur]) > 0 {
				// A repeated section continues the first, after a break.
				parts[cur] = append(parts[cur], Line{})
			}
			continue
		}
		if cur == kindExtra {
			extras[len(extras)-1] = append(extras[len(extras)-1], l)
		} else {
			parts[cur] = append(parts[cur], l)
		}
	}
	s.Preamble = joinText(parts[kindPreamble])
	s.Happened = parseList(parts[kindHappened])
	s.Decisions = parseList(parts[kindDecisions])
	s.Changed = parseList(parts[kindChanged])
	s.Threads = parseList(parts[kindThreads])
	s.Successor = joinText(parts[kindSuccessor])
	for i := range s.Extra {
		s.Extra[i].Body = joinText(extras[i])
	}
}

// parseList splits a section into bullet items and other text. An item runs
// on over the lines that directly follow it (lazy continuation), joined into
// one line; anything after a blank line that is not a bullet, headings and
// fenced code are kept as the note.
func parseList(lines []Line) List {
	var l List
	var note []Line
	open := false // the previous line belongs to an item
	for _, ln := range lines {
		blank := strings.TrimSpace(ln.Text) == ""
		if item, ok := bullet(ln.Text); ok && !ln.InFence {
			l.Items = append(l.Items, item)
			open = true
			continue
		}
		lv, _ := HeadingLevel(ln.Text)
		if open && !blank && !ln.InFence && lv == 0 {
			i := len(l.Items) - 1
			l.Items[i] = strings.TrimSpace(l.Items[i] + " " + strings.TrimSpace(ln.Text))
			continue
		}
		open = false
		note = append(note, ln)
	}
	kept := l.Items[:0]
	for _, it := range l.Items {
		if it != "" {
			kept = append(kept, it)
		}
	}
	l.Items = kept
	if len(l.Items) == 0 {
		l.Items = nil
	}
	l.Note = joinText(note)
	return l
}

// bullet returns the text of a list item line ("- x", "* x", "+ x", "1. x",
// "1) x").
func bullet(line string) (string, bool) {
	t := strings.TrimLeft(line, " \t")
	n := 0
	for n < len(t) && n < 9 && t[n] >= '0' && t[n] <= '9' {
		n++
	}
	switch {
	case n == 0 && len(t) > 0 && strings.IndexByte("-*+", t[0]) >= 0:
		n = 1
	case n > 0 && n < len(t) && (t[n] == '.' || t[n] == ')'):
		n++
	default:
		return "", false
	}
	if n < len(t) && t[n] != ' ' && t[n] != '\t' {
		return "", false
	}
	return strings.TrimSpace(t[n:]), true
}

// joinText joins lines as written, without leading or trailing blank lines,
// closing a fence left open so the text stands alone wherever it is
// rendered. A text that only says "None." is empty.
func joinText(lines []Line) string {
	for len(lines) > 0 && strings.TrimSpace(lines[0].Text) == "" {
		lines = lines[1:]
	}
	for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1].Text) == "" {
		lines = lines[:len(lines)-1]
	}
	texts := make([]string, len(lines))
	for i, l := range lines {
		texts[i] = l.Text
	}
	out := strings.Join(texts, "\n")
	if f := openFence(out); f != "" {
		out += "\n" + f
	}
	if out == none {
		return ""
	}
	return out
}

// openFence returns the fence that closes a code block left open at the end
// of text, or "".
func openFence(text string) string {
	if !endsInFence(text) {
		return ""
	}
	for _, f := range []string{"```", "~~~"} {
		if !endsInFence(text + "\n" + f) {
			return f
		}
	}
	return ""
}

// endsInFence reports whether a line added after text would be fenced code.
func endsInFence(text string) bool {
	ls := Lines(text + "\n.")
	return ls[len(ls)-1].InFence
}

// Render formats the summary as wake writes it: front matter (summary,
// session, the HANDOFF fields and sensitivity when set, so that the
// session's record keeps what it handed on, and memory_type session),
// "# Session YYYY-MM-DD", any
// preamble, the template's five sections in order, each saying "None."
// when empty, then the extra sections.
func (s Session) Render() []byte {
	var b strings.Builder
	b.WriteString("---\n")
	writeYAML(&b, "summary", s.Summary)
	if !s.At.IsZero() {
		fmt.Fprintf(&b, "session: %s\n", s.At.UTC().Format(SessionTimeLayout))
	}
	for _, f := range []struct{ key, value string }{
		{FrontNextPriority, s.NextPriority}, {FrontOpenRisk, s.OpenRisk}, {FrontEmotionalRegister, s.EmotionalRegister},
		{"sensitivity", s.Sensitivity},
	} {
		if f.value != "" {
			writeYAML(&b, f.key, f.value)
		}
	}
	// The wake-up packet leaves session material out by default (seed
	// 000): the summary says what it is.
	b.WriteString("memory_type: session\n")
	b.WriteString("---\n# Session")
	if !s.At.IsZero() {
		b.WriteString(" " + s.At.UTC().Format("2006-01-02"))
	}
	b.WriteString("\n")
	if s.Preamble != "" {
		b.WriteString("\n" + escapeSections(s.Preamble) + "\n")
	}
	for _, sec := range []struct {
		title string
		list  List
	}{{SessionHappened, s.Happened}, {SessionDecisions, s.Decisions}, {SessionChanged, s.Changed}, {SessionThreads, s.Threads}} {
		writeList(&b, sec.title, sec.list)
	}
	writeText(&b, SessionSuccessor, s.Successor)
	for _, x := range s.Extra {
		title := x.Title
		if strings.HasSuffix(title, "#") {
			// A closing sequence keeps a title's own trailing '#'.
			title += " #"
		}
		writeText(&b, title, x.Body)
	}
	return []byte(b.String())
}

// writeYAML writes key: value as a plain YAML string, never a tagged one:
// invalid UTF-8, which YAML would write as !!binary (and read back decoded),
// is replaced with U+FFFD first.
func writeYAML(b *strings.Builder, key, value string) {
	value = strings.ToValidUTF8(value, "\uFFFD")
	out, err := yaml.Marshal(map[string]string{key: value})
	if err != nil {
		// A string always marshals; keep the value visible regardless.
		out = []byte(fmt.Sprintf("%s: %q\n", key, value))
	}
	b.Write(out)
}

func writeList(b *strings.Builder, title string, l List) {
	fmt.Fprintf(b, "\n## %s\n", title)
	if l.Empty() {
		b.WriteString(none + "\n")
		return
	}
	for _, it := range l.Items {
		b.WriteString("- " + it + "\n")
	}
	if l.Note != "" {
		if len(l.Items) > 0 {
			b.WriteString("\n")
		}
		b.WriteString(escapeSections(l.Note) + "\n")
	}
}

func writeText(b *strings.Builder, title, text string) {
	fmt.Fprintf(b, "\n## %s\n", title)
	if text == "" {
		text = none
	}
	b.WriteString(escapeSections(text) + "\n")
}

// escapeSections escapes the first '#' of every line of free text that
// would read as a level-2 heading ("## What happened" in --successor), so
// that text given to a hand-off cannot open a section of the summary, nor
// a heading wherever the summary is quoted (skill.md). "\## What happened"
// shows as the text it was. Text parsed from a summary holds no such line
// outside code, so a parsed summary renders as it was read.
func escapeSections(text string) string {
	var b strings.Builder
	for _, l := range Lines(text) {
		line := text[l.Start:l.End]
		if lv, _ := HeadingLevel(l.Text); lv == 2 && !l.InFence {
			i := strings.IndexByte(line, '#')
			line = line[:i] + "\\" + line[i:]
		}
		b.WriteString(line)
	}
	return b.String()
}
