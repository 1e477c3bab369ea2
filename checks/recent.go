package checks

import (
	"fmt"
	"strings"

	"github.com/wakeproto/wake/tiers"
)

// Limits of the rule-3 comparison, so that a long cold document costs a
// bounded number of comparisons.
const (
	maxStatements     = 400 // statements of the cold text compared
	maxStatementWords = 24  // a longer line is prose, not a statement
)

// Stale is a statement of a cold text that contradicts what is in force
// now: an active decision, or a decision of the last session.
type Stale struct {
	Line int    // 1-based line of the statement in the cold text
	Text string // the statement
	// With names what it contradicts: "decision 3" or "the last session".
	With     string
	WithText string // that decision's text
	Why      string // how, as the consistency check says it
}

// Recent is what is in force now, for rule 3 (trust recent over cold): the
// active decisions of the log, and the decisions of the last session
// ("Decisions made" in recent/latest.md, each "WHAT because WHY").
type Recent struct {
	Log     tiers.DecisionLog
	Session []string
}

// AgainstRecent finds the statements of a cold text (each short line: a
// list item, a DECISION line, a sentence standing alone) that contradict
// what is in force now, with the consistency check's own detector.
func AgainstRecent(text string, r Recent) []Stale {
	type known struct {
		with, text string
		p          phrase
		claim      choiceClaim
		named      bool // claim holds a named choice and a subject
	}
	c := newComparer()
	var ks []known
	act := active(r.Log)
	if len(act) > maxRecentCompared {
		act = act[len(act)-maxRecentCompared:]
	}
	for _, e := range act {
		k := known{with: fmt.Sprintf("decision %d", e.Number), text: tiers.OneLine(e.What), p: c.phrase(e.What)}
		k.claim, k.named = claimOf(k.text)
		ks = append(ks, k)
	}
	for _, s := range r.Session {
		what := s
		if i := strings.Index(strings.ToLower(s), " because "); i >= 0 {
			what = s[:i]
		}
		k := known{with: "the last session", text: tiers.OneLine(what), p: c.phrase(what)}
		k.claim, k.named = claimOf(k.text)
		ks = append(ks, k)
	}
	if len(ks) == 0 {
		return nil
	}
	var out []Stale
	n, fenced := 0, false
	for i, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "```") {
			fenced = !fenced
			continue
		}
		st := statement(l)
		if fenced || st == "" {
			continue
		}
		if n++; n > maxStatements {
			break
		}
		p := c.phrase(st)
		for _, k := range ks {
			if why, ok := c.contradicts(p, k.p); ok {
				out = append(out, Stale{Line: i + 1, Text: st, With: k.with, WithText: k.text, Why: why})
				break
			}
			if !k.named {
				continue
			}
			if other, ok := otherChoice(st, k.claim); ok {
				out = append(out, Stale{Line: i + 1, Text: st, With: k.with, WithText: k.text,
					Why: fmt.Sprintf("the same subject in other words, with another choice: %q where the decision names %s", other, names(k.claim.choices))})
				break
			}
		}
	}
	return out
}

// statement is the claim a line makes, "" for a line that makes none
// worth comparing: a heading, a fence, a blank, or prose too long. List
// markers and a DECISION entry's date and reason are taken off.
func statement(l string) string {
	t := strings.TrimSpace(l)
	if t == "" || strings.HasPrefix(t, "#") || strings.HasPrefix(t, "```") || strings.HasPrefix(t, "---") || strings.HasPrefix(t, "<!--") {
		return ""
	}
	if item, _, _, ok := listItem(t); ok {
		t = item
	}
	if m := entryHeadText(t); m != "" {
		t = m
	}
	if i := strings.Index(t, " BECAUSE:"); i >= 0 {
		t = t[:i]
	}
	if i := strings.Index(strings.ToLower(t), " because "); i >= 0 {
		t = t[:i]
	}
	t = strings.TrimSpace(strings.TrimRight(t, "."))
	if w := len(strings.Fields(t)); w < 2 || w > maxStatementWords {
		return ""
	}
	return t
}

// entryHeadText is the text after "DECISION:" of a decision entry's
// first line, "" for any other line.
func entryHeadText(t string) string {
	if !strings.HasPrefix(t, "[") {
		return ""
	}
	_, rest, ok := strings.Cut(t, "DECISION:")
	if !ok {
		return ""
	}
	return strings.TrimSpace(rest)
}
