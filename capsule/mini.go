package capsule

import (
	"strings"
	"unicode"

	"github.com/wakeproto/wake/budget"
)

// MiniOutline are the sections a mini capsule keeps, in order: the seed's
// miniature for lightweight tasks is the mission, what is pending and the
// decisions that bear on it.
var MiniOutline = []string{MissionSnapshot, KeyDecisions, PendingActions}

// MiniBuilt is a capsule's miniature as [Mini] made it.
type MiniBuilt struct {
	// Capsule has c's front matter and the sections of MiniOutline only.
	Capsule Capsule
	Tokens  int // the body's exact size
	Cuts    []budget.Cut
	// Unrelated counts the decisions of the whole capsule that bear on
	// none of its pending actions, left out before any fitting.
	Unrelated int
}

// The priorities of a mini capsule's lines: the snapshot's lines after
// the objective (status, the note to the successor: narrative) go first,
// then the decisions, then the pending actions, the blocked ones last;
// the objective is never cut. A lightweight task needs what to do before
// why.
const (
	miniSnapshot = 10
	miniDecision = 15
	miniAction   = 20
	miniBlocked  = 25
)

// Mini makes the miniature of capsule c for a subagent on a lightweight
// task: its Mission Snapshot, its Pending Actions, and those of its Key
// Decisions that bear on them — a contested one, or one that shares a
// word of four letters or more (common words aside) with a pending action
// or the objective. The body is fitted to limit tokens counted exactly by
// counter, cutting whole lines bottom-up: the snapshot's narrative first,
// then decisions, then actions, and the objective never. where names the capsule in the cut records.
func Mini(c Capsule, limit int, counter budget.Counter, where string) MiniBuilt {
	mission := lines(c.Section(MissionSnapshot))
	actions := lines(c.Section(PendingActions))
	words := map[string]bool{}
	for _, l := range actions {
		addWords(words, l)
	}
	if len(mission) > 0 {
		addWords(words, mission[0])
	}
	var decisions []string
	unrelated := 0
	for _, d := range lines(c.Section(KeyDecisions)) {
		if strings.Contains(d, "**Contested**") || bears(d, words) {
			decisions = append(decisions, d)
		} else if strings.HasPrefix(d, "- ") {
			unrelated++
		}
	}
	type line struct {
		sec  int
		text string
		prio int
	}
	var ls []line
	for i, l := range mission {
		p := miniSnapshot
		if i == 0 {
			p = budget.Keep
		}
		ls = append(ls, line{0, l, p})
	}
	for _, l := range decisions {
		ls = append(ls, line{1, l, miniDecision})
	}
	for _, l := range actions {
		p := miniAction
		if strings.Contains(l, "**Blocked:**") {
			p = miniBlocked
		}
		ls = append(ls, line{2, l, p})
	}
	pieces := make([]budget.Piece, len(ls))
	for i, l := range ls {
		pieces[i] = budget.Piece{Text: l.text + "\n", What: l.text, Where: budget.Where(where, MiniOutline[l.sec]), Priority: l.prio}
	}
	f := &budget.Fitter{Counter: counter, Limit: limit, Pieces: pieces}
	body := func() (Capsule, string) {
		m := Capsule{Front: c.Front, Sections: make([]Section, len(MiniOutline))}
		kept := make([][]string, len(MiniOutline))
		for i, l := range ls {
			if !f.IsCut(i) {
				kept[l.sec] = append(kept[l.sec], l.text)
			}
		}
		var b strings.Builder
		for i, t := range MiniOutline {
			m.Sections[i] = Section{Title: t, Body: strings.Join(kept[i], "\n")}
			if i > 0 {
				b.WriteString("\n")
			}
			b.WriteString(RenderSection(m.Sections[i]))
		}
		return m, b.String()
	}
	f.Measure = func() int { _, s := body(); return counter.Count(s) }
	var out MiniBuilt
	out.Tokens = f.Fit()
	out.Capsule, _ = body()
	out.Cuts = f.Cuts()
	out.Unrelated = unrelated
	return out
}

// lines are the non-blank lines of a section's body, less the notes of
// items the whole capsule cut to fit its own budget.
func lines(body string) []string {
	var out []string
	for _, l := range strings.Split(body, "\n") {
		if strings.TrimSpace(l) == "" || strings.Contains(l, "cut to fit capsule.max_tokens") {
			continue
		}
		out = append(out, l)
	}
	return out
}

// commonWords are left out of the words that tie a decision to an action.
var commonWords = map[string]bool{
	"about": true, "after": true, "also": true, "because": true, "been": true, "before": true, "blocked": true,
	"does": true, "done": true, "each": true, "from": true, "have": true, "into": true, "make": true,
	"more": true, "must": true, "need": true, "next": true, "once": true, "only": true, "over": true,
	"should": true, "some": true, "than": true, "that": true, "them": true, "then": true, "there": true,
	"they": true, "this": true, "used": true, "what": true, "when": true, "which": true, "will": true,
	"with": true, "work": true, "would": true, "your": true, "objective": true, "contested": true,
}

// wordsOf are the lower-case words of s of four letters or more, common
// ones and a decision's log reference aside.
func wordsOf(s string) []string {
	if i := strings.Index(s, "(`"); i >= 0 {
		s = s[:i]
	}
	var out []string
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if len([]rune(w)) >= 4 && !commonWords[w] && strings.IndexFunc(w, unicode.IsLetter) >= 0 {
			out = append(out, w)
		}
	}
	return out
}

func addWords(set map[string]bool, s string) {
	for _, w := range wordsOf(s) {
		set[w] = true
	}
}

// bears reports whether decision line d shares a word with words.
func bears(d string, words map[string]bool) bool {
	for _, w := range wordsOf(d) {
		if words[w] {
			return true
		}
	}
	return false
}
