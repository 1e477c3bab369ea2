package merge

import (
	"strings"
	"time"

	"github.com/wakeproto/wake/tiers"
)

// MergeView merges recent/latest.md or recent/previous.md, a view of the
// session records: the side whose session is newer (its "session:", else
// "updated:" time) is taken whole; ours when they tie or neither says.
func MergeView(ours, theirs []byte) []byte {
	if viewTime(theirs).After(viewTime(ours)) {
		return theirs
	}
	return ours
}

// viewTime is a view's session time, zero when it has none readable.
func viewTime(data []byte) time.Time {
	y, _, ok := tiers.SplitFrontMatter(data)
	if !ok {
		return time.Time{}
	}
	var best time.Time
	for _, l := range strings.Split(string(y), "\n") {
		k, v, ok := strings.Cut(strings.TrimSpace(l), ":")
		if !ok || (k != "session" && k != tiers.KeyUpdated) {
			continue
		}
		v = strings.Trim(strings.TrimSpace(v), `"'`)
		if t, err := time.Parse(time.RFC3339, v); err == nil && (k == "session" || best.IsZero()) {
			best = t
		}
	}
	return best
}

// handoffMark stands for the HANDOFF block while the rest of main.md is
// merged as prose.
const handoffMark = "@@wake merge: the HANDOFF block@@"

// MergeMain merges main.md: the HANDOFF block is a view, taken from the
// side with the newer "updated:"; everything else is the user's prose,
// merged three-way by git, with conflict markers only where both sides
// changed the same lines.
func MergeMain(o Options, base, ours, theirs []byte) (Result, error) {
	bt, _ := cutHandoff(base)
	ot, ob := cutHandoff(ours)
	tt, tb := cutHandoff(theirs)
	block := ob
	if handoffTime(tb).After(handoffTime(ob)) {
		block = tb
	}
	r, err := prose(o, []byte(bt), []byte(ot), []byte(tt))
	if err != nil {
		return r, err
	}
	text := string(r.Data)
	if i := strings.Index(text, handoffMark); i >= 0 {
		// The mark's line, in whichever line ending its side gave it.
		end := i + len(handoffMark)
		if strings.HasPrefix(text[end:], "\r\n") {
			end += 2
		} else if strings.HasPrefix(text[end:], "\n") {
			end++
		}
		text = text[:i] + block + strings.ReplaceAll(text[end:], handoffMark, "")
	}
	r.Data = []byte(text)
	return r, nil
}

// cutHandoff takes the HANDOFF section out of main.md, leaving a line of
// its own in its place, and returns both.
func cutHandoff(data []byte) (text, block string) {
	m := tiers.ParseMain(data)
	if !m.Handoff.Present {
		return string(data), ""
	}
	s := m.Handoff.Section
	eol := eolOf(m.Text)
	return m.Text[:s.Start] + handoffMark + eol + m.Text[s.End:], m.Text[s.Start:s.End]
}

// handoffTime is the block's "updated:" time, zero when unreadable.
func handoffTime(block string) time.Time {
	m := tiers.ParseMain([]byte(block))
	t, _ := time.Parse(time.RFC3339, strings.TrimSpace(m.Handoff.Get(tiers.KeyUpdated)))
	return t
}
