package store

import (
	"fmt"
	"strings"
	"time"

	"github.com/wakeproto/wake/tiers"
)

// Block holds the values of main.md's HANDOFF block (DESIGN section 2).
type Block struct {
	Updated           time.Time
	SessionSummary    string
	NextPriority      string
	OpenRisk          string
	EmotionalRegister string
}

// Fields returns the block's key: value pairs in the order wake writes them.
func (b Block) Fields() [][2]string {
	return [][2]string{
		{tiers.KeyUpdated, b.Updated.UTC().Format(tiers.SessionTimeLayout)},
		{tiers.KeySessionSummary, b.SessionSummary},
		{tiers.KeyNextPriority, b.NextPriority},
		{tiers.KeyOpenRisk, b.OpenRisk},
		{tiers.KeyEmotionalRegister, b.EmotionalRegister},
	}
}

// In reports whether main.md's HANDOFF block holds exactly these values.
func (b Block) In(main []byte) bool {
	h := tiers.ParseMain(main).Handoff
	if !h.Present {
		return false
	}
	for _, kv := range b.Fields() {
		if v, ok := h.Fields[kv[0]]; !ok || v != kv[1] {
			return false
		}
	}
	return true
}

// ReplaceBlock returns main.md with its HANDOFF block's five keys set to b.
// Every byte outside the block stays as it was, and so does every line in
// the block that is not one of the five keys; a key the block lacks is
// added after the last key it has. A main.md without the block gets one
// where the skeleton has it and seed 001 reads it, after the identity
// (see [placeBlock]), else at the end; appended says one was added. It is an error when the result would not
// read back with these values (a code fence left open above the block).
func ReplaceBlock(main []byte, b Block) (out []byte, appended bool, err error) {
	for _, kv := range b.Fields() {
		if strings.ContainsAny(kv[1], "\r\n") {
			return nil, false, fmt.Errorf("HANDOFF %s must be one line", kv[0])
		}
	}
	text := string(main)
	m := tiers.ParseMain(main)
	if m.Handoff.Present {
		sec := m.Handoff.Section
		head := text[:sec.BodyStart]
		if head != "" && !strings.HasSuffix(head, "\n") {
			head += eolOf(text)
		}
		out = []byte(head + rewriteFields(text[sec.BodyStart:sec.End], b, eolOf(text)) + text[sec.End:])
	} else {
		appended = true
		out = []byte(insertBlock(text, b))
	}
	if !b.In(out) {
		return nil, appended, fmt.Errorf("%s: the HANDOFF block would not read back (is a code fence left open above it?)", tiers.MainPath)
	}
	return out, appended, nil
}

func fieldLine(kv [2]string) string {
	if kv[1] == "" {
		return kv[0] + ":"
	}
	return kv[0] + ": " + kv[1]
}

// rewriteFields sets the known keys in a HANDOFF block's body.
func rewriteFields(body string, b Block, eol string) string {
	values := map[string]string{}
	for _, kv := range b.Fields() {
		values[kv[0]] = fieldLine(kv)
	}
	type line struct{ text, eol string }
	var lines []line
	seen := map[string]bool{}
	insertAt := 0
	for _, l := range tiers.Lines(body) {
		ln := line{body[l.Start:l.End], ""}
		ln.text = strings.TrimRight(ln.text, "\r\n")
		ln.eol = body[l.Start+len(ln.text) : l.End]
		// Keys are found as tiers.ParseMain finds them, fenced or not, so
		// that what is written is what is read.
		if k, _, ok := strings.Cut(l.Text, ":"); ok {
			if v, known := values[strings.TrimSpace(k)]; known {
				ln.text = v
				seen[strings.TrimSpace(k)] = true
				insertAt = len(lines) + 1
			}
		}
		lines = append(lines, ln)
	}
	var missing []line
	for _, kv := range b.Fields() {
		if !seen[kv[0]] {
			missing = append(missing, line{fieldLine(kv), eol})
		}
	}
	lines = append(lines[:insertAt], append(missing, lines[insertAt:]...)...)
	var out strings.Builder
	for i, ln := range lines {
		if ln.eol == "" && i < len(lines)-1 {
			ln.eol = eol
		}
		out.WriteString(ln.text + ln.eol)
	}
	return out.String()
}

// placeBlock is where a HANDOFF block goes in a main.md without one: the
// end of its Identity section when another section follows; without an
// Identity section, the first second-level section after the title,
// whose opening is the identity of a hand-written main.md. -1 when
// neither is there: the block goes at the end.
func placeBlock(text string) int {
	secs := tiers.Sections(text, 2)
	for i, s := range secs {
		if strings.EqualFold(s.Title, tiers.SectionIdentity) {
			if i+1 < len(secs) && s.End == secs[i+1].Start {
				return s.End
			}
			return -1
		}
	}
	if len(secs) > 0 && opening(text[:secs[0].Start]) {
		return secs[0].Start
	}
	return -1
}

// opening reports whether the text before main.md's first section is a
// title and words under it: the identity of a main.md written without an
// Identity section.
func opening(text string) bool {
	if _, body, ok := tiers.SplitFrontMatter([]byte(text)); ok {
		text = string(body)
	}
	if tiers.FirstHeading(text) == "" {
		return false
	}
	for _, l := range tiers.Lines(tiers.StripComments(text)) {
		if t := strings.TrimSpace(l.Text); t != "" && !strings.HasPrefix(t, "#") {
			return true
		}
	}
	return false
}

// insertBlock adds a HANDOFF block with b's values at [placeBlock], a
// blank line before and after it.
func insertBlock(text string, b Block) string {
	at := placeBlock(text)
	if at < 0 {
		return appendBlock(text, b)
	}
	eol := eolOf(text)
	head := text[:at]
	if !strings.HasSuffix(head, eol+eol) {
		head += eol
	}
	block := "## " + tiers.SectionHandoff + eol
	for _, kv := range b.Fields() {
		block += fieldLine(kv) + eol
	}
	return head + block + eol + text[at:]
}

func appendBlock(text string, b Block) string {
	eol := eolOf(text)
	if text != "" && !strings.HasSuffix(text, "\n") {
		text += eol
	}
	if text != "" && !strings.HasSuffix(text, eol+eol) {
		text += eol
	}
	text += "## " + tiers.SectionHandoff + eol
	for _, kv := range b.Fields() {
		text += fieldLine(kv) + eol
	}
	return text
}

// eolOf returns the line ending text uses: "\r\n" when its first line ends
// so, else "\n".
func eolOf(text string) string {
	if i := strings.IndexByte(text, '\n'); i > 0 && text[i-1] == '\r' {
		return "\r\n"
	}
	return "\n"
}
