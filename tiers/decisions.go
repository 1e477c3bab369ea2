package tiers

import (
	"fmt"
	"strings"
	"time"
)

// Decision statuses (DESIGN section 3).
const (
	StatusActive    = "active"
	StatusReversed  = "reversed"
	StatusContested = "contested"
)

// Decision log field keys. KeyDecision names the entry's first line; the
// others are the fields that may follow it, each on a line of its own.
const (
	KeyDecision   = "DECISION"
	KeyBecause    = "BECAUSE"
	KeyStatus     = "STATUS"
	KeyReversedBy = "REVERSED_BY"
	KeyTopic      = "TOPIC"
	KeyObjection  = "OBJECTION"
	KeyProposed   = "PROPOSED"
	KeyUpheld     = "UPHELD"
	// KeyID is the entry's identity, written by wake on a line of its own
	// (see [DeriveID]). It is never read on the DECISION line: "ID:" is
	// common in prose, and a reason that mentions one stays whole.
	KeyID = "ID"
)

// fieldKeys are the keys that start a field when they open a line. Only
// these do: "NOTE: ..." inside a long REVERSED_BY stays part of it.
var fieldKeys = []string{KeyBecause, KeyStatus, KeyReversedBy, KeyTopic, KeyObjection, KeyProposed, KeyUpheld, KeyID}

// entryHead recognizes an entry's first line, "[date] DECISION: ...": a
// "[" at the start, a date up to the first "]" (no line break in it),
// spaces or tabs, "DECISION:", and the rest of the line (no line break
// either). It returns the date and the value after "DECISION:" as offsets
// into line; ok is false when line is not an entry head. A scan of the
// line once, it gives what the regexp
// ^\[([^\]\n]*)\][ \t]*DECISION:(.*)$ would (FuzzEntryHead holds it to
// that), at a fraction of the cost on every line of a long log.
func entryHead(line string) (dateStart, dateEnd, valStart int, ok bool) {
	if len(line) == 0 || line[0] != '[' {
		return 0, 0, 0, false
	}
	rb := strings.IndexAny(line[1:], "]\n")
	if rb < 0 || line[1+rb] != ']' {
		return 0, 0, 0, false
	}
	dateEnd = 1 + rb
	i := dateEnd + 1
	for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
		i++
	}
	if !strings.HasPrefix(line[i:], KeyDecision+":") {
		return 0, 0, 0, false
	}
	valStart = i + len(KeyDecision) + 1
	if strings.IndexByte(line[valStart:], '\n') >= 0 {
		return 0, 0, 0, false
	}
	return 1, dateEnd, valStart, true
}

// inlineKeys are the keys that start a field written on the DECISION line
// after its reason, as seed 004's one-line form has it: "[date] DECISION:
// what BECAUSE: why STATUS: reversed".
var inlineKeys = []string{KeyStatus, KeyTopic, KeyReversedBy, KeyObjection, KeyProposed, KeyUpheld}

// inlineKeyAt finds those keys in s, left to right and not overlapping:
// each after a space or a tab, written in capitals as wake writes it, and
// followed by ":". Each match is [start, end) of " KEY:" with [keyStart,
// keyEnd) the key's own bytes; first stops at the first. It is what the
// regexp [ \t](STATUS|TOPIC|REVERSED_BY|OBJECTION|PROPOSED|UPHELD): would
// find (FuzzInlineKeys holds it to that), without a regexp per line.
func inlineKeyAt(s string, first bool) [][4]int {
	var out [][4]int
	for i := 0; i < len(s); i++ {
		if s[i] != ' ' && s[i] != '\t' {
			continue
		}
		for _, k := range inlineKeys {
			if len(s)-i-1 > len(k) && s[i+1+len(k)] == ':' && s[i+1:i+1+len(k)] == k {
				out = append(out, [4]int{i, i + 2 + len(k), i + 1, i + 1 + len(k)})
				i += 1 + len(k) // the loop steps past the colon
				break
			}
		}
		if first && len(out) > 0 {
			break
		}
	}
	return out
}

// Span is a byte range [Start, End) of the decision log; both are -1 when
// the thing it locates is absent.
type Span struct {
	Start, End int
}

// Field is one field of an entry. The entry's first line is a field too,
// with Key "DECISION" and the text after "DECISION:" as its value.
type Field struct {
	Key string
	// Value is the text after "KEY:" on the first line, trimmed, followed
	// by each continuation line as it stands, joined with "\n".
	Value string
	Line  int  // 1-based line of the key
	Bytes Span // the field's lines, newline included
	// First is the first line's value, trimmed, as it sits in the file.
	First Span
}

// Decision is one entry of warm/decisions.md.
type Decision struct {
	Number int // 1, 2, 3… in file order: it moves when entries are added by hand
	// ID is the value of the entry's first ID line, which does not move;
	// "" when it has none (written by hand, and wake has not written the
	// log since).
	ID   string
	Line int // 1-based line of the "[date] DECISION:" line
	// EndLine is the entry's last line.
	EndLine int
	// Bytes is the entry in the file, from its first byte to just past
	// its last line's newline (or the end of the file).
	Bytes Span
	Raw   string // the entry's bytes
	Date  string // as written between the brackets
	What  string // the decision
	Why   string // the reason after BECAUSE:
	// Status is the first STATUS value in lower case; "" when the entry
	// has no STATUS line (read as active).
	Status string
	// StatusValue locates that value; -1s when there is no STATUS line.
	StatusValue Span
	Fields      []Field // in file order, the DECISION line first
}

// MalformedLine is a line of the decision log that is not part of a valid
// entry, or a problem with an entry, kept as written.
type MalformedLine struct {
	Line   int
	Text   string
	Reason string
}

// DecisionLog is a parsed warm/decisions.md.
type DecisionLog struct {
	Entries   []Decision
	Malformed []MalformedLine
	// OpenComment is the line of an HTML comment ("<!--") that is never
	// closed, hiding the rest of the file; 0 when there is none.
	OpenComment int
}

// Entry returns entry n (1-based).
func (l DecisionLog) Entry(n int) (Decision, bool) {
	if n < 1 || n > len(l.Entries) {
		return Decision{}, false
	}
	return l.Entries[n-1], true
}

// Values returns the values of every field named key, in file order.
func (d Decision) Values(key string) []string {
	var out []string
	for _, f := range d.Fields {
		if f.Key == key {
			out = append(out, f.Value)
		}
	}
	return out
}

// Value returns the last value of the field named key, "" when absent.
func (d Decision) Value(key string) string {
	vs := d.Values(key)
	if len(vs) == 0 {
		return ""
	}
	return vs[len(vs)-1]
}

// Topic returns the entry's TOPIC, "" when it has none.
func (d Decision) Topic() string { return d.Value(KeyTopic) }

// ReversedBy returns the entry's REVERSED_BY text, "" when it has none.
func (d Decision) ReversedBy() string { return d.Value(KeyReversedBy) }

// HasStatus reports whether the entry has a STATUS line.
func (d Decision) HasStatus() bool { return d.StatusValue.Start >= 0 }

// Active reports whether the entry is in force: STATUS active, or no STATUS
// line at all.
func (d Decision) Active() bool { return d.Status == StatusActive || d.Status == "" }

// Title is the entry in one line: "[date] what".
func (d Decision) Title() string {
	return fmt.Sprintf("[%s] %s", d.Date, OneLine(d.What))
}

// OneLine joins a multi-line field value into one line.
func OneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// ParseDecisions parses the decision log. It never fails: lines that are
// not part of an entry are reported in Malformed with their line numbers,
// as are entries with a bad date, no reason or an unknown status. Front
// matter, headings, blank lines and HTML comments are not entries and not
// malformed.
func ParseDecisions(data []byte) DecisionLog {
	return parseDecisions(data, entryHead, inlineKeyAt)
}

// headFunc recognizes an entry's first line: see [entryHead]. keysFunc
// finds the fields written on it: see [inlineKeyAt]. The tests parse with
// the regexps they replace.
type (
	headFunc func(line string) (dateStart, dateEnd, valStart int, ok bool)
	keysFunc func(s string, first bool) [][4]int
)

func parseDecisions(data []byte, head headFunc, keys keysFunc) DecisionLog {
	p := &decisionParser{text: string(data), head: head, keys: keys}
	_, body, ok := SplitFrontMatter(data)
	base := 0
	if ok {
		base = len(data) - len(body)
		p.line = strings.Count(p.text[:base], "\n")
	}
	for _, l := range Lines(p.text[base:]) {
		p.line++
		p.next(Line{Text: l.Text, Start: l.Start + base, End: l.End + base})
	}
	p.close()
	if p.comment > 0 {
		p.log.OpenComment = p.comment
		p.malformed(p.comment, "<!--", "HTML comment is never closed; the rest of the file is ignored")
	}
	return p.log
}

type decisionParser struct {
	head    headFunc
	keys    keysFunc
	text    string
	line    int
	comment int // line where an unclosed HTML comment opened; 0 outside one
	cur     *Decision
	log     DecisionLog
}

func (p *decisionParser) next(l Line) {
	trim := strings.TrimSpace(l.Text)
	switch {
	case p.comment > 0:
		if strings.Contains(l.Text, "-->") {
			p.comment = 0
		}
	case trim == "":
		p.close()
	case strings.HasPrefix(trim, "<!--"):
		p.close()
		if !strings.Contains(trim[4:], "-->") {
			p.comment = p.line
		}
	case isHeading(l.Text):
		p.close()
	case p.isHead(l.Text):
		p.close()
		p.open(l)
	case p.cur == nil:
		p.malformed(p.line, l.Text, "not part of a decision entry (an entry starts \"[YYYY-MM-DD] DECISION:\")")
	default:
		p.add(l)
	}
}

func isHeading(text string) bool {
	lv, _ := HeadingLevel(text)
	return lv > 0
}

func (p *decisionParser) isHead(line string) bool {
	_, _, _, ok := p.head(line)
	return ok
}

func (p *decisionParser) open(l Line) {
	ds, de, vs, _ := p.head(l.Text)
	d := &Decision{
		Number: len(p.log.Entries) + 1, Line: p.line, EndLine: p.line,
		Bytes: Span{l.Start, l.End}, Date: l.Text[ds:de], StatusValue: Span{-1, -1},
	}
	p.cur = d
	p.inline(l, l.Start+vs, l.Start+len(l.Text))
}

// InlineKey returns the first field key a reason holds where, written on
// the DECISION line after "BECAUSE:", it would start a field of its own
// ("STATUS:" in "... BECAUSE: why STATUS: reversed"); "" when none.
func InlineKey(why string) string {
	ms := inlineKeyAt(" "+why, true)
	if len(ms) == 0 {
		return ""
	}
	return why[ms[0][2]-1:ms[0][3]-1] + ":"
}

// inline reads the DECISION line's value in [vs, ve): the decision and its
// reason, then each field written on the same line after the reason, each
// running to the next one. Before "BECAUSE:" nothing is split, so that a
// decision may say "STATUS:" in its text.
func (p *decisionParser) inline(l Line, vs, ve int) {
	val := p.text[vs:ve]
	after := strings.Index(val, KeyBecause+":")
	if after < 0 {
		p.field(KeyDecision, l, vs, ve)
		return
	}
	after += len(KeyBecause) + 1
	ms := p.keys(val[after:], false)
	if len(ms) == 0 {
		p.field(KeyDecision, l, vs, ve)
		return
	}
	end := vs + after + ms[0][0]
	p.field(KeyDecision, l, vs, end)
	for i, m := range ms {
		key := val[after+m[2] : after+m[3]]
		keyStart, valStart := vs+after+m[2], vs+after+m[1]
		valEnd := ve
		if i+1 < len(ms) {
			valEnd = vs + after + ms[i+1][0]
		}
		p.field(key, l, valStart, valEnd)
		// The field is its part of the line, not the whole line.
		f := &p.cur.Fields[len(p.cur.Fields)-1]
		f.Bytes = Span{keyStart, valEnd}
	}
}

// field starts a field whose first-line value lies in [vs, ve) of the file.
func (p *decisionParser) field(key string, l Line, vs, ve int) {
	raw := p.text[vs:ve]
	lead := len(raw) - len(strings.TrimLeft(raw, " \t"))
	val := strings.TrimSpace(raw)
	first := Span{vs + lead, vs + lead + len(val)}
	p.cur.Fields = append(p.cur.Fields, Field{Key: key, Value: val, Line: p.line, Bytes: Span{l.Start, l.End}, First: first})
}

func (p *decisionParser) add(l Line) {
	d := p.cur
	d.EndLine, d.Bytes.End = p.line, l.End
	trim := strings.TrimLeft(l.Text, " \t")
	for _, k := range fieldKeys {
		if strings.HasPrefix(trim, k+":") {
			vs := l.Start + len(l.Text) - len(trim) + len(k) + 1
			p.field(k, l, vs, l.Start+len(l.Text))
			return
		}
	}
	f := &d.Fields[len(d.Fields)-1]
	f.Value += "\n" + l.Text
	f.Bytes.End = l.End
}

// close finishes the entry being read, if any.
func (p *decisionParser) close() {
	d := p.cur
	if d == nil {
		return
	}
	p.cur = nil
	d.Raw = p.text[d.Bytes.Start:d.Bytes.End]
	if _, err := time.Parse("2006-01-02", d.Date); err != nil {
		p.malformed(d.Line, firstLine(d.Raw), fmt.Sprintf("entry %d: date %q is not YYYY-MM-DD", d.Number, d.Date))
	}
	p.reason(d)
	p.status(d)
	p.id(d)
	p.log.Entries = append(p.log.Entries, *d)
}

// reason splits the DECISION text at its first "BECAUSE:", else takes a
// BECAUSE field of its own.
func (p *decisionParser) reason(d *Decision) {
	what, why, found := strings.Cut(d.Fields[0].Value, KeyBecause+":")
	d.What = strings.TrimSpace(what)
	if found {
		d.Why = strings.TrimSpace(why)
	} else {
		d.Why = d.Value(KeyBecause)
	}
	if d.What == "" {
		p.malformed(d.Line, firstLine(d.Raw), fmt.Sprintf("entry %d: the decision text is empty", d.Number))
	}
	if strings.TrimSpace(d.Why) == "" {
		p.malformed(d.Line, firstLine(d.Raw), fmt.Sprintf("entry %d: no reason (BECAUSE:)", d.Number))
	}
}

func (p *decisionParser) status(d *Decision) {
	for _, f := range d.Fields {
		if f.Key != KeyStatus {
			continue
		}
		if d.HasStatus() {
			p.malformed(f.Line, firstLine(p.text[f.Bytes.Start:f.Bytes.End]), fmt.Sprintf("entry %d: a second STATUS line; the first one counts", d.Number))
			continue
		}
		d.StatusValue = f.First
		d.Status = strings.ToLower(p.text[f.First.Start:f.First.End])
		switch d.Status {
		case StatusActive, StatusReversed, StatusContested:
		default:
			p.malformed(f.Line, firstLine(p.text[f.Bytes.Start:f.Bytes.End]), fmt.Sprintf("entry %d: STATUS %q is not active, reversed or contested", d.Number, d.Status))
		}
	}
}

func (p *decisionParser) malformed(line int, text, reason string) {
	p.log.Malformed = append(p.log.Malformed, MalformedLine{Line: line, Text: text, Reason: reason})
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return strings.TrimRight(l, "\r")
}
