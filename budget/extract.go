package budget

import (
	"strings"
	"unicode/utf8"

	"github.com/wakeproto/wake/tiers"
)

// maxSentenceRunes bounds one extracted sentence, for text that never ends
// one.
const maxSentenceRunes = 300

// Extract returns an extractive summary of a Markdown document: its
// front-matter summary, then each heading followed by the first sentence of
// the text under it (and of the text before the first heading). Nothing is
// reworded; code blocks and HTML comments are left out. Pair it with [Fit]
// to bring the summary within a budget from the bottom up.
func Extract(text string) string {
	meta, _, err := tiers.ParseFrontMatter([]byte(text))
	// The body starts after the front matter even when its YAML is broken.
	_, body, _ := tiers.SplitFrontMatter([]byte(text))
	var b strings.Builder
	if s := strings.Join(strings.Fields(meta.Summary), " "); s != "" && err == nil {
		b.WriteString("Summary: " + s + "\n\n")
	}
	want := true // the first sentence under the current heading is still to come
	var para []string
	flush := func() {
		if len(para) > 0 && want {
			b.WriteString(firstSentence(strings.Join(para, " ")) + "\n\n")
			want = false
		}
		para = nil
	}
	for _, l := range tiers.Lines(tiers.StripComments(string(body))) {
		trim := strings.TrimSpace(l.Text)
		if l.InFence || trim == "" {
			flush()
			continue
		}
		if lv, title := tiers.HeadingLevel(l.Text); lv > 0 {
			flush()
			b.WriteString(strings.Repeat("#", lv) + " " + title + "\n\n")
			want = true
			continue
		}
		if !want {
			continue
		}
		if m := listItem().FindString(l.Text); m != "" {
			flush()
			if !want {
				continue
			}
			trim = strings.TrimSpace(l.Text[len(m):])
		}
		para = append(para, trim)
		if sentenceEnd(trim) >= 0 {
			flush()
		}
	}
	flush()
	out := strings.TrimRight(b.String(), "\n")
	if out == "" {
		return ""
	}
	return out + "\n"
}

// firstSentence returns s up to the end of its first sentence.
func firstSentence(s string) string {
	if i := sentenceEnd(s); i >= 0 {
		s = s[:i]
	}
	if utf8.RuneCountInString(s) > maxSentenceRunes {
		r := []rune(s)
		s = strings.TrimSpace(string(r[:maxSentenceRunes-1])) + "…"
	}
	return s
}

// sentenceEnd returns the offset just past the first sentence's final
// punctuation in s, or -1: a '.', '!' or '?' followed by a space or the end.
func sentenceEnd(s string) int {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '.', '!', '?':
			if i+1 == len(s) || s[i+1] == ' ' {
				return i + 1
			}
		}
	}
	return -1
}
