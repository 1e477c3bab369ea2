package transcript

import (
	"strings"
	"unicode"
)

// StopReasonOpening opens the reason wake's Stop hook gives when it asks
// for a hand-off. A client records the reason in the transcript as the
// hook's feedback, and the agent's reply to it follows: the reading tells
// that reply from the session's work by it.
const StopReasonOpening = "wake: this session "

// isStopFeedback recognises the record of wake's Stop hook reason in a
// transcript: Claude Code's "Stop hook feedback:" turn, or Codex's
// <hook_prompt> message, carrying the reason.
func isStopFeedback(text string) bool {
	t := strings.TrimSpace(text)
	return (strings.HasPrefix(t, "Stop hook feedback:") || strings.HasPrefix(t, "<hook_prompt")) &&
		strings.Contains(t, StopReasonOpening)
}

// maxFollowUps is the most open follow-ups kept of a message, and
// maxFollowUp the most bytes of each.
const (
	maxFollowUps = 5
	maxFollowUp  = 240
)

// followUpMarks are what a sentence says when it leaves something to do:
// conservative, so that a sentence merely mentioning work ("the remaining
// tests pass", "next to the parser") is not one. Matched in lower case.
var followUpMarks = []string{
	"still need", "still has to", "still have to", "still to do", "still to be", "still missing",
	"todo:", "to do:", "not yet", "yet to", "left to do", "left to be", "is left to", "are left to",
	"remains to", "remain to", "remaining:", "remaining work", "remaining step", "remaining task",
	"next step", "next:", "follow-up", "follow up:",
}

// followUpDenials make a sentence say that nothing is left.
var followUpDenials = []string{"nothing ", "no todo", "no remaining", "no follow-up", "none ", "no further", "no next step", "no more "}

// FollowUps are the sentences of an agent's message that say something is
// still to be done ("the golden files still need regenerating", "TODO:
// ...", "not yet tested"), in order, each one line: a deterministic
// reading, without a model, and a conservative one. A line that
// announces a list ("Remaining:", "Next steps:") brings the list's items
// under it.
func FollowUps(text string) []string {
	var out []string
	add := func(s string) bool {
		if s = oneLine(s, 0); s != "" && len(out) < maxFollowUps {
			out = append(out, Shorten(s, maxFollowUp))
		}
		return len(out) < maxFollowUps
	}
	list := false // the lines read are the items of an announced list
	for line := range strings.SplitSeq(text, "\n") {
		item, bullet := listItem(line)
		switch {
		case list && bullet:
			if !add(item) {
				return out
			}
			continue
		case list && strings.TrimSpace(line) == "":
			continue
		}
		list = false
		for _, s := range sentences(item) {
			if !isFollowUp(s) {
				continue
			}
			if strings.HasSuffix(strings.TrimSpace(s), ":") {
				list = true // its items follow; the heading itself says nothing
				continue
			}
			if !add(s) {
				return out
			}
		}
	}
	return out
}

func isFollowUp(s string) bool {
	l := strings.ToLower(s)
	for _, d := range followUpDenials {
		if strings.Contains(l, d) {
			return false
		}
	}
	for _, m := range followUpMarks {
		if i := strings.Index(l, m); i >= 0 && wordStart(l, i) {
			return true
		}
	}
	// TODO in capitals only: "the todo note" is the name of a thing.
	i := strings.Index(s, "TODO")
	return i >= 0 && wordStart(s, i)
}

// wordStart reports whether a match at i begins a word ("todo", not
// "mastodon").
func wordStart(s string, i int) bool {
	if i == 0 {
		return true
	}
	r := rune(s[i-1])
	return !unicode.IsLetter(r) && !unicode.IsDigit(r)
}

// listItem is a line without its list marker ("- ", "* ", "• ", "1. "),
// and whether it had one.
func listItem(line string) (string, bool) {
	t := strings.TrimSpace(line)
	for _, p := range []string{"- ", "* ", "• ", "+ "} {
		if s, ok := strings.CutPrefix(t, p); ok {
			return s, true
		}
	}
	if i := strings.IndexAny(t, ".)"); i > 0 && i <= 3 && strings.Trim(t[:i], "0123456789") == "" && strings.HasPrefix(t[i+1:], " ") {
		return t[i+2:], true
	}
	return t, false
}

// sentences splits a line at each ". ", "! " and "? ", keeping the mark.
func sentences(line string) []string {
	var out []string
	start := 0
	for i := 0; i+1 < len(line); i++ {
		if (line[i] == '.' || line[i] == '!' || line[i] == '?') && line[i+1] == ' ' {
			out = append(out, line[start:i+1])
			start = i + 2
		}
	}
	return append(out, line[start:])
}
