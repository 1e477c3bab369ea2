package wakeup

import (
	"regexp"
	"strings"
	"sync"

	"github.com/wakeproto/wake/tiers"
)

// reversalRe finds a reversal condition a decision's text gives: the
// clause from "unless", "until", or "revisit/reverse/reconsider if/when" to
// the end of its sentence.
var reversalRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(unless|until|(?:revisit|reverse|reconsider|revise)\s+(?:it\s+|this\s+)?(?:if|when|once))\b[^.;\n]*`)
})

// reversalIn returns the reversal condition text gives, or "".
func reversalIn(text string) string {
	return tiers.ShortLine(strings.TrimSpace(reversalRe().FindString(text)))
}

// incidentParts takes an incident note's consequence and prevention from
// its sections (## Consequence or Impact; ## Prevention, Caution or
// Lesson), the first line of each, "" when it has none.
func incidentParts(body string) (consequence, prevention string) {
	for _, s := range tiers.Sections(body, 2) {
		name := strings.ToLower(strings.TrimSpace(s.Title))
		text := firstLine(tiers.StripComments(s.Body(body)))
		switch {
		case consequence == "" && (strings.HasPrefix(name, "consequence") || strings.HasPrefix(name, "impact")):
			consequence = text
		case prevention == "" && (strings.HasPrefix(name, "prevention") || strings.HasPrefix(name, "caution") || strings.HasPrefix(name, "lesson")):
			prevention = text
		}
	}
	return consequence, prevention
}

// firstParagraph is the first paragraph of text as one line, cut at
// maxParagraph runes.
func firstParagraph(text string) string {
	var words []string
	for l := range strings.Lines(text) {
		l = strings.TrimSpace(l)
		if l == "" {
			if len(words) > 0 {
				break
			}
			continue
		}
		words = append(words, l)
	}
	s := tiers.Printable(strings.Join(strings.Fields(strings.Join(words, " ")), " "))
	if r := []rune(s); len(r) > maxParagraph {
		s = string(r[:maxParagraph-1]) + "…"
	}
	return s
}

const maxParagraph = 400

// firstLine is the first non-blank line of text, without a list marker,
// as one short line.
func firstLine(text string) string {
	for l := range strings.Lines(text) {
		l = strings.TrimSpace(l)
		l = strings.TrimSpace(strings.TrimLeft(l, "-*+"))
		if l != "" {
			return tiers.ShortLine(l)
		}
	}
	return ""
}

// bullets returns the list items of a Markdown section's body, one line
// each (a continuation line is joined to its item).
func bullets(body string) []string {
	var out []string
	for l := range strings.Lines(tiers.StripComments(body)) {
		t := strings.TrimSpace(l)
		switch {
		case t == "":
		case strings.HasPrefix(t, "- ") || strings.HasPrefix(t, "* ") || strings.HasPrefix(t, "+ "):
			out = append(out, strings.TrimSpace(t[2:]))
		case len(out) > 0 && (strings.HasPrefix(l, " ") || strings.HasPrefix(l, "\t")):
			out[len(out)-1] += " " + t
		}
	}
	for i := range out {
		out[i] = tiers.ShortLine(out[i])
	}
	return out
}
